package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/agent/runner"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/internal/integrations/agenthook"
	"github.com/agentverify/agentverify/internal/integrations/githook"
	"github.com/agentverify/agentverify/internal/integrations/mcpserver"
	"github.com/agentverify/agentverify/report"
)

var hookLong = `Connects agentverify to the places where agent code enters a repository.

  agentverify hook install [--force]
      Writes .git/hooks/pre-commit (the common hooks directory of linked worktrees, or
      core.hooksPath) running 'agentverify diff --staged'. A hook agentverify did not write
      is kept unless --force is given. With the pre-commit framework, use the hook
      'agentverify' of this repository's .pre-commit-hooks.yaml instead.

  agentverify hook AGENT
      Runs as AGENT's hook before a file edit (AGENT: ` + agentList + `):
      reads the agent's JSON payload on standard input, computes every file the tool
      call writes exactly as the agent applies it (old/new strings, SEARCH/REPLACE
      blocks, a Codex patch), verifies them in memory and answers in the agent's own
      format. A failed verdict denies the edit with the violations as the reason;
      warnings are passed to the model where the agent has a way to. Anything that
      cannot be verified is denied: the hook fails closed — and so is an edit whose
      verification takes longer than --timeout (by default under the agent's own hook
      time-out, since most agents let a tool run when its hook times out). Package
      loads are kept in the user's cache (agentverify cache dir) for the next edit's
      run, which starts from them when nothing they depend on changed; --no-cache
      neither uses nor keeps them. 'agentverify init --agent AGENT' writes the agent's
      configuration; docs/integrations.md has a section per agent.`

// agentList names the agents of 'hook AGENT'.
var agentList = strings.Join(agenthook.Names(), ", ")

func runHook(ctx context.Context, env *Env, args []string) int {
	fs := newFlags(env, "hook")
	force := fs.Bool("force", false, "install: replace a pre-commit hook that agentverify did not write")
	policyFile := fs.String("policy", "", "AGENT: policy `FILE` (default: the repository's .agentverify.yaml)")
	noCache := fs.Bool("no-cache", false, "AGENT: neither start from nor keep the package loads of earlier runs (agentverify cache dir)")
	budget := fs.Duration("timeout", 0, "AGENT: deny an edit whose verification takes longer than `DURATION` (default: under the agent's own hook time-out, e.g. 50s for claude)")
	noServerFlag(fs)
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		// Flags follow the subcommand: agentverify hook install --force.
		args = append(args[1:], args[0])
	}
	if code, done := parse(fs, env, args); done {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(env, "hook", fmt.Errorf("want 'install' or an agent (%s)", agentList))
	}
	if fs.Arg(0) == "install" {
		self, err := os.Executable()
		if err != nil {
			self = "agentverify"
		}
		path, err := githook.Install(ctx, env.Dir, self, *force)
		if err != nil {
			return fail(env, err)
		}
		fmt.Fprintf(env.Stdout, "installed %s\n", path)
		return ExitOK
	}
	if fs.Arg(0) == "report" { // the language server's verifications, on the shared server
		return runReportHook(ctx, env, *policyFile)
	}
	agent, ok := agenthook.Lookup(fs.Arg(0))
	if !ok {
		return usageError(env, "hook", fmt.Errorf("unknown hook %q (want install or an agent: %s)", fs.Arg(0), agentList))
	}
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "timeout" })
	if *budget < 0 || set && *budget == 0 {
		return usageError(env, "hook", errors.New("--timeout must be positive"))
	}
	if !set {
		*budget = agent.Timeout
	}
	return runAgentHook(ctx, env, agent, *policyFile, *budget, *noCache)
}

