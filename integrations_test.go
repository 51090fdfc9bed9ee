package agentverify_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/agentverify/agentverify/internal/testkit/sariftest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// binary builds agentverify once per test run.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agentverify-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "agentverify")
		out, err := exec.Command("go", "build", "-o", binPath, "./cmd/agentverify").CombinedOutput()
		if err != nil {
			buildErr = err
			t.Logf("%s", out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return (&testrepo.Repo{Dir: dir}).GitTB(t, args...)
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	(&testrepo.Repo{Dir: dir}).WriteTB(t, files)
}

func gitEnv(home string) []string { return testrepo.Env(home) }

const modFile = "module example.com/m\n\ngo 1.22\n"
const cleanFile = "// Package m is a test module.\npackage m\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n"
const hallucinated = "// Package m is a test module.\npackage m\n\nimport \"strings\"\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n\n// Rev reverses.\nfunc Rev(s string) string { return strings.Reverse(s) }\n"

// committedRepo is a repository with files committed on main, and that commit.
func committedRepo(t *testing.T, files map[string]string) (repo, base string) {
	t.Helper()
	repo = t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	writeFiles(t, repo, files)
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "base")
	return repo, git(t, repo, "rev-parse", "HEAD")
}

func TestActionScriptWritesRelativeSARIF(t *testing.T) {
	bin := binary(t)
	repo, base := committedRepo(t, map[string]string{"svc/go.mod": modFile, "svc/m.go": cleanFile})
	writeFiles(t, repo, map[string]string{"svc/m.go": hallucinated})
	outputs := filepath.Join(t.TempDir(), "github_output")
	sarif := filepath.Join(t.TempDir(), "out.sarif")
	script, _ := filepath.Abs("scripts/action-verify.sh")
	cmd := exec.Command("bash", script)
	cmd.Dir = filepath.Join(repo, "svc") // working-directory: a subfolder
	cmd.Env = append(os.Environ(), "AV_BIN="+bin, "AV_BASE="+base, "AV_FAIL_ON=error", "AV_SARIF="+sarif, "AV_ARGS=", "AV_POLICY=", "GITHUB_OUTPUT="+outputs)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("script: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "::error file=svc/m.go,line=10") {
		t.Errorf("no annotation for svc/m.go:\n%s", out)
	}
	got, _ := os.ReadFile(outputs)
	for _, want := range []string{"status=failed", "exit-code=1", "sarif-file=" + sarif} {
		if !strings.Contains(string(got), want) {
			t.Errorf("outputs lack %q:\n%s", want, got)
		}
	}
	data, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	results := sariftest.CheckGitHub(t, data, 20, []string{"error"})
	if uri := results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI; uri != "svc/m.go" {
		t.Errorf("uri %q, want the repository-relative svc/m.go", uri)
	}
	sariftest.ValidateSchema(t, data)
}

// TestActionScriptUnverifiedStillWritesSARIF: a run that cannot verify (a base that does
// not exist) is status error and exit 2, and still writes the SARIF file the upload step
// reads, saying why in its invocation.
func TestActionScriptUnverifiedStillWritesSARIF(t *testing.T) {
	bin := binary(t)
	repo, _ := committedRepo(t, map[string]string{"go.mod": modFile, "m.go": cleanFile})
	outputs := filepath.Join(t.TempDir(), "github_output")
	sarif := filepath.Join(t.TempDir(), "out.sarif")
	script, _ := filepath.Abs("scripts/action-verify.sh")
	cmd := exec.Command("bash", script)
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "AV_BIN="+bin, "AV_BASE=no-such-ref", "AV_FAIL_ON=error", "AV_SARIF="+sarif, "AV_ARGS=", "AV_POLICY=", "GITHUB_OUTPUT="+outputs)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("script: %v\n%s", err, out)
	}
	got, _ := os.ReadFile(outputs)
	for _, want := range []string{"status=error", "exit-code=2", "sarif-file=" + sarif} {
		if !strings.Contains(string(got), want) {
			t.Errorf("outputs lack %q:\n%s\n%s", want, got, out)
		}
	}
	if !strings.Contains(string(out), "::error title=agentverify/could-not-verify::") {
		t.Errorf("no annotation saying why:\n%s", out)
	}
	data, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	sariftest.ValidateSchema(t, data)
	if !strings.Contains(string(data), `"executionSuccessful": false`) || !strings.Contains(string(data), "no-such-ref") {
		t.Errorf("the SARIF does not say the run failed and why:\n%s", data)
	}
}

