package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/internal/integrations/agenthook"
	"github.com/agentverify/agentverify/internal/server"
	"github.com/agentverify/agentverify/resultcache"
)

// Environment variables of the shared warm server (design.md §9).
const (
	// NoServerEnv set to anything but "" or "0" makes every command verify in its own
	// process (as --no-server does).
	NoServerEnv = "AGENTVERIFY_NO_SERVER"
	// ServerIdleEnv is the idle time-out of the servers a command starts (a duration).
	ServerIdleEnv = "AGENTVERIFY_SERVER_IDLE"
)

// serverStartWait bounds the wait for a server the client just started; a cold load of
// the first request runs in it afterwards.
const serverStartWait = 5 * time.Second

// maxServedStdin bounds the standard input sent to the server; a larger one (a huge
// patch) is verified in process, whole.
const maxServedStdin = server.MaxMessage / 2

// forwardedEnv are the variables a served command reads through Env.Getenv.
var forwardedEnv = []string{"NO_COLOR", "TERM", resultcache.EnvDir}

// viaServer runs args on the repository's shared warm server, starting it if need be.
// ok is false when the server gave no complete answer (none could be started, the
// connection broke, the server failed): the caller then verifies in this process, so the
// server can make a verification faster but never change its verdict.
func viaServer(ctx context.Context, env *Env, args []string) (code int, ok bool) {
	if !env.Server || !server.Supported || !servable(env.Getenv, args) {
		return 0, false
	}
	ep, exe, req, ok := serverRequest(env, args)
	if !ok {
		return 0, false
	}
	idle := env.Getenv(ServerIdleEnv)
	if d, err := time.ParseDuration(idle); idle != "" && (err != nil || d <= 0) {
		fmt.Fprintf(env.Stderr, "agentverify: %s=%q is not a positive duration; verifying without the server\n", ServerIdleEnv, idle)
		return 0, false
	}
	start := func() (<-chan struct{}, error) {
		return server.Spawn(ep, exe, []string{"server", "run", "--socket", ep.Socket, "--root", ep.Root, "--idle", idle})
	}
	resp, err := server.CallOrStart(ctx, ep, req, start, serverStartWait)
	if err != nil {
		if strings.Contains(err.Error(), "refusing") {
			fmt.Fprintf(env.Stderr, "agentverify: %v; verifying without the server\n", err)
		}
		return 0, false
	}
	env.Stdout.Write(resp.Stdout)
	env.Stderr.Write(resp.Stderr)
	return resp.Exit, true
}

// serverRequest returns the endpoint of the server for env's repository, this
// executable, and the request that runs args there; ok is false when there is no server
// to ask (no repository, a 'go run' binary, standard input that could not be read).
func serverRequest(env *Env, args []string) (ep server.Endpoint, exe string, req *server.Request, ok bool) {
	dir, err := filepath.Abs(env.Dir)
	if err != nil {
		return ep, "", nil, false
	}
	root, found := repoRoot(dir)
	cache, err := os.UserCacheDir()
	exe, exeErr := os.Executable()
	if !found || err != nil || exeErr != nil || ephemeral(exe) {
		return ep, "", nil, false
	}
	if ep, err = server.Locate(cache, root, exe, os.Environ()); err != nil {
		return ep, "", nil, false
	}
	cwd, err := os.Getwd()
	if err != nil {
		return ep, "", nil, false
	}
	req = &server.Request{Op: server.OpRun, Args: args, Dir: env.Dir, Cwd: cwd, Terminal: env.Terminal}
	for _, k := range forwardedEnv {
		if v := env.Getenv(k); v != "" {
			req.Env = append(req.Env, k+"="+v)
		}
	}
	// The caller's git variables go with each request: the server answers with them, and
	// never with those of the client that started it (a hook's GIT_INDEX_FILE).
	req.Env = append(req.Env, gitchange.GitVars(env.Environ())...)
	if readsStdin(args) {
		b, err := io.ReadAll(io.LimitReader(env.Stdin, maxServedStdin+1))
		env.Stdin = io.MultiReader(bytes.NewReader(b), env.Stdin) // the fallback reads it all again
		if err != nil || len(b) > maxServedStdin {
			return ep, "", nil, false // too large to send whole: verified in process
		}
		req.Stdin = b
	}
	return ep, exe, req, true
}

