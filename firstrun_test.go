package agentverify_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentverify/agentverify/internal/testkit/modproxy"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// The first run on a fresh machine (issue #22): a repository with third-party
// requirements, served by a file-based module proxy, verified by each entry point from
// an empty module cache and an empty build cache. A good change verifies; a change
// importing a module no proxy knows is hallucination/unknown-module; with the proxy off,
// the run exits 2 with the one line that fixes it — never a finding per import.

// firstRunModules are the repository's requirements.
var firstRunModules = []modproxy.Module{
	{Path: "example.com/greet", Version: "v1.0.0", Files: map[string]string{
		"greet.go": "// Package greet greets.\npackage greet\n\n// Hello greets name.\nfunc Hello(name string) string { return \"hello \" + name }\n",
	}},
	{Path: "example.com/shout", Version: "v1.2.0", Files: map[string]string{
		"shout.go": "// Package shout shouts.\npackage shout\n\nimport \"strings\"\n\n// Up shouts s.\nfunc Up(s string) string { return strings.ToUpper(s) + \"!\" }\n",
	}},
}

const (
	firstRunGoMod = "module example.com/app\n\ngo 1.22\n\nrequire (\n\texample.com/greet v1.0.0\n\texample.com/shout v1.2.0\n)\n"
	firstRunApp   = "// Package app greets loudly.\npackage app\n\nimport (\n\t\"example.com/greet\"\n\t\"example.com/shout\"\n)\n\n// Greet greets name loudly.\nfunc Greet(name string) string { return shout.Up(greet.Hello(name)) }\n"
	// firstRunGood is a one-line change using both modules.
	firstRunGood = firstRunApp + "\n// Whisper greets name quietly.\nfunc Whisper(name string) string { return greet.Hello(name) + shout.Up(\"\")[:0] }\n"
	// firstRunInvented imports a module no proxy knows.
	firstRunInvented = "// Package app greets loudly.\npackage app\n\nimport (\n\t\"example.com/greet\"\n\t\"example.com/greett/colors\"\n\t\"example.com/shout\"\n)\n\n// Greet greets name loudly.\nfunc Greet(name string) string { return colors.Red(shout.Up(greet.Hello(name))) }\n"
)

// firstRun is the fixture: the proxy, the repository, and a machine with nothing
// downloaded or built. The build cache starts empty and is shared by the test's runs
// (compiling the standard library's export data again for each would only cost time);
// each entry point starts with an empty module cache of its own.
type firstRun struct {
	proxy   *modproxy.Proxy
	repo    *testrepo.Repo
	gocache string
	env     []string // the fresh machine, proxy on
}

func newFirstRun(t *testing.T) *firstRun {
	t.Helper()
	p := modproxy.New(t, firstRunModules...)
	repo := testrepo.New(t, map[string]string{
		"go.mod": firstRunGoMod,
		"go.sum": p.GoSum("example.com/greet@v1.0.0", "example.com/shout@v1.2.0"),
		"app.go": firstRunApp,
	})
	f := &firstRun{proxy: p, repo: repo, gocache: t.TempDir()}
	f.env = f.machine(t, "GOPROXY="+p.FileURL())
	return f
}

// machine is the environment of a machine where nothing was downloaded: an empty GOPATH
// and module cache, the user's module settings given (the trusted requirements are
// checked against go.sum; GOSUMDB=off as for private modules).
func (f *firstRun) machine(t *testing.T, settings ...string) []string {
	env := append(os.Environ(), modproxy.FreshEnv(t)...)
	env = append(env, "GOCACHE="+f.gocache, "GOSUMDB=off", "AGENTVERIFY_NO_SERVER=1", "AGENTVERIFY_CACHE_DIR="+t.TempDir())
	return append(append(env, gitEnv(t.TempDir())...), settings...)
}

// offline is the fresh machine with the proxy off.
func (f *firstRun) offline(t *testing.T) []string {
	return f.machine(t, "GOPROXY=off")
}