// TestActionScriptAllowPolicyChange: the Action verifies under the base policy unless its
// allow-policy-change input is "true".
func TestActionScriptAllowPolicyChange(t *testing.T) {
	bin := binary(t)
	repo, base := committedRepo(t, map[string]string{"go.mod": modFile, "m.go": cleanFile, ".agentverify.yaml": "version: 1\nscope: {forbidden_paths: [\"secret/**\"]}\n"})
	writeFiles(t, repo, map[string]string{".agentverify.yaml": "version: 1\n", "secret/k.txt": "x\n"})
	script, _ := filepath.Abs("scripts/action-verify.sh")
	for allow, want := range map[string]string{"false": "status=failed", "true": "status=passed"} {
		outputs := filepath.Join(t.TempDir(), "github_output")
		cmd := exec.Command("bash", script)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "AV_BIN="+bin, "AV_BASE="+base, "AV_FAIL_ON=error", "AV_SARIF="+filepath.Join(t.TempDir(), "o.sarif"),
			"AV_ARGS=", "AV_POLICY=", "AV_ALLOW_POLICY_CHANGE="+allow, "GITHUB_OUTPUT="+outputs)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("script: %v\n%s", err, out)
		}
		if got, _ := os.ReadFile(outputs); !strings.Contains(string(got), want) {
			t.Errorf("allow-policy-change %s: outputs\n%s\nwant %s", allow, got, want)
		}
	}
}

func TestActionAndHookMetadata(t *testing.T) {
	var action struct {
		Inputs  map[string]struct{ Default string }
		Outputs map[string]struct{ Value string }
		Runs    struct {
			Using string
			Steps []map[string]any
		}
	}
	b, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"policy", "base", "allow-policy-change", "args", "working-directory", "fail-on", "upload-sarif"} {
		if _, ok := action.Inputs[in]; !ok {
			t.Errorf("action.yml lacks input %s", in)
		}
	}
	for _, o := range []string{"status", "sarif-file"} {
		if _, ok := action.Outputs[o]; !ok {
			t.Errorf("action.yml lacks output %s", o)
		}
	}
	uploads := false
	for _, s := range action.Runs.Steps {
		if uses, _ := s["uses"].(string); strings.HasPrefix(uses, "github/codeql-action/upload-sarif") {
			uploads = strings.Contains(s["if"].(string), "always()")
		}
	}
	if action.Runs.Using != "composite" || !uploads {
		t.Errorf("action.yml: using %q, SARIF uploaded even on failure: %v", action.Runs.Using, uploads)
	}
	var hooks []map[string]any
	b, _ = os.ReadFile(".pre-commit-hooks.yaml")
	if err := yaml.Unmarshal(b, &hooks); err != nil || len(hooks) != 1 {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	h := hooks[0]
	if h["id"] != "agentverify" || h["language"] != "golang" || h["entry"] != "agentverify diff --staged" || h["pass_filenames"] != false || h["require_serial"] != true {
		t.Errorf(".pre-commit-hooks.yaml: %v", h)
	}
}

