package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify/internal/server"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// testMainEnv makes this test binary stand in for the agentverify command, so the served
// tests start real servers (this binary, detached, as 'server run') without a build.
const testMainEnv = "AGENTVERIFY_CLI_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(testMainEnv) == "1" {
		os.Exit(Main(context.Background(), os.Args[1:], &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Server: true}))
	}
	// The agentverify binaries other tests build and run (through git hooks) verify in
	// their own process: no test leaves a server behind in the user's cache.
	os.Setenv(NoServerEnv, "1")
	// Nor does any test leave an entry in the user's cache (hook claude keeps package
	// loads there). The go command's build cache stays the user's: it lies under
	// XDG_CACHE_HOME too, and an empty one would have every test's first load compile
	// the standard library again (tests of empty caches set GOCACHE themselves).
	pinGoCache()
	cache, err := os.MkdirTemp("", "avcli")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}

// pinGoCache sets GOCACHE to the go command's build cache as it is now, before
// XDG_CACHE_HOME moves.
func pinGoCache() {
	if os.Getenv("GOCACHE") != "" {
		return
	}
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil && len(bytes.TrimSpace(out)) > 0 {
		os.Setenv("GOCACHE", string(bytes.TrimSpace(out)))
	}
}

// withServers gives the test a private cache directory (so its servers, and only them,
// are found there) and stops every server started in it at the end.
func withServers(t *testing.T) string {
	t.Helper()
	if !server.Supported {
		t.Skip("the shared server needs a Unix system")
	}
	cache, err := os.MkdirTemp("", "avc") // short: a socket path must fit in ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv(testMainEnv, "1")
	// This test binary lives in a go-build temporary directory, as 'go run' binaries do,
	// which get no server (ephemeral); moving the temporary directory makes it count as
	// an installed binary.
	t.Setenv("TMPDIR", cache)
	t.Cleanup(func() {
		if code, out, errs := run(t, cache, "", "server", "stop"); code != 0 {
			t.Errorf("server stop: exit %d\n%s%s", code, out, errs)
		}
		os.RemoveAll(cache)
	})
	return cache
}

// served runs the command line as the agentverify command does, through the repository's
// shared server.
func served(t *testing.T, dir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	getenv := func(k string) string {
		if k == ServerIdleEnv {
			return "1m"
		}
		return ""
	}
	code := Main(context.Background(), args, &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Dir: dir, Getenv: getenv, Server: true})
	return code, out.String(), errb.String()
}