// checkOffline asserts the one-line setup error naming the command that fixes it, and
// no finding about the code: the dimensions that could not complete are there as
// internal-error (the report says what was not verified), never an unknown import.
func checkOffline(t *testing.T, who, text string) {
	t.Helper()
	if !strings.Contains(text, "run `go mod download` in ") || !strings.Contains(text, "GOPROXY=off") ||
		strings.Contains(text, "unknown-import") || strings.Contains(text, "unknown-module") {
		t.Errorf("%s offline: want the one line naming `go mod download`, no finding about the code:\n%s", who, text)
	}
}

// TestFirstRunActionScript runs the GitHub Action's script (scripts/action-verify.sh) as
// the Action does, from empty caches.
func TestFirstRunActionScript(t *testing.T) {
	bin := binary(t)
	f := newFirstRun(t)
	base := f.repo.Git("rev-parse", "HEAD")
	script, _ := filepath.Abs("scripts/action-verify.sh")
	action := func(env []string) (outputs, log string) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "github_output")
		cmd := exec.Command("bash", script)
		cmd.Dir = f.repo.Dir
		cmd.Env = append(env, "AV_BIN="+bin, "AV_BASE="+base, "AV_FAIL_ON=error", "AV_SARIF="+filepath.Join(t.TempDir(), "o.sarif"), "AV_ARGS=", "AV_POLICY=", "GITHUB_OUTPUT="+out)
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("action script: %v\n%s", err, b)
		}
		o, _ := os.ReadFile(out)
		return string(o), string(b)
	}
	f.repo.Write(map[string]string{"app.go": firstRunGood})
	outputs, log := action(f.offline(t))
	if !strings.Contains(outputs, "status=error") || !strings.Contains(outputs, "exit-code=2") {
		t.Errorf("offline: outputs\n%s\nwant status=error, exit-code=2; log\n%s", outputs, log)
	}
	checkOffline(t, "action", log)
	start := time.Now()
	if outputs, log := action(f.env); !strings.Contains(outputs, "status=passed") || !strings.Contains(outputs, "exit-code=0") {
		t.Errorf("good change: outputs\n%s\nwant status=passed; log\n%s", outputs, log)
	}
	t.Logf("first run, empty module and build caches: %s", time.Since(start).Round(time.Millisecond))
	f.repo.Write(map[string]string{"app.go": firstRunInvented})
	outputs, log = action(f.env)
	if !strings.Contains(outputs, "status=failed") || !strings.Contains(log, "hallucination/unknown-module") ||
		!strings.Contains(log, "example.com/greett") || !strings.Contains(log, "example.com/greet") {
		t.Errorf("invented module: outputs\n%s\nlog\n%s", outputs, log)
	}
}

// TestFirstRunHooks runs `hook claude`, the git pre-commit hook (`hook install`, which
// runs diff --staged) and `mcp` from empty caches: each verifies, or says what to
// download; none reports a false finding.
func TestFirstRunHooks(t *testing.T) {
	bin := binary(t)
	f := newFirstRun(t)
	file := filepath.Join(f.repo.Dir, "app.go")
	claude := func(env []string, content string) (int, string) {
		t.Helper()
		payload, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": f.repo.Dir, "hook_event_name": "PreToolUse",
			"tool_name": "Write", "tool_input": map[string]any{"file_path": file, "content": content}})
		cmd := exec.Command(bin, "hook", "claude")
		cmd.Dir, cmd.Env, cmd.Stdin = f.repo.Dir, env, strings.NewReader(string(payload))
		out, _ := cmd.CombinedOutput()
		return cmd.ProcessState.ExitCode(), string(out)
	}
	t.Run("hook claude", func(t *testing.T) { firstRunClaude(t, f, claude) })
	t.Run("pre-commit", func(t *testing.T) { firstRunPreCommit(t, f, bin) })
	t.Run("mcp", func(t *testing.T) { firstRunMCP(t, f, bin) })
}

