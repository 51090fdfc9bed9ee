package runner

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/agent/core"
	"github.com/agentverify/agentverify/agent/llm"
	"github.com/agentverify/agentverify/agent/runner/tools"
	"github.com/agentverify/agentverify/policy"
	"github.com/agentverify/agentverify/report"
)

// Verifier is the verification engine; *agentverify.Checker is one.
type Verifier = tools.Verifier

// Exit codes of the agent commands.
const (
	ExitOK      = 0 // the model answered and the final verification did not fail; replay matched
	ExitStopped = 1 // a guard, budget, error or the final verification stopped the run; replay differed
	ExitUsage   = 2 // bad flags or arguments
)

const usageText = `usage: agentverify agent run (--task TEXT | --task-file FILE|GLOB) --base-url URL --model NAME [flags]
       agentverify agent replay FILE

run: a coding agent against an OpenAI-compatible chat-completions server whose every
write is verified in memory before it touches the disk. The final answer goes to stdout,
progress to stderr. Exit 0: the model answered (and the final verification did not
fail); 1: a guard, budget or error stopped the run; 2: usage error.
With a glob matching several task files, or --parallel N, each task runs as its own agent
in its own git worktree (under .git/agentverify/worktrees), at most N at once.

replay: re-runs the recorded model replies of an audit log through the loop without a
server and checks that every decision comes out the same (exit 0) or lists the
differences (exit 1).

run flags:
`

// Command is the "agentverify agent" command; args are the arguments after "agent".
// v verifies the edits (nil: a new agentverify.Checker).
func Command(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, v Verifier) int {
	if v == nil {
		v = agentverify.NewChecker()
	}
	if len(args) == 0 {
		printUsage(stderr)
		return ExitUsage
	}
	switch args[0] {
	case "run":
		return runCommand(ctx, args[1:], stdin, stdout, stderr, v)
	case "replay":
		return replayCommand(ctx, args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		printUsage(stdout)
		return ExitOK
	}
	fmt.Fprintf(stderr, "agentverify agent: unknown subcommand %q (want run or replay)\n", args[0])
	return ExitUsage
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, usageText)
	f := newRunFlags(w)
	f.fs.PrintDefaults()
}

type runFlags struct {
	fs                                   *flag.FlagSet
	task, taskFile, baseURL, model, dir  string
	apiKeyEnv, access, policyFile, audit string
	maxSteps, tokenBudget, contextTokens int
	parallel, retries                    int
	timeBudget, retryDelay               time.Duration
	allowExec                            bool
}

func newRunFlags(out io.Writer) *runFlags {
	f := &runFlags{fs: flag.NewFlagSet("agentverify agent run", flag.ContinueOnError)}
	fs := f.fs
	fs.SetOutput(out)
	fs.StringVar(&f.task, "task", "", "the task, as text")
	fs.StringVar(&f.taskFile, "task-file", "", "read the task from `FILE` (\"-\": stdin); a glob runs one agent per file")
	fs.StringVar(&f.baseURL, "base-url", "", "chat-completions server, e.g. http://127.0.0.1:1234/v1")
	fs.StringVar(&f.model, "model", "", "model `NAME`")
	fs.StringVar(&f.apiKeyEnv, "api-key-env", "OPENAI_API_KEY", "environment `VAR` holding the API key (never printed or logged)")
	fs.StringVar(&f.dir, "dir", ".", "working `DIR`; every tool path is relative to it and cannot leave it")
	fs.IntVar(&f.maxSteps, "max-steps", core.DefaultMaxSteps, "most actions (tool calls and answers) of the run")
	fs.IntVar(&f.tokenBudget, "token-budget", DefaultTokenBudget, "most tokens (prompt and completion, all turns)")
	fs.DurationVar(&f.timeBudget, "time-budget", core.DefaultTimeBudget, "most wall-clock time of the run")
	fs.IntVar(&f.contextTokens, "context-tokens", core.DefaultMaxContextTokens, "the model's context window in tokens")
	fs.StringVar(&f.access, "access", "write", "file access granted: none, read or write")
	fs.BoolVar(&f.allowExec, "allow-exec", false, "offer run_command")
	fs.StringVar(&f.policyFile, "policy", "", "policy `FILE` (default: .agentverify.yaml at the repository root)")
	fs.StringVar(&f.audit, "audit", "", "append one JSON line per decision to `FILE`")
	fs.IntVar(&f.retries, "retries", DefaultRetries, "retries of a failed exchange with the server (connection, 5xx, 429, malformed reply)")
	fs.DurationVar(&f.retryDelay, "retry-delay", DefaultRetryDelay, "first pause before a retry, doubled each time")
	fs.IntVar(&f.parallel, "parallel", 0, "run the task files in git worktrees, at most `N` at once")
	return f
}

