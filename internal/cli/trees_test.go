package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

// runWithin runs the command line and fails the test if it does not finish in time: the
// property under test is that the gate never hangs.
func runWithin(t *testing.T, limit time.Duration, dir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errs := run(t, dir, stdin, args...)
		done <- result{code, out, errs}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(limit):
		t.Fatalf("agentverify %s did not finish within %s", strings.Join(args, " "), limit)
	}
	return 0, "", ""
}

// denyReason decodes the hook's answer and returns the deny reason, failing unless the
// edit was denied with exit 2.
func denyReason(t *testing.T, code int, out, errs string) string {
	t.Helper()
	var d struct {
		HookSpecificOutput struct{ PermissionDecision, PermissionDecisionReason string }
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || code != 2 || d.HookSpecificOutput.PermissionDecision != "deny" {
		t.Fatalf("want a deny with exit 2, got exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	return d.HookSpecificOutput.PermissionDecisionReason
}

// TestSameSizeEditWithMTimeResetIsSeen: an edit that keeps the file's size and resets its
// mtime (touch -r) is found by content and fails the gate when it breaks the code.
func TestSameSizeEditWithMTimeResetIsSeen(t *testing.T) {
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	full := filepath.Join(r.Dir, "m.go")
	old := time.Date(2021, 6, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(full, old, old)
	r.Git("update-index", "--refresh")
	broken := strings.Replace(cleanGo, "return a + b", "return a + c", 1)
	if len(broken) != len(cleanGo) {
		t.Fatal("the edit must keep the size")
	}
	r.Write(map[string]string{"m.go": broken})
	os.Chtimes(full, old, old)
	code, out, errs := run(t, r.Dir, "", "diff")
	if code != 1 || !strings.Contains(out, "m.go:5") || !strings.Contains(out, "undefined") {
		t.Errorf("exit %d, want 1 with the undefined c on m.go:5\n%s%s", code, out, errs)
	}
}

// TestNamedPipeNeverHangs: a named pipe called x.go — in the working tree, or as the file a
// hook edit writes — ends the run at once with a message naming it; nothing hangs.
func TestNamedPipeNeverHangs(t *testing.T) {
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	if err := mkfifo(filepath.Join(r.Dir, "x.go")); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{{"diff"}, {"check", "."}, {"check", "m.go"}} {
		code, out, errs := runWithin(t, 30*time.Second, r.Dir, "", args...)
		if (code != 1 && code != 2) || !strings.Contains(out+errs, "x.go: is a named pipe") {
			t.Errorf("%v: exit %d, want 1 or 2 naming the pipe\n%s%s", args, code, out, errs)
		}
	}
	pipe := filepath.Join(r.Dir, "x.go")
	for _, tool := range []struct {
		name  string
		input map[string]any
	}{
		{"Write", map[string]any{"file_path": pipe, "content": "package m\n"}},
		{"Edit", map[string]any{"file_path": pipe, "old_string": "a", "new_string": "b"}},
		{"Write", map[string]any{"file_path": filepath.Join(r.Dir, "y.go"), "content": "package m\n"}}, // next to the pipe
	} {
		code, out, errs := runWithin(t, 30*time.Second, r.Dir, claudePayload(t, tool.name, r.Dir, tool.input), "hook", "claude")
		if reason := denyReason(t, code, out, errs); !strings.Contains(reason, "x.go: is a named pipe") {
			t.Errorf("%s %v: reason %q, want the pipe named", tool.name, tool.input["file_path"], reason)
		}
	}
}

// TestHookResolvesDirectoryLinks: a write through a directory link inside an allowed path
// lands where the link points; scope judges that path, and a link out of the repository
// is refused.
func TestHookResolvesDirectoryLinks(t *testing.T) {
	policy := "version: 1\nscope:\n  allowed_paths: [\"**\"]\n  forbidden_paths: [\"secret/**\"]\nhallucination: {}\n"
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, ".agentverify.yaml": policy, "secret/s.go": "package secret\n"})
	outside := t.TempDir()
	for name, target := range map[string]string{"pkg/sec": "../secret", "pkg/out": outside} {
		os.MkdirAll(filepath.Join(r.Dir, "pkg"), 0o755)
		if err := os.Symlink(target, filepath.Join(r.Dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) string {
		payload := claudePayload(t, "Write", r.Dir, map[string]any{"file_path": filepath.Join(r.Dir, p), "content": "package secret\n"})
		code, out, errs := runWithin(t, time.Minute, r.Dir, payload, "hook", "claude")
		return denyReason(t, code, out, errs)
	}
	if reason := write("pkg/sec/new.go"); !strings.Contains(reason, "scope/forbidden-path") || !strings.Contains(reason, "secret/new.go") {
		t.Errorf("write through pkg/sec: reason %q, want scope/forbidden-path on secret/new.go", reason)
	}
	if reason := write("pkg/out/new.go"); !strings.Contains(reason, "outside the repository") {
		t.Errorf("write through pkg/out: reason %q, want outside the repository", reason)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "secret", "new.go")); err == nil {
		t.Error("the hook wrote a file")
	}
}

// TestOversizedAndBinaryGoFilesFail: a 6 MB hook Write is denied with a clear reason, and
// a .go file over the limit or holding a NUL byte fails diff; nothing unverified passes.
func TestOversizedAndBinaryGoFilesFail(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	big := "package m\n\n// Big is big.\nvar Big = `" + strings.Repeat("x", 6<<20) + "`\n"
	payload := claudePayload(t, "Write", r.Dir, map[string]any{"file_path": filepath.Join(r.Dir, "big.go"), "content": big})
	code, out, errs := run(t, r.Dir, payload, "hook", "claude")
	reason := denyReason(t, code, out, errs)
	if !strings.Contains(reason, "hallucination/unverified-file") || !strings.Contains(reason, "over the size limit") {
		t.Errorf("6 MB Write: reason %q, want hallucination/unverified-file over the size limit", reason)
	}
	r.Write(map[string]string{"nul.go": "package m\n\n// S holds a NUL.\nvar S = \"a\x00b\"\n"})
	code, out, errs = run(t, r.Dir, "", "diff")
	if code != 1 || !strings.Contains(out, "hallucination/unverified-file") || !strings.Contains(out, "nul.go holds a NUL byte") {
		t.Errorf("NUL byte: exit %d, want 1 with hallucination/unverified-file\n%s%s", code, out, errs)
	}
	// The limit is the trusted policy's: lowered, a small file is over it too.
	os.Remove(filepath.Join(r.Dir, "nul.go"))
	r.Write(map[string]string{"n.go": "package m\n\n// N is new.\nvar N = 1\n"})
	pol := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(pol, []byte("version: 1\nhallucination: {}\nlimits:\n  max_file_size: 20\n"), 0o644)
	code, out, errs = run(t, r.Dir, "", "diff", "--policy", pol)
	if code != 1 || !strings.Contains(out, "n.go is 34 bytes, over the size limit of 20 bytes (limits.max_file_size)") {
		t.Errorf("max_file_size 20: exit %d\n%s%s", code, out, errs)
	}
}

// TestGeneratedHeaderDoesNotExempt: a file with a generated-code header that the change
// edits is verified like any other: its compile error is reported.
func TestGeneratedHeaderDoesNotExempt(t *testing.T) {
	t.Parallel()
	gen := "// Code generated by gen; DO NOT EDIT.\n\npackage m\n\nvar Gen = 1\n"
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, "gen.go": gen})
	r.Write(map[string]string{"gen.go": gen + "\nvar Broken int = \"text\"\n"})
	code, out, errs := run(t, r.Dir, "", "diff")
	if code != 1 || !strings.Contains(out, "gen.go:7") {
		t.Errorf("exit %d, want 1 with the error on gen.go:7\n%s%s", code, out, errs)
	}
}

// TestPackageLiteralMeasured: a package-level function literal too complex for the
// policy is reported under its variable's name.
func TestPackageLiteralMeasured(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	var b strings.Builder
	b.WriteString("package m\n\nvar f = func(x int) int {\n")
	for i := range 19 {
		b.WriteString("\tif x == " + string(rune('0'+i%10)) + " {\n\t\tx++\n\t}\n")
	}
	b.WriteString("\treturn x\n}\n")
	r.Write(map[string]string{"f.go": b.String()})
	code, out, errs := run(t, r.Dir, "", "diff")
	if code != 1 || !strings.Contains(out, "complexity/cyclomatic") || !strings.Contains(out, "function f has cyclomatic complexity 20") {
		t.Errorf("exit %d, want 1 with function f at cyclomatic 20\n%s%s", code, out, errs)
	}
}

// TestHookTimeoutDenies: a verification that outlasts hook claude --timeout denies the
// edit, in time for Claude Code, which would otherwise let the tool run unverified.
func TestHookTimeoutDenies(t *testing.T) {
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	slow := &check.Dimension{Name: policy.Style, Doc: "hangs", Run: func(*check.Pass) ([]check.Finding, error) {
		time.Sleep(time.Minute) // ignores its context: the hook must not wait for it
		return nil, nil
	}}
	payload := claudePayload(t, "Write", r.Dir, map[string]any{"file_path": filepath.Join(r.Dir, "m.go"), "content": cleanGo})
	var out, errb bytes.Buffer
	env := &Env{Stdin: strings.NewReader(payload), Stdout: &out, Stderr: &errb, Dir: r.Dir, Getenv: func(string) string { return "" },
		Checker: &agentverify.Checker{Dimensions: []*check.Dimension{slow}}}
	start := time.Now()
	code := Main(context.Background(), []string{"hook", "claude", "--timeout", "1s"}, env)
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the hook answered after %s, want about 1s", took)
	}
	if reason := denyReason(t, code, out.String(), errb.String()); !strings.Contains(reason, "did not finish within 1s") {
		t.Errorf("reason %q, want the time-out named", reason)
	}
	if code, _, errs := run(t, r.Dir, payload, "hook", "claude", "--timeout", "0s"); code != 2 || !strings.Contains(errs, "--timeout") {
		t.Errorf("--timeout 0s: exit %d %s", code, errs)
	}
}