// firstRunClaude: hook claude offline says what to download; a good edit passes (after
// the one fix a slow first run may ask for); an invented module is denied.
func firstRunClaude(t *testing.T, f *firstRun, claude func([]string, string) (int, string)) {
	if code, out := claude(f.offline(t), firstRunGood); code != 2 || !strings.Contains(out, `"deny"`) {
		t.Errorf("offline: exit %d, want a deny\n%s", code, out)
	} else {
		checkOffline(t, "hook claude", out)
	}
	// The first edit verifies, or — compiling the standard library's export data into
	// an empty build cache can take longer than the hook's 50 seconds on a slow
	// machine — is denied with the one line that fixes it, which is then followed.
	if code, out := claude(f.env, firstRunGood); code != 0 || strings.Contains(out, `"deny"`) {
		if !strings.Contains(out, "run `go build ./...` once") || strings.Contains(out, "hallucination/") {
			t.Fatalf("good edit, first run: exit %d, want it allowed or denied with the fix\n%s", code, out)
		}
		warm := exec.Command("go", "build", "./...")
		warm.Dir, warm.Env = f.repo.Dir, f.env
		if out, err := warm.CombinedOutput(); err != nil {
			t.Fatalf("go build ./...: %v\n%s", err, out)
		}
		if code, out := claude(f.env, firstRunGood); code != 0 || strings.Contains(out, `"deny"`) {
			t.Errorf("good edit, after the fix: exit %d, want it allowed\n%s", code, out)
		}
	}
	if code, out := claude(f.env, firstRunInvented); code != 2 || !strings.Contains(out, "unknown-module") {
		t.Errorf("invented module: exit %d, want a deny naming unknown-module\n%s", code, out)
	}
}

// firstRunPreCommit: the installed git hook blocks an offline commit with the fix, lets a
// good one through and blocks an invented module.
func firstRunPreCommit(t *testing.T, f *firstRun, bin string) {
	env := f.machine(t, "GOPROXY="+f.proxy.FileURL())
	install := exec.Command(bin, "hook", "install")
	install.Dir, install.Env = f.repo.Dir, env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("hook install: %v\n%s", err, out)
	}
	// The hook runs the agentverify on PATH, as installed.
	path := "PATH=" + filepath.Dir(bin) + string(filepath.ListSeparator) + os.Getenv("PATH")
	commit := func(env []string, content string) (string, error) {
		f.repo.Write(map[string]string{"app.go": content})
		f.repo.Git("add", "app.go")
		c := exec.Command("git", "commit", "-q", "-m", "change")
		c.Dir, c.Env = f.repo.Dir, append(env, path)
		out, err := c.CombinedOutput()
		return string(out), err
	}
	if out, err := commit(f.offline(t), firstRunGood); err == nil {
		t.Errorf("offline: the commit went through\n%s", out)
	} else {
		checkOffline(t, "pre-commit", out)
	}
	if out, err := commit(env, firstRunGood); err != nil {
		t.Errorf("good change: the commit was blocked: %v\n%s", err, out)
	}
	if out, err := commit(env, firstRunInvented); err == nil || !strings.Contains(out, "unknown-module") {
		t.Errorf("invented module: %v\n%s", err, out)
	}
	f.repo.Git("reset", "-q", "--hard", "HEAD")
}

// firstRunMCP: verify_edit offline is an error with the fix; a good edit passes; an
// invented module fails.
func firstRunMCP(t *testing.T, f *firstRun, bin string) {
	verify := func(env []string, content string) (bool, string) {
		t.Helper()
		cmd := exec.Command(bin, "mcp")
		cmd.Dir, cmd.Env = f.repo.Dir, env
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "verify_edit", Arguments: map[string]any{"path": "app.go", "content": content}})
		if err != nil {
			t.Fatalf("verify_edit: %v", err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return res.IsError, b.String()
	}
	if isErr, text := verify(f.offline(t), firstRunGood); !isErr {
		t.Errorf("offline: not an error\n%s", text)
	} else {
		checkOffline(t, "mcp", text)
	}
	env := f.machine(t, "GOPROXY="+f.proxy.FileURL())
	if isErr, text := verify(env, firstRunGood); isErr || !strings.Contains(text, "PASSED") {
		t.Errorf("good edit: %v\n%s", isErr, text)
	}
	if _, text := verify(env, firstRunInvented); !strings.Contains(text, "FAILED") || !strings.Contains(text, "unknown-module") {
		t.Errorf("invented module:\n%s", text)
	}
}