func usageErr(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "agentverify agent: "+format+"\n", args...)
	return ExitUsage
}

// task is one task to run.
type task struct {
	name, file, text string
}

func runCommand(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, v Verifier) int {
	f := newRunFlags(stderr)
	if err := f.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout)
			return ExitOK
		}
		return ExitUsage
	}
	access, err := f.validate()
	if err != nil {
		return usageErr(stderr, "%v", err)
	}
	key, err := f.apiKey()
	if err != nil {
		return usageErr(stderr, "%v", err)
	}
	tasks, err := readTasks(f, stdin)
	if err != nil {
		return usageErr(stderr, "%v", err)
	}
	base := Config{Model: f.model, MaxSteps: f.maxSteps, TokenBudget: f.tokenBudget, TimeBudget: f.timeBudget,
		ContextTokens: f.contextTokens, Access: access, AllowExec: f.allowExec,
		Retries: f.retries, RetryDelay: f.retryDelay}
	if f.retries == 0 {
		base.Retries = -1
	}
	if key != "" {
		base.Secrets = []string{key}
	}
	env := environ(f.apiKeyEnv)
	model := llm.NewClient(f.baseURL, key)
	if len(tasks) == 1 && f.parallel == 0 {
		base.Task = tasks[0].text
		return runSingle(ctx, f, base, env, model, v, stdout, stderr)
	}
	return runTasks(ctx, tasks, f, base, env, model, v, stdout, stderr)
}

// validate checks the flags of a run and returns the access level they grant. It makes a
// --policy path absolute, since tasks may run in other working directories.
func (f *runFlags) validate() (core.Access, error) {
	switch {
	case f.fs.NArg() > 0:
		return 0, fmt.Errorf("unexpected argument %q", f.fs.Arg(0))
	case (f.task == "") == (f.taskFile == ""):
		return 0, errors.New("give exactly one of --task and --task-file")
	case f.baseURL == "" || f.model == "":
		return 0, errors.New("--base-url and --model are required")
	}
	access, err := core.ParseAccess(f.access)
	if err != nil {
		return 0, fmt.Errorf("--access: %v", err)
	}
	if err := f.validateBudgets(); err != nil {
		return 0, err
	}
	return access, f.validatePaths()
}

// validateBudgets checks the numeric limits; the first bad one is named.
func (f *runFlags) validateBudgets() error {
	for _, b := range []struct {
		name string
		n    int
	}{{"--max-steps", f.maxSteps}, {"--token-budget", f.tokenBudget}, {"--context-tokens", f.contextTokens}} {
		if b.n <= 0 {
			return fmt.Errorf("%s must be positive, got %d", b.name, b.n)
		}
	}
	switch {
	case f.timeBudget <= 0:
		return fmt.Errorf("--time-budget must be positive, got %s", f.timeBudget)
	case f.retries < 0 || f.retryDelay < 0:
		return errors.New("--retries and --retry-delay must not be negative")
	case f.parallel < 0:
		return errors.New("--parallel must not be negative")
	}
	return nil
}

// validatePaths checks --dir and loads --policy once, so a bad policy fails before any
// model call; the policy path is made absolute for the per-task worktrees.
func (f *runFlags) validatePaths() error {
	if fi, err := os.Stat(f.dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("--dir %s: not a directory", f.dir)
	}
	if f.policyFile == "" {
		return nil
	}
	if _, err := policy.Load(f.policyFile); err != nil {
		return fmt.Errorf("--policy: %v", err)
	}
	abs, err := filepath.Abs(f.policyFile)
	if err != nil {
		return fmt.Errorf("--policy: %v", err)
	}
	f.policyFile = abs
	return nil
}

// apiKey reads the API key from the environment variable --api-key-env names; naming a
// variable that is not set is an error, the default one being absent is not.
func (f *runFlags) apiKey() (string, error) {
	if f.apiKeyEnv == "" {
		return "", nil
	}
	key, ok := os.LookupEnv(f.apiKeyEnv)
	explicit := false
	f.fs.Visit(func(fl *flag.Flag) { explicit = explicit || fl.Name == "api-key-env" })
	if !ok && explicit {
		return "", fmt.Errorf("--api-key-env: environment variable %s is not set", f.apiKeyEnv)
	}
	return key, nil
}

