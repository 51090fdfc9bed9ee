package agenthook

// codexCodec is OpenAI Codex CLI's PreToolUse hook on apply_patch: the payload is
// Claude-shaped with the raw patch in tool_input.command. A deny is exit 2 with the reason
// on stderr — Codex treats exit 2 with an empty stderr as a failed hook and lets the patch
// through, so the reason is never empty — and nothing on stdout, which Codex ignores then.
type codexCodec struct{ claudeCodec }

// codex decodes as Claude Code's protocol with apply_patch as its one tool.
var codex = codexCodec{claudeCodec{agent: "codex", names: "apply_patch", matcher: "apply_patch", tools: map[string]toolKind{
	"apply_patch": patchTool,
}}}

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
