package agenthook

import (
	"encoding/json"
	"fmt"

	"github.com/agentverify/agentverify/change/editset"
)

// ClaudeInput is the PreToolUse payload of Claude Code and the agents that speak its hook
// protocol (the fields used here).
type ClaudeInput struct {
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	Cwd           string          `json:"cwd"`
}

// ClaudeOutput is what a Claude-compatible hook prints on stdout.
type ClaudeOutput struct {
	HookSpecificOutput ClaudeDecision `json:"hookSpecificOutput"`
}

// ClaudeDecision carries the permission decision.
type ClaudeDecision struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// claudeCodec is Claude Code's PreToolUse protocol with an agent's own tool names: Kiro,
// Qwen Code, Factory Droid and OpenHands send the same payload and read the same answer,
// and differ only in what their file tools are called and take. Codex CLI and Gemini CLI
// send the same payload too, and embed it for their own answers.
type claudeCodec struct {
	agent string
	tools map[string]toolKind
	// names lists the tools for messages; matcher is the tool matcher the agent's hook
	// configuration needs.
	names, matcher string
	// event is the hook event's name in the payload ("PreToolUse" unless the agent spells
	// it otherwise).
	event string
}

// Decode reads a PreToolUse payload.
func (c claudeCodec) Decode(data []byte) (Proposal, error) {
	event := c.event
	if event == "" {
		event = "PreToolUse"
	}
	var in ClaudeInput
	if err := strictUnmarshal(data, &in); err != nil {
		return Proposal{}, fmt.Errorf("could not parse the %s input: %v", event, err)
	}
	if in.HookEventName != "" && in.HookEventName != event {
		return Proposal{}, fmt.Errorf("hook %s handles %s, not %s", c.agent, event, in.HookEventName)
	}
	edits, err := c.PostEdit(in)
	return Proposal{Dir: in.Cwd, Edits: edits}, err
}

// PostEdit returns the files the tool writes, each whole as it will be after the tool runs.
func (c claudeCodec) PostEdit(in ClaudeInput) ([]editset.Edit, error) {
	kind, ok := c.tools[in.ToolName]
	if !ok {
		return nil, fmt.Errorf("agentverify hook %s verifies %s; got tool %q (set the hook's matcher to %q)", c.agent, c.names, in.ToolName, c.matcher)
	}
	return decodeTool(in.Cwd, in.ToolName, in.ToolInput, kind)
}

// Encode answers as Claude Code reads it: a deny is exit 2 with the decision on stdout and
// the reason on stderr; warnings are additional context for the model.
func (claudeCodec) Encode(v Verdict) Result {
	switch v.Kind {
	case Deny:
		out := ClaudeOutput{ClaudeDecision{HookEventName: "PreToolUse", PermissionDecision: "deny", PermissionDecisionReason: Clip(nonEmpty(v.Reason))}}
		stderr := v.Reason
		if v.Findings != "" {
			stderr = v.Findings
		}
		return Result{Stdout: jsonLine(out), Stderr: nonEmpty(stderr), Exit: 2}
	case Warn:
		out := ClaudeOutput{ClaudeDecision{HookEventName: "PreToolUse", AdditionalContext: Clip(v.Reason)}}
		return Result{Stdout: jsonLine(out)}
	}
	return Result{}
}

// Claude is Claude Code's codec (Write, Edit, MultiEdit).
var Claude = claudeCodec{agent: "claude", names: "Write, Edit and MultiEdit", matcher: "Write|Edit|MultiEdit", tools: map[string]toolKind{
	"Write": writeTool, "Edit": editTool, "MultiEdit": multiEditTool,
}}

// claudeCompatible are the agents that speak Claude Code's protocol, with their tools.
var (
	// Qwen Code (a Gemini CLI fork with Claude-style hooks): write_file, edit (old_string,
	// new_string, replace_all; "replace" in older releases).
	qwenCodec = claudeCodec{agent: "qwen", names: "write_file, edit and replace", matcher: "write_file|edit|replace", tools: map[string]toolKind{
		"write_file": writeTool, "edit": editTool, "replace": editTool,
	}}
	// Factory Droid: Create, Edit, MultiEdit and ApplyPatch (Codex's patch format).
	factoryCodec = claudeCodec{agent: "factory", names: "Create, Write, Edit, MultiEdit and ApplyPatch", matcher: "Create|Edit|MultiEdit|ApplyPatch", tools: map[string]toolKind{
		"Create": writeTool, "Write": writeTool, "Edit": editTool, "MultiEdit": multiEditTool, "ApplyPatch": patchTool,
	}}
	// Kiro CLI (preToolUse in an agent configuration): fs_write with create, str_replace,
	// insert and append commands.
	kiroCodec = claudeCodec{agent: "kiro", event: "preToolUse", names: "fs_write", matcher: "fs_write", tools: map[string]toolKind{
		"fs_write": editorTool,
	}}
	// OpenHands: the str_replace_editor (file_editor) tool.
	openhandsCodec = claudeCodec{agent: "openhands", names: "str_replace_editor and file_editor", matcher: "str_replace_editor|file_editor", tools: map[string]toolKind{
		"str_replace_editor": editorTool, "file_editor": editorTool,
	}}
)
