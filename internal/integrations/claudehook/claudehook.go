// Package claudehook is Claude Code's PreToolUse hook: the Claude codec of the agent hook
// layer (internal/integrations/agenthook), kept under its own name for its callers. It
// reads the hook's JSON payload, builds the whole post-edit file in memory for Write, Edit
// and MultiEdit, has it verified, and answers allow or deny. It fails closed: unreadable
// input, an unknown tool, a malformed tool input or an internal error all deny the edit.
package claudehook

import (
	"context"
	"io"
	"path/filepath"

	"github.com/agentverify/agentverify/internal/integrations/agenthook"
)

// MaxReason bounds the deny reason shown to the model (Claude Code truncates long ones).
const MaxReason = agenthook.MaxReason

// Input is the PreToolUse payload (the fields used here).
type Input = agenthook.ClaudeInput

// Output is what the hook prints on stdout.
type Output = agenthook.ClaudeOutput

// HookSpecificOutput carries the permission decision.
type HookSpecificOutput = agenthook.ClaudeDecision

// Verify checks proposed edits in the repository containing dir.
type Verify = agenthook.Verify

// Result is the hook's answer: what to print and the exit code (0 allow, 2 deny).
type Result = agenthook.Result

// Run reads one payload from r and decides.
func Run(ctx context.Context, r io.Reader, verify Verify) Result {
	return agenthook.Run(ctx, agenthook.Claude, r, verify)
}

// PostEdit returns the absolute path the tool writes and the whole file as it will be after
// the tool runs.
func PostEdit(in Input) (path string, content []byte, err error) {
	edits, err := agenthook.Claude.PostEdit(in)
	if err != nil {
		return "", nil, err
	}
	return filepath.Clean(edits[0].Path), edits[0].Content, nil
}

func clip(s string) string { return agenthook.Clip(s) }
