package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang/python/pyright"
)

// withoutPyright makes pyright unfindable for the rest of the test: PATH keeps only
// directories without a pyright command (git stays reachable), and $AGENTVERIFY_PYRIGHT
// is set to env (empty: unset).
func withoutPyright(t *testing.T, env string) {
	t.Helper()
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "pyright")); err != nil {
			keep = append(keep, dir)
		}
	}
	t.Setenv("PATH", strings.Join(keep, string(filepath.ListSeparator)))
	t.Setenv(pyright.EnvVar, env)
}

// TestMissingPyrightExitsTwo: Python code cannot be verified without pyright, which is
// a setup error (exit 2, one line saying how to install it) in every entry point, never
// a finding or a pass.
func TestMissingPyrightExitsTwo(t *testing.T) {
	const good = "def add(a, b):\n    \"\"\"Add.\"\"\"\n    return a + b\n"
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
					strings.Count(strings.TrimSpace(errs), "\n") != 0 || strings.Contains(out, "internal-error") {
					t.Errorf("%s: exit %d, want 2 with one line naming %q\nstdout %s\nstderr %s", args[0], code, tc.want, out, errs)
				}
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