// TestExampleWorkflowLints runs actionlint on the documented workflow when it is installed
// (.ci/run installs it from the module proxy).
func TestExampleWorkflowLints(t *testing.T) {
	lint, err := exec.LookPath("actionlint")
	if err != nil {
		t.Skip("actionlint not installed (go install github.com/rhysd/actionlint/cmd/actionlint@latest)")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{".github/workflows/agentverify.yml": mustRead(t, "docs/examples/agentverify.yml")})
	cmd := exec.Command(lint, "-shellcheck=", "-pyflakes=", ".github/workflows/agentverify.yml")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("actionlint: %v\n%s", err, out)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPreCommitFramework uses this repository as a pre-commit hook source: a commit adding
// a hallucinated call is blocked, a clean one is allowed.
func TestPreCommitFramework(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the hook with the pre-commit framework")
	}
	pc, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Skip("pre-commit not installed (Debian package pre-commit; .ci/run installs it)")
	}
	self, _ := filepath.Abs(".")
	rev := git(t, self, "rev-parse", "HEAD")
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	writeFiles(t, repo, map[string]string{"go.mod": modFile, "m.go": cleanFile,
		".pre-commit-config.yaml": "repos:\n  - repo: " + self + "\n    rev: " + rev + "\n    hooks:\n      - id: agentverify\n"})
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "--no-verify", "-m", "base")
	modcache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	env := append(gitEnv(repo), "PRE_COMMIT_HOME="+filepath.Join(t.TempDir(), "pc"), "GOMODCACHE="+strings.TrimSpace(string(modcache)), "GOFLAGS=-buildvcs=false")
	install := exec.Command(pc, "install")
	install.Dir, install.Env = repo, env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("pre-commit install: %v\n%s", err, out)
	}
	commit := func() (string, error) {
		c := exec.Command("git", "commit", "-m", "change")
		c.Dir, c.Env = repo, env
		out, err := c.CombinedOutput()
		return string(out), err
	}
	writeFiles(t, repo, map[string]string{"m.go": hallucinated})
	git(t, repo, "add", "m.go")
	if out, err := commit(); err == nil || !strings.Contains(out, "strings.Reverse") {
		t.Fatalf("the hook did not block a hallucinated call: %v\n%s", err, out)
	}
	writeFiles(t, repo, map[string]string{"m.go": cleanFile + "\n// Sub subtracts.\nfunc Sub(a, b int) int { return a - b }\n"})
	git(t, repo, "add", "m.go")
	if out, err := commit(); err != nil {
		t.Fatalf("the hook blocked a clean change: %v\n%s", err, out)
	}
}

