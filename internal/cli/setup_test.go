package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/pathenv"
	"github.com/agentverify/agentverify/lang/python/pyright"
)

// withoutPyright makes pyright unfindable for the rest of the test: the pyright program
// is hidden from PATH (every other program of its directory, git included, stays), and
// $AGENTVERIFY_PYRIGHT is set to env (empty: unset).
func withoutPyright(t *testing.T, env string) {
	t.Helper()
	pathenv.Hide(t, "pyright")
	t.Setenv(pyright.EnvVar, env)
}

// TestMissingPyrightExitsTwo: Python code cannot be verified without pyright, which is
// a setup problem (exit 2, the report says could not verify, and one line on standard
// error says how to install it) in every entry point, never a finding the change is
// blamed for, never a pass. pyright sits beside git, as Debian's npm installs it in
// /usr/bin: hiding it must not hide git.
func TestMissingPyrightExitsTwo(t *testing.T) {
	const good = "def add(a, b):\n    \"\"\"Add.\"\"\"\n    return a + b\n"
	besideGit(t)
	for _, tc := range []struct{ name, env, want string }{
		{"not on PATH", "", "npm install -g pyright@"},
		{"AGENTVERIFY_PYRIGHT names nothing", filepath.Join(t.TempDir(), "no-such-pyright"), "no-such-pyright"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withoutPyright(t, tc.env)
			r := newRepo(t, map[string]string{"m.py": good})
			r.Write(map[string]string{"m.py": good + "\n\ndef sub(a, b):\n    \"\"\"Subtract.\"\"\"\n    return a - b\n"})
			for _, args := range [][]string{{"diff"}, {"check", "."}} {
				code, out, errs := run(t, r.Dir, "", args...)
				if code != 2 || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "npm install") ||
					strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(out, "COULD NOT VERIFY") {
					t.Errorf("%s: exit %d, want 2 with one line naming %q\nstdout %s\nstderr %s", args[0], code, tc.want, out, errs)
				}
			}
			code, out, _ := run(t, r.Dir, "", "diff", "--format", "json")
			var rep struct{ Status, Error string }
			if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 2 || rep.Status != "error" || !strings.Contains(rep.Error, tc.want) {
				t.Errorf("diff --format json: exit %d, %+v (%v), want status error naming %q", code, rep, err, tc.want)
			}
			payload := claudePayload(t, "Write", r.Dir, map[string]any{"file_path": filepath.Join(r.Dir, "m.py"), "content": good})
			code, out, errs := run(t, r.Dir, payload, "hook", "claude")
			var decision struct {
				HookSpecificOutput struct{ PermissionDecision, PermissionDecisionReason string }
			}
			if err := json.Unmarshal([]byte(out), &decision); err != nil || code != 2 ||
				decision.HookSpecificOutput.PermissionDecision != "deny" ||
				!strings.Contains(decision.HookSpecificOutput.PermissionDecisionReason, tc.want) {
				t.Errorf("hook claude: exit %d, want a deny naming %q\nstdout %s\nstderr %s", code, tc.want, out, errs)
			}
		})
	}
}

// besideGit makes PATH hold git only in a directory that also holds a pyright, as
// Debian's npm installs it in /usr/bin (plus the go command's directory).
func besideGit(t *testing.T) {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	if err := os.Symlink(git, filepath.Join(dir, "git")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pyright"), []byte("#!/bin/sh\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := []string{dir}
	if goBin, err := exec.LookPath("go"); err == nil {
		path = append(path, filepath.Dir(goBin))
	}
	t.Setenv("PATH", strings.Join(path, string(filepath.ListSeparator)))
}
