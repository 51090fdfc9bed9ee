package agenthook

import (
	"fmt"
)

// codexCodec is OpenAI Codex CLI's PreToolUse hook on apply_patch: the payload is
// Claude-shaped with the raw patch in tool_input.command. A deny is exit 2 with the reason
// on stderr — Codex treats exit 2 with an empty stderr as a failed hook and lets the patch
// through, so the reason is never empty — and nothing on stdout, which Codex ignores then.
type codexCodec struct{}

// Decode reads a Codex PreToolUse payload.
func (codexCodec) Decode(data []byte) (Proposal, error) {
	var in ClaudeInput
	if err := strictUnmarshal(data, &in); err != nil {
		return Proposal{}, fmt.Errorf("could not parse the PreToolUse input: %v", err)
	}
	if in.HookEventName != "" && in.HookEventName != "PreToolUse" {
		return Proposal{}, fmt.Errorf("hook codex handles PreToolUse, not %s", in.HookEventName)
	}
	if in.ToolName != "apply_patch" {
		return Proposal{}, fmt.Errorf("agentverify hook codex verifies apply_patch; got tool %q (set the hook's matcher to \"apply_patch\")", in.ToolName)
	}
	edits, err := decodeTool(in.Cwd, in.ToolName, in.ToolInput, patchTool)
	return Proposal{Dir: in.Cwd, Edits: edits}, err
}

// Encode answers as Codex reads it.
func (codexCodec) Encode(v Verdict) Result {
	switch v.Kind {
	case Deny:
		return Result{Stderr: nonEmpty(Clip(v.Reason)), Exit: 2}
	case Warn:
		return Result{Stdout: jsonLine(ClaudeOutput{ClaudeDecision{HookEventName: "PreToolUse", AdditionalContext: Clip(v.Reason)}})}
	}
	return Result{}
}