// requests returns how many requests the server of the repository at root has run, -1
// when none is running.
func requests(t *testing.T, root string) int64 {
	t.Helper()
	cache, _ := os.UserCacheDir()
	exe, _ := os.Executable()
	ep, err := server.Locate(cache, root, exe, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.Call(context.Background(), ep.Socket, &server.Request{Op: server.OpStatus})
	if err != nil {
		return -1
	}
	return resp.Status.Requests
}

// sameAsCold runs args through the server and in this process, and fails the test unless
// both give the same exit code and byte-identical output, and the server did answer.
func sameAsCold(t *testing.T, root, dir, stdin string, args ...string) (int, string) {
	t.Helper()
	before := requests(t, root)
	code, out, errs := served(t, dir, stdin, args...)
	if after := requests(t, root); after != max(before, 0)+1 {
		t.Fatalf("%q: the server did not answer (requests %d, then %d)\n%s", args, before, after, errs)
	}
	ccode, cout, cerrs := run(t, dir, stdin, args...)
	if code != ccode || out != cout || errs != cerrs {
		t.Fatalf("%q: served and cold runs differ\nserved: exit %d\n%s%s\ncold: exit %d\n%s%s", args, code, out, errs, ccode, cout, cerrs)
	}
	return code, out
}

// hookPayload is a Claude Code PreToolUse payload writing content to path.
func hookPayload(dir, path, content string) string {
	b, _ := json.Marshal(map[string]any{
		"hook_event_name": "PreToolUse", "tool_name": "Write", "cwd": dir,
		"tool_input": map[string]string{"file_path": filepath.Join(dir, path), "content": content},
	})
	return string(b)
}

const servedLib = `// Package lib is what app uses.
package lib

// Answer returns the answer.
func Answer() int { return 42 }
`

const servedApp = `// Package app uses lib.
package app

import "example.com/m/lib"

// Twice returns twice the answer.
func Twice() int { return 2 * lib.Answer() }
`

func TestServedOutputIsCold(t *testing.T) {
	shorttest.Slow(t, "runs the CLI through real git repositories and Go loads; siblings cover the path in -short")
	withServers(t)
	r := testrepo.New(t, map[string]string{"go.mod": goMod, "lib/lib.go": servedLib, "app/app.go": servedApp})
	r.Write(map[string]string{
		"app/app.go":  servedApp + "\nfunc Thrice() int { return 3 * lib.Answr() }\n",
		"app/more.go": "package app\n\nimport \"strings\"\n\n// Up shouts.\nfunc Up(s string) string { return strings.Uppr(s) }\n",
	})
	patch := r.Git("diff")
	r.Write(map[string]string{"lib/lib.go": servedLib + "\n// Half returns half the answer.\nfunc Half() int { return Answer() / 2 }\n"})
	fail := hookPayload(r.Dir, "app/app.go", servedApp+"\n// Four is wrong.\nfunc Four() int { return lib.Four() }\n")
	pass := hookPayload(r.Dir, "app/app.go", servedApp+"\n// Thrice is fixed.\nfunc Thrice() int { return 3 * lib.Answer() }\n")
	for _, tc := range []struct {
		stdin string
		args  []string
		want  int
	}{
		{"", []string{"diff", "--no-timings"}, 1},
		{"", []string{"diff", "--no-timings", "--format", "json"}, 1},
		{"", []string{"diff", "--no-timings", "--format", "sarif"}, 1},
		{"", []string{"diff", "--no-timings", "--all", "--quiet"}, 1},
		{"", []string{"diff", "--no-timings", "--staged", "--format", "json"}, 0},
		{patch, []string{"diff", "--no-timings", "--patch", "-", "--format", "json"}, 1},
		{"", []string{"check", "--no-timings", "lib", "--format", "sarif"}, 0},
		{"", []string{"check", "--no-timings", "--format", "json"}, 1},
		{fail, []string{"hook", "claude"}, 2},
		{pass, []string{"hook", "claude"}, 0},
		{"{", []string{"hook", "claude"}, 2},
		{"", []string{"diff", "--format", "yaml"}, 2},
		{"", []string{"diff", "--policy", "missing.yaml"}, 2},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			if code, out := sameAsCold(t, r.Dir, r.Dir, tc.stdin, tc.args...); code != tc.want {
				t.Errorf("exit %d, want %d\n%s", code, tc.want, out)
			}
		})
	}
	t.Run("subdirectory", func(t *testing.T) {
		sameAsCold(t, r.Dir, filepath.Join(r.Dir, "app"), "", "check", "--no-timings", ".", "--format", "json")
	})
	// Started in a subdirectory with "." as the directory, as the command is: paths in
	// messages are named as the caller named them.
	t.Chdir(filepath.Join(r.Dir, "app"))
	for _, args := range [][]string{
		{"diff", "--policy", "missing.yaml"},
		{"diff", "--patch", "../nope.diff"},
		{"check", "nope"},
		{"check", "--no-timings", "--format", "json", "."},
	} {
		t.Run("relative "+strings.Join(args, " "), func(t *testing.T) { sameAsCold(t, r.Dir, ".", "", args...) })
	}
}

// TestServerNeverStale changes the repository behind the server's back — edits (one
// that keeps the size and the modification time), reverts, added and deleted files, in
// the package verified and in the one it imports — and compares every answer with a cold
// run's.
func TestServerNeverStale(t *testing.T) {
	shorttest.Slow(t, "runs the CLI through real git repositories and Go loads; siblings cover the path in -short")
	withServers(t)
	r := testrepo.New(t, map[string]string{"go.mod": goMod, "lib/lib.go": servedLib, "app/app.go": servedApp})
	app := servedApp + "\n// Extra uses lib.Extra.\nfunc Extra() int { return lib.Extra() }\n"
	libPath := filepath.Join(r.Dir, "lib", "lib.go")
	stat, err := os.Stat(libPath)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name   string
		change func()
		want   int // diff's exit code
	}{
		{"an app change using what lib lacks", func() { r.Write(map[string]string{"app/app.go": app}) }, 1},
		{"lib gains Extra in a new file", func() {
			r.Write(map[string]string{"lib/extra.go": "package lib\n\n// Extra is more.\nfunc Extra() int { return 1 }\n"})
		}, 0},
		{"the new file is deleted", func() { os.Remove(filepath.Join(r.Dir, "lib", "extra.go")) }, 1},
		{"lib's Answer renamed Extra: same size, same modification time", func() {
			b, _ := os.ReadFile(libPath)
			os.WriteFile(libPath, bytes.Replace(b, []byte("Answer() int"), []byte("Extra()  int"), 1), 0o644)
			os.Chtimes(libPath, stat.ModTime(), stat.ModTime())
		}, 1}, // app's Twice now calls an Answer that is gone
		{"lib reverted", func() { r.Git("checkout", "lib/lib.go") }, 1},
		{"app's own new file declares Extra's helper", func() {
			r.Write(map[string]string{"app/app.go": servedApp + "\n// Extra uses help.\nfunc Extra() int { return help() }\n",
				"app/help.go": "package app\n\nfunc help() int { return 1 }\n"})
		}, 0},
		{"the helper file is deleted", func() { os.Remove(filepath.Join(r.Dir, "app", "help.go")) }, 1},
		{"everything reverted", func() { r.Git("checkout", "."); r.Git("clean", "-fdq") }, 0},
	}
	for i, s := range steps {
		s.change()
		name := fmt.Sprintf("%d %s", i, s.name)
		t.Run(name, func(t *testing.T) {
			if code, out := sameAsCold(t, r.Dir, r.Dir, "", "diff", "--no-timings", "--format", "json"); code != s.want {
				t.Errorf("diff: exit %d, want %d\n%s", code, s.want, out)
			}
			// The hook verifies app as an agent would write it, over the tree as it is now.
			edit := hookPayload(r.Dir, "app/app.go", app)
			sameAsCold(t, r.Dir, r.Dir, edit, "hook", "claude")
		})
	}
}