// hookDeadline bounds a served agent hook by its --timeout (else the agent's default)
// from the start, so that a server that does not answer in time leaves the fallback no
// more time than the hook had: it then denies the edit unverified instead of overrunning
// the agent's own time-out.
func hookDeadline(ctx context.Context, env *Env, args []string) (context.Context, context.CancelFunc) {
	if !env.Server || len(args) == 0 || args[0] != "hook" {
		return ctx, func() {}
	}
	agent, ok := hookAgent(args)
	if !ok {
		return ctx, func() {}
	}
	budget := agent.Timeout
	for i, a := range args {
		v, ok := strings.CutPrefix(strings.TrimLeft(a, "-"), "timeout=")
		if !ok && strings.TrimLeft(a, "-") == "timeout" && strings.HasPrefix(a, "-") && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if d, err := time.ParseDuration(v); ok && err == nil && d > 0 {
			budget = d
		}
	}
	return context.WithTimeout(ctx, budget)
}

// ephemeral reports whether exe is a binary of 'go run', deleted when it exits: a server
// of its own for every run would only linger.
func ephemeral(exe string) bool {
	rel, err := filepath.Rel(os.TempDir(), exe)
	return err == nil && strings.HasPrefix(rel, "go-build")
}

// hookAgent returns the agent a 'hook AGENT' command line names.
func hookAgent(args []string) (agenthook.Agent, bool) {
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if agent, ok := agenthook.Lookup(a); ok {
			return agent, true
		}
	}
	return agenthook.Agent{}, false
}

// servable reports whether args is a command the server runs: diff, check, lint and the
// agent hooks, unless --no-server, AGENTVERIFY_NO_SERVER or --help says otherwise.
func servable(getenv func(string) string, args []string) bool {
	if v := getenv(NoServerEnv); v != "" && v != "0" {
		return false
	}
	if len(args) == 0 {
		return false
	}
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		switch strings.TrimLeft(a, "-") {
		case "no-server", "no-server=true", "h", "help":
			if strings.HasPrefix(a, "-") {
				return false
			}
		}
	}
	switch args[0] {
	case "diff", "check", "lint":
		return true
	case "hook":
		_, ok := hookAgent(args)
		return ok || slices.Contains(args[1:], "report")
	}
	return false
}

// readsStdin reports whether the command reads standard input: an agent hook reads its
// payload, diff --patch - the patch.
func readsStdin(args []string) bool {
	if args[0] == "hook" {
		return true
	}
	for i, a := range args {
		switch {
		case a == "--":
			return false
		case a == "-patch=-" || a == "--patch=-":
			return true
		case (a == "-patch" || a == "--patch") && i+1 < len(args) && args[i+1] == "-":
			return true
		}
	}
	return false
}