// runAgentHook answers one payload of agent's hook. A verification that does not finish
// within budget denies the edit: the hook must answer before the agent gives up on it.
func runAgentHook(ctx context.Context, env *Env, agent agenthook.Agent, policyFile string, budget time.Duration, noCache bool) int {
	checker := env.Checker
	if checker == nil {
		var done func()
		checker, done = hookChecker(env, noCache)
		defer done()
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	verify := func(ctx context.Context, dir string, edits []editset.Edit) (*report.Report, error) {
		if dir == "" {
			dir = env.Dir
		}
		req := agentverify.Request{Dir: dir, Source: agentverify.Edits, Edits: edits, GitEnv: gitchange.GitVars(env.Environ()), FirstError: true}
		if policyFile != "" {
			req.PolicyFile = abs(env, policyFile)
		}
		rep, err := checker.Check(ctx, req)
		if err != nil && ctx.Err() == context.DeadlineExceeded {
			return nil, fmt.Errorf("the verification did not finish within %s (hook %s --timeout); the edit is denied unverified (a first run on a machine compiles the dependencies into the Go build cache: run `go build ./...` once, or raise --timeout)", budget, agent.Name)
		}
		return rep, err
	}
	res := agenthook.Run(ctx, agent.Codec, env.Stdin, verify)
	env.Stdout.Write(res.Stdout)
	if res.Stderr != "" {
		fmt.Fprintln(env.Stderr, strings.TrimRight(res.Stderr, "\n"))
	}
	return res.Exit
}

const mcpLong = `Serves the verification tools over the Model Context Protocol on standard input and
output, or as streamable HTTP with --http (loopback addresses only, unless --allow-remote;
requests from a browser origin that is not loopback or given with --allow-origin get 403). Tools: verify_diff
(base, staged), verify_files (paths), verify_edit (path, content: verified in memory,
nothing written) and explain_rule (rule). Results carry the JSON report as structured
content and a short text summary; a failed verification is a result, not a protocol
error. Loaded package information stays warm between calls.`

func runMCP(ctx context.Context, env *Env, args []string) int {
	fs := newFlags(env, "mcp")
	addr := fs.String("http", "", "serve streamable HTTP on `ADDR` (a loopback address such as 127.0.0.1:8765) instead of stdio")
	remote := fs.Bool("allow-remote", false, "with --http: allow a non-loopback address (anyone who reaches it can run the tools)")
	var origins listFlag
	fs.Var(&origins, "allow-origin", "with --http: also accept requests from browser `ORIGIN` (e.g. https://app.example.com); repeatable")
	if code, done := parse(fs, env, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(env, "mcp", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	checker := env.Checker
	if checker == nil {
		checker = agentverify.NewChecker()
	}
	dir, err := rootDir(env.Dir)
	if err != nil {
		return fail(env, err)
	}
	server := mcpserver.New(checker, dir)
	if *addr == "" {
		if err := server.Run(ctx, mcpserver.Stdio(env.Stdin, env.Stdout)); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
			return fail(env, err)
		}
		return ExitOK
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || (!*remote && !mcpserver.IsLoopbackHost(host)) {
		return usageError(env, "mcp", fmt.Errorf("--http %q: want a loopback address such as 127.0.0.1:8765 (or pass --allow-remote)", *addr))
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fail(env, err)
	}
	fmt.Fprintf(env.Stderr, "agentverify mcp: serving http://%s/\n", ln.Addr())
	return serveHTTP(ctx, env, ln, mcpserver.Handler(server, mcpserver.HTTPOptions{AllowedOrigins: origins}))
}

// serveHTTP serves h on ln until ctx ends.
func serveHTTP(ctx context.Context, env *Env, ln net.Listener, h http.Handler) int {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fail(env, err)
	}
	return ExitOK
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	if v == "" {
		return errors.New("empty value")
	}
	*l = append(*l, v)
	return nil
}

// rootDir is the repository root containing dir, or dir itself outside a repository.
func rootDir(dir string) (string, error) {
	if repo, err := gitchange.Open(dir); err == nil {
		return repo.Root(), nil
	}
	return filepath.Abs(dir)
}

const agentLong = `Runs agentverify's own coding agent against any OpenAI-compatible chat-completions
server. Every write_file and edit_file is verified in memory before it touches the disk; a
failed verdict writes nothing and tells the model what to fix.

  agentverify agent run (--task TEXT | --task-file FILE) --base-url URL --model NAME [flags]
  agentverify agent replay FILE

Run 'agentverify agent run --help' for the flags of a run.`

func runAgent(ctx context.Context, env *Env, args []string) int {
	if len(args) == 0 || args[0] == "--help" || args[0] == "-h" || args[0] == "-help" {
		w := env.Stdout
		if len(args) == 0 {
			w = env.Stderr
		}
		fmt.Fprintf(w, "Usage: agentverify agent run|replay [flags]\n\n%s\n", agentLong)
		if len(args) == 0 {
			return ExitError
		}
		return ExitOK
	}
	checker := env.Checker
	if checker == nil {
		checker = agentverify.NewChecker()
	}
	return runner.Command(ctx, args, env.Stdin, env.Stdout, env.Stderr, checker)
}
