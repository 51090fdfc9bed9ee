package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// claudePayload is a PreToolUse payload as Claude Code sends it.
func claudePayload(t *testing.T, tool, cwd string, input map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"session_id": "abc123", "transcript_path": "/tmp/transcript.jsonl", "cwd": cwd,
		"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input,
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHookClaude(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	file := filepath.Join(r.Dir, "m.go")
	// A Write that calls a function the standard library does not have is denied.
	bad := claudePayload(t, "Write", r.Dir, map[string]any{"file_path": file,
		"content": "package m\n\nimport \"strings\"\n\n// Up shouts.\nfunc Up(s string) string { return strings.ToUpperCase(s) }\n"})
	code, out, errs := run(t, r.Dir, bad, "hook", "claude")
	var decision struct {
		HookSpecificOutput struct{ HookEventName, PermissionDecision, PermissionDecisionReason string }
	}
	if err := json.Unmarshal([]byte(out), &decision); err != nil || code != 2 || decision.HookSpecificOutput.PermissionDecision != "deny" ||
		!strings.Contains(decision.HookSpecificOutput.PermissionDecisionReason, "strings.ToUpperCase") ||
		!strings.Contains(decision.HookSpecificOutput.PermissionDecisionReason, "ToUpper") || !strings.Contains(errs, "unknown-symbol") {
		t.Errorf("bad Write: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	if b, _ := os.ReadFile(file); string(b) != cleanGo {
		t.Error("the hook changed the file")
	}
	// An Edit that keeps the file correct is allowed.
	good := claudePayload(t, "Edit", r.Dir, map[string]any{"file_path": file, "old_string": "return a + b", "new_string": "return b + a"})
	if code, out, errs := run(t, r.Dir, good, "hook", "claude"); code != 0 || strings.Contains(out, "deny") {
		t.Errorf("good Edit: exit %d %s %s", code, out, errs)
	}
	// A MultiEdit whose second edit introduces an undefined name is denied.
	multi := claudePayload(t, "MultiEdit", r.Dir, map[string]any{"file_path": file, "edits": []map[string]any{
		{"old_string": "a + b", "new_string": "a + b + c"},
	}})
	if code, out, _ := run(t, r.Dir, multi, "hook", "claude"); code != 2 || !strings.Contains(out, "undefined") {
		t.Errorf("bad MultiEdit: exit %d %s", code, out)
	}
	// Garbage on stdin is denied, never allowed.
	if code, out, _ := run(t, r.Dir, "not json", "hook", "claude"); code != 2 || !strings.Contains(out, `"deny"`) {
		t.Errorf("garbage: exit %d %s", code, out)
	}
}

func TestHookInstallBlocksCommit(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	cmd := exec.Command(bin, "hook", "install")
	cmd.Dir = r.Dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hook install: %v %s", err, out)
	}
	commit := func() (string, error) {
		c := exec.Command("git", "commit", "-m", "change")
		c.Dir = r.Dir
		c.Env = append(gitEnv(r.Dir), "AGENTVERIFY="+bin)
		out, err := c.CombinedOutput()
		return string(out), err
	}
	r.Write(map[string]string{"m.go": cleanGo + "\n// Bad is broken.\nfunc Bad() int { return notDefined }\n"})
	r.Git("add", "m.go")
	if out, err := commit(); err == nil || !strings.Contains(out, "hallucination/undefined") {
		t.Errorf("the hook let a broken change be committed, or refused it for another reason: %v\n%s", err, out)
	}
	r.Write(map[string]string{"m.go": cleanGo + "\n// Good is fine.\nfunc Good() int { return Add(1, 2) }\n"})
	r.Git("add", "m.go")
	if out, err := commit(); err != nil {
		t.Errorf("the hook refused a clean change: %v\n%s", err, out)
	}
}

// buildBinary builds agentverify once per test binary run into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "agentverify")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/agentverify/agentverify/cmd/agentverify").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestMCPHTTPBindsLoopback: a non-loopback --http address is refused unless --allow-remote.
func TestMCPHTTPBindsLoopback(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:8765", "example.com:80", "nonsense"} {
		if code, _, errs := run(t, r.Dir, "", "mcp", "--http", addr); code != ExitError || !strings.Contains(errs, "loopback") {
			t.Errorf("--http %s: exit %d %q", addr, code, errs)
		}
	}
	if code, _, errs := run(t, r.Dir, "", "mcp", "--http", "192.0.2.1:8765", "--allow-remote"); code != ExitError || strings.Contains(errs, "loopback") {
		t.Errorf("--allow-remote did not get past the loopback check: exit %d %q", code, errs)
	}
}
