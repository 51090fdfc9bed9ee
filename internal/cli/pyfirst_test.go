package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/report"
)

// pyProject is a Python project that declares no dependency.
var pyProject = map[string]string{
	"pyproject.toml": "[project]\nname = \"app\"\nversion = \"0.1\"\ndependencies = []\n",
	"app.py":         "import json\n\n\ndef load(s):\n    return json.loads(s)\n",
}

// pyrightWrapper returns a pyright installation whose commands append their name to the
// returned log when started and then run body ("exec sleep 600": never answer; the real
// command otherwise), for $AGENTVERIFY_PYRIGHT.
func pyrightWrapper(t *testing.T, real *pyright.Tool, hang bool) (cli, log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "started.log")
	for cmd, target := range map[string]string{"pyright": real.CLI, "pyright-langserver": real.LangServer} {
		body := "exec " + target + ` "$@"`
		if hang {
			body = "exec sleep 600" // exec: the process the verification kills is the sleep itself
		}
		script := "#!/bin/sh\necho " + cmd + " >> " + log + "\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(dir, cmd), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Typeshed is found next to the command, as in pyright's npm package.
	if real.Typeshed != "" {
		if err := os.Symlink(filepath.Dir(real.Typeshed), filepath.Join(dir, "dist")); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "pyright"), log
}

// TestHookAnswersOwnErrorsFirst: an agent's edit importing a made-up package is denied
// from our own checks while pyright has not answered (it never does here), with the
// finding a full verification (diff, which waits for pyright) reports; an edit our own
// checks pass still waits for pyright and gets its finding.
func TestHookAnswersOwnErrorsFirst(t *testing.T) {
	shorttest.Slow(t, "runs pyright and python3")
	real := pyrighttest.Require(t)
	r := newRepo(t, pyProject)
	bad := "import jsno\n\n\ndef load(s):\n    return jsno.loads(s)\n"

	hanging, log := pyrightWrapper(t, real, true)
	t.Setenv(pyright.EnvVar, hanging)
	start := time.Now()
	code, out, errs := run(t, r.Dir, hookPayload(r.Dir, "app.py", bad), "hook", "claude", "--no-server", "--no-cache", "--timeout", "3m")
	took := time.Since(start)
	started, _ := os.ReadFile(log)
	if code != 2 || !strings.Contains(out, `"deny"`) {
		t.Fatalf("made-up package: exit %d after %s\n%s%s", code, took, out, errs)
	}
	if len(started) == 0 {
		t.Errorf("pyright was never asked: the test proves nothing about waiting for it")
	}
	if took > 90*time.Second { // a hook waiting for pyright would be denied at --timeout, 3m
		t.Errorf("the hook answered after %s: it waited for pyright", took)
	}

	// The full verification of the same content, with pyright answering.
	t.Setenv(pyright.EnvVar, real.CLI)
	r.Write(map[string]string{"app.py": bad})
	code, js, errs := run(t, r.Dir, "", "diff", "--no-server", "--format", "json")
	var rep report.Report
	if err := json.Unmarshal([]byte(js), &rep); err != nil || code != 1 {
		t.Fatalf("diff: exit %d, %v\n%s%s", code, err, js, errs)
	}
	var want []string
	for _, v := range rep.Violations {
		if v.Rule == "hallucination/unknown-package" {
			want = append(want, v.ModelLine())
		}
	}
	if len(want) != 1 {
		t.Fatalf("diff reports %d unknown packages, want 1:\n%s", len(want), js)
	}
	var hook struct {
		HookSpecificOutput struct{ PermissionDecisionReason string }
	}
	if err := json.Unmarshal([]byte(out), &hook); err != nil || !strings.Contains(hook.HookSpecificOutput.PermissionDecisionReason, want[0]) {
		t.Errorf("the hook's answer is not the full run's finding\nhook: %s\nfull: %s", out, want[0])
	}

	// An edit our own checks pass: pyright's finding is waited for.
	r.Write(pyProject)
	made := "import json\n\n\ndef load(s):\n    return json.loadz(s)\n"
	if code, out, errs := run(t, r.Dir, hookPayload(r.Dir, "app.py", made), "hook", "claude", "--no-server", "--no-cache"); code != 2 || !strings.Contains(out, "loadz") {
		t.Errorf("made-up member: exit %d\n%s%s", code, out, errs)
	}
}

// TestServedHookStartsPyrightOnce: the agent hooks served by the repository's shared
// server start pyright once, and every later edit is checked by that running language
// server: no hook call starts pyright of its own.
func TestServedHookStartsPyrightOnce(t *testing.T) {
	shorttest.Slow(t, "runs pyright's language server through the shared server")
	real := pyrighttest.Require(t)
	withServers(t)
	r := newRepo(t, pyProject)
	counting, log := pyrightWrapper(t, real, false)
	t.Setenv(pyright.EnvVar, counting)
	for i, tc := range []struct {
		content string
		want    int
	}{
		{"import json\n\n\ndef load(s):\n    return json.loadz(s)\n", 2},
		{"import json\n\n\ndef load(s):\n    return json.loads(s)\n", 0},
		{"import json\n\n\ndef dump(o):\n    return json.dumpz(o)\n", 2},
	} {
		before := requests(t, r.Dir)
		code, out, errs := served(t, r.Dir, hookPayload(r.Dir, "app.py", tc.content), "hook", "claude")
		if after := requests(t, r.Dir); after != max(before, 0)+1 {
			t.Fatalf("edit %d: the server did not answer (requests %d, then %d)\n%s", i, before, after, errs)
		}
		if code != tc.want {
			t.Errorf("edit %d: exit %d, want %d\n%s%s", i, code, tc.want, out, errs)
		}
	}
	started, _ := os.ReadFile(log)
	if got := strings.Fields(string(started)); len(got) != 1 || got[0] != "pyright-langserver" {
		t.Errorf("pyright started %q over three served hook calls, want one language server", got)
	}
}