// TestServedStagedNeverStale runs a pre-commit hook's `diff --staged` through the server
// commit after commit: the server keeps the base side of its last API comparison and the
// base tree's listing, and every answer, against the same base or a new one, must be the
// cold run's.
func TestServedStagedNeverStale(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a server and a cold verification per step (-short skips it)")
	}
	withServers(t)
	r := testrepo.New(t, map[string]string{"go.mod": goMod, "lib/lib.go": servedLib, "app/app.go": servedApp})
	lib := func(decl string) map[string]string {
		return map[string]string{"lib/lib.go": strings.Replace(servedLib, "func Answer() int { return 42 }", decl, 1)}
	}
	steps := []struct {
		name   string
		change func()
		want   int
	}{
		{"Answer takes an argument", func() { r.Write(lib("func Answer(n int) int { return n }")); r.Git("add", "lib/lib.go") }, 1},
		{"against the same base, Answer returns an int64", func() {
			r.Write(lib("func Answer() int64 { return 42 }"))
			r.Git("add", "lib/lib.go")
		}, 1},
		{"a compatible addition against the same base", func() {
			r.Write(map[string]string{"lib/lib.go": servedLib + "\n// Half is half.\nfunc Half() int { return 21 }\n"})
			r.Git("add", "lib/lib.go")
		}, 0},
		{"committed: the next change has a new base", func() {
			r.Commit("half")
			r.Write(map[string]string{"lib/lib.go": servedLib})
			r.Git("add", "lib/lib.go")
		}, 1}, // Half removed
		{"the base's lib changed in a new commit, the same staged lib", func() {
			r.Git("reset", "-q")
			r.Write(lib("func Answer() int64 { return 42 }"))
			r.Commit("int64")
			r.Write(map[string]string{"lib/lib.go": servedLib})
			r.Git("add", "lib/lib.go")
		}, 1}, // Answer changed from int64 to int
	}
	for i, s := range steps {
		s.change()
		t.Run(fmt.Sprintf("%d %s", i, s.name), func(t *testing.T) {
			if code, out := sameAsCold(t, r.Dir, r.Dir, "", "diff", "--staged", "--no-timings", "--format", "json"); code != s.want {
				t.Errorf("diff --staged: exit %d, want %d\n%s", code, s.want, out)
			}
		})
	}
}