// repoRoot returns the root of the git repository containing dir (the nearest directory
// with a .git entry, as git finds it).
func repoRoot(dir string) (string, bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// serveRequest returns the server's handler: it runs the request's command line as the
// client's process would, with the server's warm Checker, and returns what it printed.
// Requests run one at a time in the client's working directory, so that every relative
// path resolves, and every message names it, as in the client's own run.
func serveRequest(checker *agentverify.Checker) server.Handler {
	var mu sync.Mutex
	return func(ctx context.Context, req *server.Request) (int, []byte, []byte, error) {
		if !servable(func(string) string { return "" }, req.Args) {
			return 0, nil, nil, fmt.Errorf("not a served command: %q", req.Args)
		}
		vars := map[string]string{}
		for _, kv := range req.Env {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		environ := func() []string { return append([]string{}, req.Env...) }
		mu.Lock()
		defer mu.Unlock()
		if err := os.Chdir(req.Cwd); err != nil {
			return 0, nil, nil, err
		}
		var stdout, stderr bytes.Buffer
		code := Main(ctx, req.Args, &Env{
			Stdin: bytes.NewReader(req.Stdin), Stdout: &stdout, Stderr: &stderr,
			Dir: req.Dir, Getenv: func(k string) string { return vars[k] }, Environ: environ,
			Terminal: req.Terminal, Checker: checker,
		})
		return code, stdout.Bytes(), stderr.Bytes(), nil
	}
}

const serverLong = `Inspects and stops the shared warm servers. diff, check, lint and the agent hooks hand their work
to a server per user and repository, started on first use, that keeps loaded package
information between runs (a Unix socket in the user cache directory, private to the
user); it exits after an idle time-out (10m, or AGENTVERIFY_SERVER_IDLE). When a server
cannot be reached, the command verifies in its own process: the answer is the same.
--no-server or AGENTVERIFY_NO_SERVER=1 always verifies in the command's own process.

  agentverify server status   list the running servers: pid, uptime, requests, memory, repository
  agentverify server stop     stop every running server`

func runServer(ctx context.Context, env *Env, args []string) int {
	if len(args) > 0 && args[0] == "run" {
		return runServerProcess(ctx, env, args[1:])
	}
	fs := newFlags(env, "server")
	if code, done := parse(fs, env, args); done {
		return code
	}
	if fs.NArg() != 1 || fs.Arg(0) != "status" && fs.Arg(0) != "stop" {
		return usageError(env, "server", errors.New("want 'status' or 'stop'"))
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return fail(env, err)
	}
	socks, err := server.Sockets(server.SocketDir(cache))
	if err != nil {
		return fail(env, err)
	}
	op := fs.Arg(0)
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	if op == "status" {
		fmt.Fprintln(tw, "PID\tUPTIME\tREQUESTS\tMEMORY\tREPOSITORY")
	}
	n := 0
	for _, sock := range socks {
		resp, err := server.Call(ctx, sock, &server.Request{Op: op})
		if err != nil || resp.Status == nil {
			continue // not running (a socket left by a killed server)
		}
		n++
		st := resp.Status
		if op == "stop" {
			fmt.Fprintf(tw, "stopped pid %d\t%s\n", st.PID, st.Root)
			continue
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d MiB\t%s\n", st.PID, time.Since(st.Started).Round(time.Second), st.Requests, st.Memory>>20, st.Root)
	}
	if n == 0 {
		fmt.Fprintln(env.Stdout, "no agentverify server is running")
		return ExitOK
	}
	tw.Flush()
	return ExitOK
}

// runServerProcess is the hidden 'server run': the server itself, started by a client.
func runServerProcess(ctx context.Context, env *Env, args []string) int {
	fs := newFlags(env, "server")
	sock := fs.String("socket", "", "the `PATH` of the socket to listen on")
	root := fs.String("root", "", "the repository `DIR` served")
	idle := fs.String("idle", "", "exit after `DURATION` without a request (default 10m)")
	if code, done := parse(fs, env, args); done {
		return code
	}
	timeout := server.DefaultIdle
	if *idle != "" {
		d, err := time.ParseDuration(*idle)
		if err != nil || d <= 0 {
			return usageError(env, "server", fmt.Errorf("--idle %q: want a positive duration", *idle))
		}
		timeout = d
	}
	if *sock == "" || !filepath.IsAbs(*root) {
		return usageError(env, "server", errors.New("run: want --socket PATH and an absolute --root DIR"))
	}
	ln, err := server.Listen(server.Endpoint{Dir: filepath.Dir(*sock), Socket: *sock, Root: *root})
	if errors.Is(err, server.ErrRunning) {
		return ExitOK // another client started it first
	}
	if err != nil {
		return fail(env, err)
	}
	checker := env.Checker
	if checker == nil {
		checker = agentverify.NewChecker()
	}
	srv := &server.Server{Root: *root, Socket: *sock, Idle: timeout, Handler: serveRequest(checker)}
	if err := srv.Serve(ctx, ln); err != nil {
		return fail(env, err)
	}
	logFile := server.LogOf(*sock)
	if fi, err := os.Stat(logFile); err == nil && fi.Size() == 0 {
		os.Remove(logFile) // nothing went wrong: leave nothing behind
	}
	return ExitOK
}