// TestMain removes the binary built for the tests, so a run leaves nothing behind; the
// binary verifies in its own process (AGENTVERIFY_NO_SERVER), so no shared server is
// started by the hooks the tests run.
func TestMain(m *testing.M) {
	os.Setenv("AGENTVERIFY_NO_SERVER", "1")
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// TestActionReplaysVerdict: the Action keeps the verdict of a run under a key of
// everything it depends on (scripts/action-verdict-key.sh), and a re-run of the same
// commit replays it without running agentverify; another input, another tree or a working
// tree that differs from the commit is another key (or none), and a run that could not
// verify is never kept.
func TestActionReplaysVerdict(t *testing.T) {
	bin := binary(t)
	repo, base := committedRepo(t, map[string]string{"go.mod": modFile, "m.go": cleanFile})
	writeFiles(t, repo, map[string]string{"m.go": hallucinated})
	git(t, repo, "commit", "-q", "-am", "head")
	keyScript, _ := filepath.Abs("scripts/action-verdict-key.sh")
	script, _ := filepath.Abs("scripts/action-verify.sh")
	key := func(env ...string) string {
		t.Helper()
		cmd := exec.Command("bash", keyScript)
		cmd.Dir, cmd.Env = repo, append(os.Environ(), append([]string{"AV_VERSION=v1", "AV_BASE=" + base, "AV_FAIL_ON=error"}, env...)...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("key script: %v", err)
		}
		return strings.TrimSpace(string(out))
	}
	dir := filepath.Join(t.TempDir(), "verdict")
	run := func(bin, key string) (outputs, log string, sarif []byte) {
		t.Helper()
		out, file := filepath.Join(t.TempDir(), "github_output"), filepath.Join(t.TempDir(), "o.sarif")
		cmd := exec.Command("bash", script)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "AV_BIN="+bin, "AV_BASE="+base, "AV_FAIL_ON=error", "AV_SARIF="+file, "AV_ARGS=", "AV_POLICY=",
			"GITHUB_OUTPUT="+out, "AV_VERDICT_DIR="+dir, "AV_VERDICT_KEY="+key)
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("action script: %v\n%s", err, b)
		}
		o, _ := os.ReadFile(out)
		s, _ := os.ReadFile(file)
		return string(o), string(b), s
	}
	k := key()
	if len(k) != 32 {
		t.Fatalf("key %q, want 32 hex digits", k)
	}
	others := []string{key("AV_ARGS=--all"), key("AV_FAIL_ON=warning"), key("GOFLAGS=-tags=x"), key("AV_BASE=HEAD")}
	if slices.Contains(others, k) || slices.Contains(others, "") {
		t.Errorf("other inputs give keys %q, want other keys than %q", others, k)
	}
	first, log, sarif := run(bin, k)
	if !strings.Contains(first, "status=failed") || !strings.Contains(first, "replayed=false") || !strings.Contains(log, "::error file=m.go") {
		t.Fatalf("first run: outputs\n%s\nlog\n%s", first, log)
	}
	// a stand-in that fails as a crash would: the replay must not run it
	broken := filepath.Join(t.TempDir(), "agentverify")
	if err := os.WriteFile(broken, []byte("#!/bin/sh\necho RAN; exit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	again, log2, sarif2 := run(broken, k)
	if strings.Contains(log2, "RAN") || !strings.Contains(again, "status=failed") || !strings.Contains(again, "exit-code=1") ||
		!strings.Contains(again, "replayed=true") || !strings.Contains(log2, "::error file=m.go") || string(sarif2) != string(sarif) {
		t.Errorf("re-run of the same commit: outputs\n%s\nlog\n%s", again, log2)
	}
	if other, log3, _ := run(broken, key("AV_ARGS=--all")); !strings.Contains(log3, "RAN") || !strings.Contains(other, "status=error") {
		t.Errorf("another key replayed: outputs\n%s\nlog\n%s", other, log3)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "key")); strings.TrimSpace(string(b)) != k {
		t.Errorf("a run that could not verify replaced the kept verdict (key %q)", b)
	}
	writeFiles(t, repo, map[string]string{"m.go": cleanFile})
	if dirty := key(); dirty != "" {
		t.Errorf("a working tree that differs from the commit has key %q, want none", dirty)
	}
}

// TestActionKeepsVerdictAroundRun: action.yml restores the kept verdict before the run and
// keeps a new one after it, only one just made and never that of a run that could not
// verify.
func TestActionKeepsVerdictAroundRun(t *testing.T) {
	var action struct {
		Runs struct{ Steps []map[string]any }
	}
	b, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatal(err)
	}
	restore, verify, save := -1, -1, -1
	for i, s := range action.Runs.Steps {
		uses, _ := s["uses"].(string)
		id, _ := s["id"].(string)
		cond, _ := s["if"].(string)
		switch {
		case strings.HasPrefix(uses, "actions/cache/restore@"):
			restore = i
		case id == "verify":
			verify = i
		case strings.HasPrefix(uses, "actions/cache/save@"):
			save = i
			if !strings.Contains(cond, "replayed == 'false'") || strings.Contains(cond, "'2'") || !strings.Contains(cond, "exit-code == '1'") {
				t.Errorf("the verdict is kept under %q: want only a verdict just made, never exit 2", cond)
			}
		}
	}
	if restore < 0 || restore > verify || save < verify {
		t.Errorf("action.yml steps: restore %d, verify %d, save %d: want the verdict restored before the run and kept after", restore, verify, save)
	}
}
