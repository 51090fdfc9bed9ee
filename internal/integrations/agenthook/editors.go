package agenthook

import (
	"encoding/json"
	"fmt"

	"github.com/agentverify/agentverify/change/editset"
)

// cursorCodec is Cursor's preToolUse hook. Cursor runs it for every tool, so a tool that
// writes no file is allowed unverified. The answer is JSON on stdout: permission, a
// message for the user and one for the agent. (afterFileEdit's answer is ignored by
// Cursor, so the gate does not use it.)
type cursorCodec struct{}

type cursorInput struct {
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	Cwd            string          `json:"cwd"`
	WorkspaceRoots []string        `json:"workspace_roots"`
}

var cursorTools = map[string]toolKind{
	"Write": writeTool, "Edit": editTool, "MultiEdit": multiEditTool, "StrReplace": editTool,
	"edit_file": editTool, "search_replace": editTool, "write": writeTool,
}

// Decode reads a preToolUse payload.
func (cursorCodec) Decode(data []byte) (Proposal, error) {
	var in cursorInput
	if err := strictUnmarshal(data, &in); err != nil {
		return Proposal{}, fmt.Errorf("could not parse the preToolUse input: %v", err)
	}
	if in.HookEventName != "" && in.HookEventName != "preToolUse" {
		return Proposal{}, fmt.Errorf("hook cursor handles preToolUse, not %s", in.HookEventName)
	}
	kind, ok := cursorTools[in.ToolName]
	if in.ToolName == "" {
		return Proposal{}, errNoTool
	}
	if !ok {
		return Proposal{}, ErrNotEdit
	}
	dir := in.Cwd
	if dir == "" && len(in.WorkspaceRoots) > 0 {
		dir = in.WorkspaceRoots[0]
	}
	edits, err := decodeTool(dir, in.ToolName, in.ToolInput, kind)
	return Proposal{Dir: dir, Edits: edits}, err
}

type cursorOutput struct {
	Permission   string `json:"permission"`
	UserMessage  string `json:"user_message,omitempty"`
	AgentMessage string `json:"agent_message,omitempty"`
}

// Encode answers as Cursor reads it.
func (cursorCodec) Encode(v Verdict) Result {
	switch v.Kind {
	case Deny:
		return Result{Stdout: jsonLine(cursorOutput{Permission: "deny", UserMessage: "agentverify denied this edit", AgentMessage: Clip(nonEmpty(v.Reason))})}
	case Warn:
		return Result{Stdout: jsonLine(cursorOutput{Permission: "allow", AgentMessage: Clip(v.Reason)})}
	}
	return Result{Stdout: jsonLine(cursorOutput{Permission: "allow"})}
}

// copilotCodec is GitHub Copilot's (CLI and coding agent) preToolUse hook. Copilot runs
// it for every tool; toolArgs is the tool's arguments as a JSON string.
type copilotCodec struct{}

type copilotInput struct {
	Cwd      string          `json:"cwd"`
	ToolName string          `json:"toolName"`
	ToolArgs json.RawMessage `json:"toolArgs"`
}

var copilotTools = map[string]toolKind{
	"create": writeTool, "edit": editTool, "str_replace_editor": editorTool, "apply_patch": patchTool, "write": writeTool,
}

// Decode reads a preToolUse payload.
func (copilotCodec) Decode(data []byte) (Proposal, error) {
	var in copilotInput
	if err := strictUnmarshal(data, &in); err != nil {
		return Proposal{}, fmt.Errorf("could not parse the preToolUse input: %v", err)
	}
	kind, ok := copilotTools[in.ToolName]
	if in.ToolName == "" {
		return Proposal{}, errNoTool
	}
	if !ok {
		return Proposal{}, ErrNotEdit
	}
	args := in.ToolArgs
	var s string
	if json.Unmarshal(args, &s) == nil { // the arguments as a JSON string
		args = json.RawMessage(s)
	}
	edits, err := decodeTool(in.Cwd, in.ToolName, args, kind)
	return Proposal{Dir: in.Cwd, Edits: edits}, err
}

type copilotOutput struct {
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// Encode answers as Copilot reads it.
func (copilotCodec) Encode(v Verdict) Result {
	switch v.Kind {
	case Deny:
		return Result{Stdout: jsonLine(copilotOutput{PermissionDecision: "deny", PermissionDecisionReason: Clip(nonEmpty(v.Reason))})}
	case Warn:
		return Result{Stdout: jsonLine(copilotOutput{PermissionDecision: "allow", AdditionalContext: Clip(v.Reason)})}
	}
	return Result{}
}

// windsurfCodec is Windsurf's pre_write_code hook: tool_info names the file and its
// old/new string edits. A deny is exit 2 with the reason on stderr.
type windsurfCodec struct{}

type windsurfInput struct {
	AgentActionName string          `json:"agent_action_name"`
	ToolInfo        json.RawMessage `json:"tool_info"`
	Cwd             string          `json:"cwd"`
}

// Decode reads a pre_write_code payload.
func (windsurfCodec) Decode(data []byte) (Proposal, error) {
	var in windsurfInput
	if err := strictUnmarshal(data, &in); err != nil {
		return Proposal{}, fmt.Errorf("could not parse the pre_write_code input: %v", err)
	}
	if in.AgentActionName != "pre_write_code" {
		return Proposal{}, fmt.Errorf("hook windsurf handles pre_write_code, not %q", in.AgentActionName)
	}
	edits, err := decodeTool(in.Cwd, "pre_write_code", in.ToolInfo, windsurfEdits)
	return Proposal{Dir: in.Cwd, Edits: edits}, err
}

// windsurfEdits applies tool_info.edits in order; an edit with an empty old string on a
// missing file creates it.
func windsurfEdits(dir, tool string, in *toolInput) ([]editset.Edit, error) {
	if len(in.Edits) == 0 {
		return nil, fmt.Errorf("%s: tool_info has no edits", tool)
	}
	return multiEditTool(dir, tool, in)
}

// Encode answers as Windsurf reads it.
func (windsurfCodec) Encode(v Verdict) Result {
	if v.Kind == Deny {
		return Result{Stderr: nonEmpty(Clip(v.Reason)), Exit: 2}
	}
	if v.Kind == Warn {
		return Result{Stdout: []byte(Clip(v.Reason))}
	}
	return Result{}
}