func TestServerFallsBackToCold(t *testing.T) {
	withServers(t)
	r := testrepo.New(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	r.Write(map[string]string{"m.go": cleanGo + "\n// Sub is broken.\nfunc Sub(a, b int) int { return a - b + nope }\n"})
	args := []string{"diff", "--no-timings", "--format", "json"}
	ccode, cout, _ := run(t, r.Dir, "", args...)
	if ccode != 1 {
		t.Fatalf("cold: exit %d, want 1\n%s", ccode, cout)
	}
	cache, _ := os.UserCacheDir()
	exe, _ := os.Executable()
	ep, err := server.Locate(cache, r.Dir, exe, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, wantStderr string, args ...string) {
		t.Helper()
		code, out, errs := served(t, r.Dir, "", args...)
		if code != ccode || out != cout || !strings.Contains(errs, wantStderr) {
			t.Errorf("%s: exit %d, stderr %q; want the cold answer (exit %d) and %q\n%s", name, code, errs, ccode, wantStderr, out)
		}
		if n := requests(t, r.Dir); n >= 0 {
			t.Errorf("%s: a server answered %d requests, want none", name, n)
		}
	}
	check("--no-server", "", append(args, "--no-server")...)
	if err := server.PrivateDir(ep.Dir); err != nil {
		t.Fatal(err)
	}
	// Something that is not a socket where the socket should be: refused, verified cold.
	os.WriteFile(ep.Socket, nil, 0o600)
	check("a file for a socket", "not a socket", args...)
	os.Remove(ep.Socket)

	// A server that cannot listen (its lock file is a directory) exits at once: the client
	// stops waiting for it, and verifies cold.
	os.Mkdir(ep.Socket+".lock", 0o700)
	start := time.Now()
	check("a server that cannot start", "", args...)
	if d := time.Since(start); d > serverStartWait {
		t.Errorf("a server that cannot start: the client waited %v", d)
	}
	os.Remove(ep.Socket + ".lock")

	// A bad idle time-out: said once, verified cold.
	var out, errb bytes.Buffer
	getenv := func(k string) string { return map[string]string{ServerIdleEnv: "soon"}[k] }
	code := Main(context.Background(), args, &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: r.Dir, Getenv: getenv, Server: true})
	if code != ccode || out.String() != cout || !strings.Contains(errb.String(), ServerIdleEnv+`="soon" is not a positive duration`) {
		t.Errorf("bad %s: exit %d, stderr %q", ServerIdleEnv, code, errb.String())
	}

	// A server that answers with an error, or hangs up: verified cold.
	for _, h := range []server.Handler{
		func(context.Context, *server.Request) (int, []byte, []byte, error) {
			return 0, nil, nil, fmt.Errorf("broken")
		},
		func(context.Context, *server.Request) (int, []byte, []byte, error) { panic("crash") },
	} {
		ln, err := listenWhenFree(ep)
		if err != nil {
			t.Fatal(err)
		}
		srv := &server.Server{Root: r.Dir, Socket: ep.Socket, Idle: time.Minute, Handler: h}
		done := make(chan error)
		go func() { done <- srv.Serve(context.Background(), ln) }()
		code, out, _ := served(t, r.Dir, "", args...)
		if code != ccode || out != cout {
			t.Errorf("failing server: exit %d, want the cold answer (exit %d)\n%s", code, ccode, out)
		}
		server.Call(context.Background(), ep.Socket, &server.Request{Op: server.OpStop})
		<-done
	}
}

// listenWhenFree listens at ep, first stopping a server that got there before: the one
// the "cannot start" case spawned may start late on a loaded machine, once its lock is
// free again.
func listenWhenFree(ep server.Endpoint) (net.Listener, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		ln, err := server.Listen(ep)
		if err == nil || time.Now().After(deadline) {
			return ln, err
		}
		server.Call(context.Background(), ep.Socket, &server.Request{Op: server.OpStop})
		time.Sleep(50 * time.Millisecond)
	}
}