// runSingle runs one task in --dir, with the audit log if asked.
func runSingle(ctx context.Context, f *runFlags, base Config, env []string, model Model, v Verifier, stdout, stderr io.Writer) int {
	base.Progress = stderr
	if f.audit != "" {
		audit, err := os.OpenFile(f.audit, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return usageErr(stderr, "--audit: %v", err)
		}
		defer audit.Close()
		base.Audit = NewAudit(audit, base.Secrets...)
	}
	res, err := runOne(ctx, base, f.dir, f.policyFile, env, model, v)
	if err != nil {
		fmt.Fprintf(stderr, "agentverify agent: %v\n", err)
		return ExitStopped
	}
	if err := base.Audit.Err(); err != nil {
		fmt.Fprintf(stderr, "agentverify agent: writing the audit log: %v\n", err)
	}
	return finish(res, stdout, stderr)
}

// finish prints the answer and the verdict and returns the exit code.
func finish(res Result, stdout, stderr io.Writer) int {
	if res.Answer != "" {
		fmt.Fprintln(stdout, strings.TrimRight(res.Answer, "\n"))
	}
	if res.Final.Observation != "" {
		fmt.Fprintf(stderr, "final %s\n", res.Final.Observation)
	}
	if !res.OK() {
		fmt.Fprintf(stderr, "agentverify agent: stopped: %s\n", res.Reason)
		return ExitStopped
	}
	return ExitOK
}

// environ is the process environment without the API key, for run_command.
func environ(keyVar string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if keyVar != "" && strings.HasPrefix(kv, keyVar+"=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func readTasks(f *runFlags, stdin io.Reader) ([]task, error) {
	if f.task != "" {
		return []task{{name: "task", text: f.task}}, nil
	}
	if f.taskFile == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("--task-file -: %v", err)
		}
		return []task{{name: "stdin", text: string(data)}}, nil
	}
	files, err := filepath.Glob(f.taskFile)
	if err != nil {
		return nil, fmt.Errorf("--task-file %s: %v", f.taskFile, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("--task-file %s: no such file", f.taskFile)
	}
	var out []task
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("--task-file: %v", err)
		}
		if strings.TrimSpace(string(data)) == "" {
			return nil, fmt.Errorf("%s: the task file is empty", file)
		}
		name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		out = append(out, task{name: name, file: file, text: string(data)})
	}
	return out, nil
}

// runOne snapshots dir, builds the tool box and runs the agent in it.
func runOne(ctx context.Context, cfg Config, dir, policyFile string, env []string, model Model, v Verifier) (Result, error) {
	base, inRepo, err := Snapshot(ctx, dir)
	if err != nil {
		return Result{}, err
	}
	if base == "" {
		why := "is not in a git repository"
		if inRepo {
			why = "is in a repository without commits"
		}
		fmt.Fprintf(progressOf(cfg), "%s %s: the final verification checks the written files as they are\n", dir, why)
	}
	box, err := tools.New(tools.Options{Dir: dir, Verifier: v, PolicyFile: policyFile, Base: base})
	if err != nil {
		return Result{}, err
	}
	box.Env = env
	box.Secrets = cfg.Secrets
	cfg.Dir, cfg.Base = box.Dir(), base
	return Run(ctx, cfg, model, box)
}

func replayCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("agentverify agent replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout)
			return ExitOK
		}
		return ExitUsage
	}
	if fs.NArg() != 1 {
		return usageErr(stderr, "replay needs exactly one audit FILE")
	}
	name := fs.Arg(0)
	file, err := os.Open(name)
	if err != nil {
		return usageErr(stderr, "replay: %v", err)
	}
	defer file.Close()
	records, err := ReadAudit(file, name)
	if err != nil {
		return usageErr(stderr, "replay: %v", err)
	}
	code := ExitOK
	for i, s := range Sessions(records) {
		_, diffs, err := Replay(ctx, s)
		if err != nil {
			fmt.Fprintf(stderr, "session %d: %v\n", i+1, err)
			code = ExitStopped
			continue
		}
		if len(diffs) > 0 {
			code = ExitStopped
			fmt.Fprintf(stdout, "session %d: %d decisions, %d differ:\n", i+1, len(s), len(diffs))
			for _, d := range diffs {
				fmt.Fprintf(stdout, "  %s\n", d)
			}
			continue
		}
		fmt.Fprintf(stdout, "session %d: %d decisions replayed identically\n", i+1, len(s))
	}
	return code
}

// syncWriter serialises the progress of agents running at once, prefixing each line.
type syncWriter struct {
	mu *sync.Mutex
	w  io.Writer
	p  string
}

func (s syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if line != "" {
			if _, err := io.WriteString(s.w, s.p+line); err != nil {
				return 0, err
			}
		}
	}
	return len(b), nil
}

// statusText shows a final verdict.
func statusText(s report.Status) string { return orNone(s) }

func progressOf(c Config) io.Writer {
	if c.Progress == nil {
		return io.Discard
	}
	return c.Progress
}
