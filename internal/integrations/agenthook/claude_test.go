package agenthook

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/report"
)

func claudePayload(t testing.TB, tool string, input any, cwd string) []byte {
	t.Helper()
	ti, err := json.Marshal(input)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{
		"session_id": "s", "transcript_path": "/tmp/t.jsonl", "hook_event_name": "PreToolUse",
		"tool_name": tool, "tool_input": json.RawMessage(ti), "cwd": cwd,
	})
	return b
}

func TestClaudePostEdit(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.go")
	if err := os.WriteFile(file, []byte("package a\n\nfunc A() int { return 1 }\n\nfunc B() int { return 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, tool string
		input      any
		want       string // post-edit content, or "error: substring"
	}{
		{"write", "Write", map[string]any{"file_path": file, "content": "package a\n"}, "package a\n"},
		{"write relative", "Write", map[string]any{"file_path": "b.go", "content": "x"}, "x"},
		{"edit once", "Edit", map[string]any{"file_path": file, "old_string": "func A() int { return 1 }", "new_string": "func A() int { return 2 }"}, "package a\n\nfunc A() int { return 2 }\n\nfunc B() int { return 1 }\n"},
		{"edit ambiguous", "Edit", map[string]any{"file_path": file, "old_string": "return 1", "new_string": "return 2"}, "error: occurs 2 times"},
		{"edit replace all", "Edit", map[string]any{"file_path": file, "old_string": "return 1", "new_string": "return 2", "replace_all": true}, "package a\n\nfunc A() int { return 2 }\n\nfunc B() int { return 2 }\n"},
		{"edit missing", "Edit", map[string]any{"file_path": file, "old_string": "nope", "new_string": "x"}, "error: not found"},
		{"edit no file", "Edit", map[string]any{"file_path": filepath.Join(dir, "none.go"), "old_string": "a", "new_string": "b"}, "error: does not exist"},
		{"multiedit in order", "MultiEdit", map[string]any{"file_path": file, "edits": []map[string]any{
			{"old_string": "func A()", "new_string": "func AA()"},
			{"old_string": "func AA() int { return 1 }", "new_string": "func AA() int { return 3 }"},
		}}, "package a\n\nfunc AA() int { return 3 }\n\nfunc B() int { return 1 }\n"},
		{"multiedit empty", "MultiEdit", map[string]any{"file_path": file, "edits": []any{}}, "error: no edits"},
		{"unknown tool", "Bash", map[string]any{"command": "rm -rf /"}, "error: Write, Edit and MultiEdit"},
		{"no file_path", "Write", map[string]any{"content": "x"}, "error: no file_path"},
		{"no content", "Write", map[string]any{"file_path": file}, "error: no content"},
		{"wrong type", "Write", map[string]any{"file_path": 3, "content": "x"}, "error: bad tool_input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in ClaudeInput
			if err := json.Unmarshal(claudePayload(t, tt.tool, tt.input, dir), &in); err != nil {
				t.Fatal(err)
			}
			_, got, err := claudePostEdit(in)
			if want, isErr := strings.CutPrefix(tt.want, "error: "); isErr {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("err = %v, want one containing %q", err, want)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("PostEdit = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func reportWith(status report.Status, vs ...report.Violation) *report.Report {
	return &report.Report{Status: status, Violations: vs}
}

func TestClaudeRunDecisions(t *testing.T) {
	dir := t.TempDir()
	in := claudePayload(t, "Write", map[string]any{"file_path": filepath.Join(dir, "a.go"), "content": "package a\n"}, dir)
	bad := report.Violation{Rule: "hallucination/unknown-symbol", Severity: "error", Message: "strings.Reverse is not declared by package strings", Suggestion: "did you mean strings.Repeat?", Location: report.Violation{}.Location}
	bad.Location.File, bad.Location.Line = "a.go", 3
	warn := bad
	warn.Rule, warn.Severity, warn.Message, warn.Suggestion = "style/missing-doc", "warning", "exported function A has no doc comment", ""

	var gotEdits []editset.Edit
	verify := func(status report.Status, vs ...report.Violation) Verify {
		return func(_ context.Context, d string, edits []editset.Edit) (*report.Report, error) {
			if d != dir {
				t.Errorf("verified in %q, want %q", d, dir)
			}
			gotEdits = edits
			return reportWith(status, vs...), nil
		}
	}
	res := claudeRun(context.Background(), strings.NewReader(string(in)), verify(report.Failed, bad))
	var out ClaudeOutput
	if err := json.Unmarshal(res.Stdout, &out); err != nil || res.Exit != 2 || out.HookSpecificOutput.PermissionDecision != "deny" ||
		!strings.Contains(out.HookSpecificOutput.PermissionDecisionReason, "hallucination/unknown-symbol a.go:3") ||
		!strings.Contains(res.Stderr, "did you mean strings.Repeat?") {
		t.Errorf("failed edit: exit %d stdout %s stderr %q", res.Exit, res.Stdout, res.Stderr)
	}
	if len(gotEdits) != 1 || string(gotEdits[0].Content) != "package a\n" {
		t.Errorf("verified edits %+v", gotEdits)
	}
	res = claudeRun(context.Background(), strings.NewReader(string(in)), verify(report.Warnings, warn))
	out = ClaudeOutput{}
	if err := json.Unmarshal(res.Stdout, &out); err != nil || res.Exit != 0 || out.HookSpecificOutput.PermissionDecision != "" ||
		!strings.Contains(out.HookSpecificOutput.AdditionalContext, "missing-doc") {
		t.Errorf("warning edit: exit %d stdout %s", res.Exit, res.Stdout)
	}
	if res = claudeRun(context.Background(), strings.NewReader(string(in)), verify(report.Passed)); res.Exit != 0 || len(res.Stdout) != 0 {
		t.Errorf("passed edit: exit %d stdout %s", res.Exit, res.Stdout)
	}
}

func TestClaudeRunFailsClosed(t *testing.T) {
	never := func(context.Context, string, []editset.Edit) (*report.Report, error) {
		t.Error("verify called on bad input")
		return nil, nil
	}
	for _, in := range []string{"", "{", "null", "[]", `{"tool_name":"Write"}`, `{"tool_name":"Write","tool_input":{"file_path":"/x"}}`, `{"hook_event_name":"PostToolUse","tool_name":"Write"}`, `{"tool_name":"Write","tool_input":{}} {}`} {
		res := claudeRun(context.Background(), strings.NewReader(in), never)
		var out ClaudeOutput
		if err := json.Unmarshal(res.Stdout, &out); err != nil || res.Exit != 2 || out.HookSpecificOutput.PermissionDecision != "deny" {
			t.Errorf("input %q: exit %d stdout %s, want a deny", in, res.Exit, res.Stdout)
		}
	}
	dir := t.TempDir()
	in := claudePayload(t, "Write", map[string]any{"file_path": filepath.Join(dir, "a.go"), "content": "x"}, dir)
	res := claudeRun(context.Background(), strings.NewReader(string(in)), func(context.Context, string, []editset.Edit) (*report.Report, error) {
		return nil, os.ErrPermission
	})
	if res.Exit != 2 || !strings.Contains(string(res.Stdout), "could not verify") {
		t.Errorf("internal error: exit %d stdout %s", res.Exit, res.Stdout)
	}
}

func TestClaudeReasonIsClipped(t *testing.T) {
	long := strings.Repeat("é", MaxReason)
	got := Clip(long)
	if len(got) > MaxReason || !utf8.ValidString(got) || !strings.HasSuffix(got, "(truncated)") {
		t.Errorf("clip: len %d valid %v", len(got), utf8.ValidString(got))
	}
}

// FuzzRun: whatever arrives on stdin, the hook never panics, and anything it cannot verify
// is denied with exit 2 and a JSON decision.
func FuzzClaudeRun(f *testing.F) {
	f.Add(`{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"a.go","content":"x"},"cwd":"/tmp"}`)
	f.Add(`{"tool_name":"Edit","tool_input":{"file_path":"/nonexistent/a.go","old_string":"a","new_string":"b"}}`)
	f.Add(`{"tool_name":"MultiEdit","tool_input":{"file_path":"a.go","edits":[{"old_string":"","new_string":"x"}]},"cwd":"/nonexistent"}`)
	f.Add(`{}`)
	f.Fuzz(func(t *testing.T, in string) {
		res := claudeRun(context.Background(), strings.NewReader(in), func(context.Context, string, []editset.Edit) (*report.Report, error) {
			return reportWith(report.Passed), nil
		})
		switch res.Exit {
		case 0:
		case 2:
			var out ClaudeOutput
			if err := json.Unmarshal(res.Stdout, &out); err != nil || out.HookSpecificOutput.PermissionDecision != "deny" {
				t.Fatalf("exit 2 without a deny decision: %s", res.Stdout)
			}
			if len(out.HookSpecificOutput.PermissionDecisionReason) > MaxReason {
				t.Fatalf("reason of %d bytes", len(out.HookSpecificOutput.PermissionDecisionReason))
			}
		default:
			t.Fatalf("exit %d", res.Exit)
		}
	})
}

// claudeRun is Claude Code's hook as `hook claude` runs it.
func claudeRun(ctx context.Context, r io.Reader, verify Verify) Result {
	return Run(ctx, Claude, r, verify)
}

// claudePostEdit returns the path the tool writes and the whole file after it runs.
func claudePostEdit(in ClaudeInput) (string, []byte, error) {
	edits, err := Claude.PostEdit(in)
	if err != nil {
		return "", nil, err
	}
	return filepath.Clean(edits[0].Path), edits[0].Content, nil
}