func TestServerStatusAndStop(t *testing.T) {
	withServers(t)
	r := testrepo.New(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	if code, out, errs := served(t, r.Dir, "", "check", "--no-timings"); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ := run(t, r.Dir, "", "server", "status")
	if code != 0 || !strings.Contains(out, "PID") || !strings.Contains(out, r.Dir) || !strings.Contains(out, " MiB") {
		t.Errorf("status: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, r.Dir, "", "server", "stop")
	if code != 0 || !strings.Contains(out, "stopped pid") {
		t.Errorf("stop: exit %d\n%s", code, out)
	}
	deadline := time.Now().Add(5 * time.Second)
	for requests(t, r.Dir) >= 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if code, out, _ := run(t, r.Dir, "", "server", "status"); code != 0 || !strings.Contains(out, "no agentverify server is running") {
		t.Errorf("status after stop: exit %d\n%s", code, out)
	}
	if code, _, errs := run(t, r.Dir, "", "server", "restart"); code != 2 || !strings.Contains(errs, "want 'status' or 'stop'") {
		t.Errorf("server restart: exit %d, %s", code, errs)
	}
}

func TestServable(t *testing.T) {
	t.Parallel()
	none := func(string) string { return "" }
	for _, tc := range []struct {
		args  []string
		env   string
		want  bool
		stdin bool
	}{
		{[]string{"diff"}, "", true, false},
		{[]string{"diff", "--patch", "-"}, "", true, true},
		{[]string{"diff", "--patch=-"}, "", true, true},
		{[]string{"diff", "--patch", "p.diff"}, "", true, false},
		{[]string{"check", "help", "claude"}, "", true, false}, // files named so
		{[]string{"check", "--", "--no-server"}, "", true, false},
		{[]string{"hook", "claude"}, "", true, true},
		{[]string{"hook", "install"}, "", false, true},
		{[]string{"hook", "codex"}, "", true, true},
		{[]string{"hook", "--timeout", "3s", "opencode"}, "", true, true},
		{[]string{"hook", "report"}, "", true, true},
		{[]string{"hook", "nosuchagent"}, "", false, true},
		{[]string{"lint", "a.go"}, "", true, false},
		{[]string{"lsp"}, "", false, false},
		{[]string{"diff", "--no-server"}, "", false, false},
		{[]string{"hook", "claude", "-no-server"}, "", false, true},
		{[]string{"diff", "--help"}, "", false, false},
		{[]string{"diff"}, "1", false, false},
		{[]string{"diff"}, "0", true, false},
		{[]string{"init"}, "", false, false},
		{[]string{"mcp"}, "", false, false},
	} {
		getenv := none
		if tc.env != "" {
			getenv = func(k string) string {
				if k == NoServerEnv {
					return tc.env
				}
				return ""
			}
		}
		if got := servable(getenv, tc.args); got != tc.want {
			t.Errorf("servable(%q, %s=%q) = %t, want %t", tc.args, NoServerEnv, tc.env, got, tc.want)
		}
		if got := readsStdin(tc.args); got != tc.stdin {
			t.Errorf("readsStdin(%q) = %t, want %t", tc.args, got, tc.stdin)
		}
	}
	if !ephemeral(filepath.Join(os.TempDir(), "go-build123", "b001", "exe", "agentverify")) || ephemeral("/usr/local/bin/agentverify") {
		t.Error("ephemeral: 'go run' binaries get no server, installed ones do")
	}
}

func TestHookDeadline(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want time.Duration
	}{
		{[]string{"hook", "claude"}, 50 * time.Second},
		{[]string{"hook", "claude", "--timeout", "3s"}, 3 * time.Second},
		{[]string{"hook", "claude", "-timeout=4s"}, 4 * time.Second},
		{[]string{"hook", "claude", "--timeout", "soon"}, 50 * time.Second},
		{[]string{"hook", "cline"}, 25 * time.Second},
		{[]string{"hook", "codex", "--timeout", "7s"}, 7 * time.Second},
	} {
		ctx, cancel := hookDeadline(context.Background(), &Env{Server: true}, tc.args)
		deadline, ok := ctx.Deadline()
		cancel()
		if left := time.Until(deadline); !ok || left > tc.want || left < tc.want-time.Second {
			t.Errorf("%q: deadline in %v, want %v", tc.args, left, tc.want)
		}
	}
	if ctx, _ := hookDeadline(context.Background(), &Env{Server: true}, []string{"diff"}); ctx.Done() != nil {
		t.Error("diff got a deadline")
	}
}

// BenchmarkHookClaude measures one agent edit through 'hook claude' on a small module:
// served (the round trip to a warm server) and in process with a fresh warm checker, as a
// new hook process would run it (minus the process start).
func BenchmarkHookClaude(b *testing.B) {
	for _, mode := range []string{"served", "in-process"} {
		b.Run(mode, func(b *testing.B) {
			if !server.Supported {
				b.Skip("the shared server needs a Unix system")
			}
			cache, err := os.MkdirTemp("", "avb")
			if err != nil {
				b.Fatal(err)
			}
			defer os.RemoveAll(cache)
			b.Setenv("XDG_CACHE_HOME", cache)
			b.Setenv(testMainEnv, "1")
			b.Setenv("TMPDIR", cache)
			r := testrepo.New(b, map[string]string{"go.mod": goMod, "lib/lib.go": servedLib, "app/app.go": servedApp})
			payload := hookPayload(r.Dir, "app/app.go", servedApp+"\n// Thrice triples.\nfunc Thrice() int { return 3 * lib.Answer() }\n")
			runOnce := func() {
				var out, errb bytes.Buffer
				env := &Env{Stdin: strings.NewReader(payload), Stdout: &out, Stderr: &errb, Dir: r.Dir, Getenv: func(string) string { return "" }, Server: mode == "served"}
				if code := Main(context.Background(), []string{"hook", "claude"}, env); code != 0 {
					b.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
				}
			}
			runOnce() // starts the server, loads the module
			b.ResetTimer()
			for range b.N {
				runOnce()
			}
			b.StopTimer()
			var out, errb bytes.Buffer
			Main(context.Background(), []string{"server", "stop"}, &Env{Stdout: &out, Stderr: &errb, Dir: r.Dir, Getenv: func(string) string { return "" }})
		})
	}
}
