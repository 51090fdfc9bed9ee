// Package cli implements the agentverify command line: it parses arguments, calls the
// library's one entry point and maps the outcome to an exit code (design.md §1): 0 passed or
// warnings, 1 failed (the change is wrong), 2 could not verify (bad usage or policy, a tool
// or module missing here, a crash: someone must fix the setup, not the change).
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/integrations/agenthook"
	"github.com/agentverify/agentverify/policy"
	"github.com/agentverify/agentverify/report"
)

// Exit codes.
const (
	ExitOK     = 0
	ExitFailed = 1
	ExitError  = 2
)

// Env is what a command runs with; tests give their own.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Dir is the working directory; default ".".
	Dir string
	// Getenv reads the environment; default os.Getenv.
	Getenv func(string) string
	// Environ lists the environment as KEY=VALUE; default os.Environ. The git variables
	// in it (GIT_INDEX_FILE, GIT_DIR, …) say which repository and index git records.
	Environ func() []string
	// Terminal reports whether Stdout is a terminal (for colour).
	Terminal bool
	// Checker runs verifications; nil means a fresh one.
	Checker *agentverify.Checker
	// Server hands diff, check and hook claude to the repository's shared warm server,
	// starting it if need be (the agentverify command sets it; see server.go).
	Server bool
	// LeanGC lets check, which holds the most memory, collect garbage twice as often as
	// Go's default (GOGC=50 while it runs, unless GOGC is set): on cli/cli a first
	// whole-repository check peaks at ~190 MiB instead of ~250 MiB for ~12% more CPU. Only
	// the agentverify command sets it: the setting is the process's, which a library and
	// the shared server (serving many requests at once) must leave alone.
	LeanGC bool
}

type command struct {
	name, args, short, long string
	run                     func(ctx context.Context, env *Env, args []string) int
}

func commands() []*command {
	return []*command{
		{"diff", "[flags]", "verify the change between a base and the working tree (the main job)", diffLong, runDiff},
		{"check", "[flags] [PATH ...]", "verify files or directories as they are, with no base", checkLong, runCheck},
		{"init", "[--force] | --agent AGENT", "write a commented starter policy .agentverify.yaml, or set up an agent's hook", initLong, runInit},
		{"lint", "[FILE ...]", "print the change's new findings as FILE:LINE:COL lines (aider's and SWE-agent's lint command)", lintLong, runLint},
		{"lsp", "", "serve the findings of open documents as diagnostics (a language server on stdio)", lspLong, runLSP},
		{"explain", "[RULE]", "show the documentation of a rule, or list every rule", explainLong, runExplain},
		{"hook", "install [--force] | AGENT", "install the git pre-commit hook, or run as a coding agent's hook before a file edit", hookLong, runHook},
		{"mcp", "[--http ADDR]", "serve the verification tools over the Model Context Protocol", mcpLong, runMCP},
		{"agent", "run|replay [flags]", "run the coding agent whose every edit is verified before it is written", agentLong, runAgent},
		{"server", "status|stop", "list or stop the shared warm servers that diff, check and hooks use", serverLong, runServer},
		{"cache", "clean|dir|stats", "manage the result cache that check replays unchanged directories from", cacheLong, runCache},
		{"completion", "bash|zsh|fish", "print a shell completion script", completionLong, runCompletion},
		{"version", "", "print the version", "Prints agentverify's version, the Go version it was built with and its platform.", runVersion},
	}
}

// Main runs the command line args (without the program name) and returns the exit code.
func Main(ctx context.Context, args []string, env *Env) int {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	if env.Environ == nil {
		env.Environ = os.Environ
	}
	if env.Dir == "" {
		env.Dir = "."
	}
	args, err := globalDir(env, args)
	if err != nil {
		fmt.Fprintf(env.Stderr, "agentverify: %v\n", err)
		return ExitError
	}
	if len(args) == 0 {
		usage(env.Stderr)
		return ExitError
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 {
			for _, c := range commands() {
				if c.name == args[1] {
					return c.run(ctx, env, []string{"--help"})
				}
			}
		}
		usage(env.Stdout)
		return ExitOK
	case "-v", "--version":
		return runVersion(ctx, env, nil)
	}
	ctx, cancel := hookDeadline(ctx, env, args)
	defer cancel()
	if code, ok := viaServer(ctx, env, args); ok {
		return code
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, env, args[1:])
		}
	}
	fmt.Fprintf(env.Stderr, "agentverify: unknown command %q (run 'agentverify help')\n", args[0])
	return ExitError
}

// globalDir applies "-C DIR" given before the command (as git and go accept it), and
// returns the arguments that follow.
func globalDir(env *Env, args []string) ([]string, error) {
	for len(args) > 0 {
		var dir string
		switch a := args[0]; {
		case a == "-C" || a == "--C":
			if len(args) < 2 {
				return nil, errors.New("-C: no directory given")
			}
			dir, args = args[1], args[2:]
		case strings.HasPrefix(a, "-C="):
			dir, args = a[len("-C="):], args[1:]
		default:
			return args, nil
		}
		if fi, err := os.Stat(abs(env, dir)); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("-C %s: not a directory", dir)
		}
		env.Dir = abs(env, dir)
	}
	return args, nil
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "agentverify is a static verification gate for code written by AI agents.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w, "  agentverify [-C DIR] <command> [flags] [args]   (flags may come after args)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.short)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exit codes: 0 passed or warnings, 1 failed (the change has errors), 2 could not verify")
	fmt.Fprintln(w, "(bad usage or policy, a missing tool or module, a crash; the reason is on standard error).")
	fmt.Fprintln(w, "Run 'agentverify <command> --help' for a command's flags.")
}

// newFlags returns a flag set whose --help prints the command's documentation.
func newFlags(env *Env, c string) *flag.FlagSet {
	var cmd *command
	for _, x := range commands() {
		if x.name == c {
			cmd = x
		}
	}
	fs := flag.NewFlagSet("agentverify "+c, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: agentverify %s %s\n\n%s\n", cmd.name, cmd.args, cmd.long)
		if hasFlags(fs) {
			fmt.Fprintln(w, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parse parses args; it returns done with the exit code when the command must stop
// (--help: 0, bad flags: 2).
func parse(fs *flag.FlagSet, env *Env, args []string) (code int, done bool) {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(env.Stdout)
			fs.Usage()
			return ExitOK, true
		}
	}
	fs.SetOutput(io.Discard) // a bad flag gets one line, not the whole usage
	if err := fs.Parse(interspersed(fs, args)); err != nil {
		fmt.Fprintf(env.Stderr, "%s: %v\nRun '%s --help' for usage.\n", fs.Name(), err, fs.Name())
		return ExitError, true
	}
	return 0, false
}

// interspersed reorders args so that flags written after positional arguments are parsed
// too ("check . --format json"), as Go users expect: flags first, then "--", then the
// positional arguments in their order. Everything after a "--" stays positional.
func interspersed(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case len(a) < 2 || a[0] != '-':
			pos = append(pos, a)
		default:
			flags = append(flags, a)
			if takesValue(fs, a) && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		}
	}
	return append(append(flags, "--"), pos...)
}

// takesValue reports whether the flag a ("-name" or "--name", without "=value") reads the
// next argument as its value.
func takesValue(fs *flag.FlagSet, a string) bool {
	name := strings.TrimLeft(a, "-")
	if strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false // unknown: fs.Parse reports it
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// verifyFlags are the flags shared by diff and check.
type verifyFlags struct {
	policy, format, failOn, task, dir string
	outputs                           outputList
	color                             string
	all, noTimings, quiet             bool
	fix, dryRun                       bool
}

// output is one report destination: a format and a file ("" is standard output).
type output struct{ format, path string }

// outputList is the repeatable --output FORMAT[=PATH] flag. A value that names no format is
// a file for --format (the older --output FILE form).
type outputList []output

func (o *outputList) String() string { return "" }

func (o *outputList) Set(s string) error {
	name, path, hasPath := strings.Cut(s, "=")
	switch {
	case s == "":
		return errors.New("empty; want FORMAT, FORMAT=PATH or PATH")
	case report.IsFormat(name) && hasPath && path == "":
		return fmt.Errorf("%s=: no file after '='", name)
	case report.IsFormat(name):
		*o = append(*o, output{format: name, path: path})
	case hasPath:
		// A mistyped format (sarfi=out.sarif) must not become a text file of that name.
		return fmt.Errorf("unknown format %q in %q (want %s); a file whose name holds '=' is written with FORMAT=PATH", name, s, strings.Join(report.Formats(), ", "))
	default:
		*o = append(*o, output{path: s}) // --output FILE, in the --format format
	}
	return nil
}

func (v *verifyFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&v.policy, "policy", "", "policy `FILE` (default: .agentverify.yaml at the repository root — for diff, as committed at the base — else the built-in policy)")
	fs.StringVar(&v.format, "format", "text", "output `format`: "+strings.Join(report.Formats(), ", "))
	fs.Var(&v.outputs, "output", "write the report as `FORMAT[=PATH]` (repeatable; no PATH: standard output); a PATH alone uses --format")
	fs.StringVar(&v.failOn, "fail-on", "error", "exit 1 when a violation of this `severity` or worse is found: error or warning")
	fs.StringVar(&v.task, "task", "", "what the change was for, shown in the report")
	fs.StringVar(&v.dir, "C", "", "run as if started in `DIR`")
	fs.BoolVar(&v.all, "all", false, "also report pre-existing problems in the changed files")
	fs.StringVar(&v.color, "color", "auto", "colour the text output: `auto` (on a terminal, unless NO_COLOR is set), always or never")
	fs.BoolVar(&v.fix, "fix", false, "apply the fixes of findings that have exactly one safe edit (a missing import, a single did-you-mean), to files of the change only, then verify again")
	fs.BoolVar(&v.dryRun, "dry-run", false, "with --fix: print the diff of the fixes and change nothing")
	fs.BoolVar(&v.quiet, "quiet", false, "text output: only the violations, nothing when there are none")
	fs.BoolVar(&v.noTimings, "no-timings", false, "write zero durations, so the same input gives byte-identical output")
	noServerFlag(fs)
}

func (v *verifyFlags) validate(env *Env) error {
	if v.dryRun && !v.fix {
		return errors.New("--dry-run goes with --fix")
	}
	switch v.color {
	case "auto", "always", "never":
	default:
		return fmt.Errorf("unknown --color %q (want auto, always or never)", v.color)
	}
	if !report.IsFormat(v.format) {
		return fmt.Errorf("unknown --format %q (want %s)", v.format, strings.Join(report.Formats(), ", "))
	}
	if len(v.outputs) == 0 {
		v.outputs = outputList{{}}
	}
	stdout := 0
	for i, o := range v.outputs {
		if o.format == "" {
			v.outputs[i].format = v.format
		}
		if o.path == "" {
			stdout++
		}
	}
	if stdout > 1 {
		return errors.New("--output: more than one format for standard output; give the others a file (FORMAT=PATH)")
	}
	if err := checkOutputPaths(env, v.outputs); err != nil {
		return err
	}
	switch v.failOn {
	case "error", "warning":
	default:
		return fmt.Errorf("unknown --fail-on %q (want error or warning)", v.failOn)
	}
	return nil
}

const diffLong = `Verifies the change between a base revision and the working tree: tracked changes,
deletions, renames and untracked files that are not ignored. Only problems introduced by
the change are reported (a finding on a changed line, a function that got more complex, an
export that was removed); --all also reports pre-existing problems in the changed files.

The policy is the trusted one: --policy, else the base commit's .agentverify.yaml (read from
git, not from the disk). A change to the policy is scope/policy-changed and is verified
under the base policy; a human who means it passes --allow-policy-change.

  agentverify diff                    HEAD vs the working tree
  agentverify diff --base main        the merge-base of main and HEAD vs the working tree
  agentverify diff --staged           the index vs HEAD (pre-commit)
  agentverify diff --patch change.diff  a unified diff applied to HEAD (- reads stdin)`

func runDiff(ctx context.Context, env *Env, args []string) int {
	fs := newFlags(env, "diff")
	var v verifyFlags
	v.register(fs)
	base := fs.String("base", "", "base `REF`: a commit, tag or branch (a branch means its merge-base with HEAD); default HEAD")
	staged := fs.Bool("staged", false, "verify the index against HEAD (what a pre-commit hook sees)")
	allowPolicy := fs.Bool("allow-policy-change", false, "a human approves the change's own policy: use it, and do not report scope/policy-changed")
	patchFile := fs.String("patch", "", "verify a unified diff read from `FILE` (- for standard input)")
	if code, done := parse(fs, env, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(env, "diff", fmt.Errorf("unexpected argument %q (diff takes flags only; did you mean 'agentverify check'?)", fs.Arg(0)))
	}
	if err := v.validate(env); err != nil {
		return usageError(env, "diff", err)
	}
	req := agentverify.Request{Source: agentverify.WorkingTree, Base: *base, AllowPolicyChange: *allowPolicy}
	baseSet := isSet(fs, "base")
	n := 0
	for _, set := range []bool{baseSet, *staged, *patchFile != ""} {
		if set {
			n++
		}
	}
	switch {
	case n > 1:
		return v.refuse(env, "diff", errors.New("--base, --staged and --patch exclude each other"))
	case baseSet && strings.TrimSpace(*base) == "":
		// An unset CI variable (--base "$BASE") must not quietly mean HEAD, which would pass
		// every change already committed.
		return v.refuse(env, "diff", errors.New(`--base "": no revision given (an unset variable?); name a commit, or leave --base out to verify against HEAD`))
	case v.fix && *patchFile != "":
		return v.refuse(env, "diff", errFixPatch)
	}
	switch {
	case *staged:
		req.Source = agentverify.Staged
	case *patchFile == "-":
		req.Source, req.Patch, req.PatchName = agentverify.Patch, env.Stdin, "<stdin>"
	case *patchFile != "":
		f, err := os.Open(abs(env, *patchFile))
		if err != nil {
			return v.unverified(env, err)
		}
		defer f.Close()
		req.Source, req.Patch, req.PatchName = agentverify.Patch, f, *patchFile
	}
	return verify(ctx, env, &v, req)
}

const checkLong = `Verifies files and directories as they are, with no base: every finding counts.
Directories are walked recursively; inside a git repository, ignored files are skipped.
With no PATH, the current directory is checked.`

func runCheck(ctx context.Context, env *Env, args []string) int {
	fs := newFlags(env, "check")
	var v verifyFlags
	v.register(fs)
	noCache := fs.Bool("no-cache", false, "neither replay nor store results in the result cache (agentverify cache dir)")
	if code, done := parse(fs, env, args); done {
		return code
	}
	if err := v.validate(env); err != nil {
		return usageError(env, "check", err)
	}
	if !*noCache {
		defer withResultCache(env)()
	} else {
		ownChecker(env).Fresh = true // nor a frontend's records (the compiler's incremental one)
	}
	defer leanGC(env)()
	if v.dir != "" { // -C DIR: paths are relative to DIR, as if started there
		env.Dir, v.dir = abs(env, v.dir), ""
	}
	req := agentverify.Request{Source: agentverify.Paths}
	for _, p := range fs.Args() {
		req.Paths = append(req.Paths, abs(env, p))
	}
	return verify(ctx, env, &v, req)
}

// leanGC applies Env.LeanGC and returns what undoes it.
func leanGC(env *Env) (restore func()) {
	if !env.LeanGC || env.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(50)
	return func() { debug.SetGCPercent(old) }
}

func abs(env *Env, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(env.Dir, p)
}

func verify(ctx context.Context, env *Env, v *verifyFlags, req agentverify.Request) int {
	if v.dir != "" { // -C DIR: every relative path is relative to DIR, as if started there
		env.Dir, v.dir = abs(env, v.dir), ""
	}
	req.Dir = env.Dir
	req.GitEnv = gitchange.GitVars(env.Environ())
	if v.policy != "" {
		req.PolicyFile = abs(env, v.policy)
	}
	req.All, req.Task = v.all, v.task
	checker := env.Checker
	if checker == nil {
		checker = &agentverify.Checker{}
	}
	rep, err := checker.Check(ctx, req)
	if err != nil {
		return v.unverified(env, err)
	}
	if v.fix {
		var done bool
		if rep, done, err = fixAndVerify(ctx, env, v, checker, req, rep); err != nil || done {
			if err != nil {
				return v.unverified(env, err)
			}
			return exitCode(rep)
		}
	}
	return v.finish(env, rep)
}

// finish writes rep to every output and returns the exit code. With --fail-on warning a
// run with warnings is failed in the documents too, so they agree with the exit code. A
// run that could not verify the change also says why on standard error, one line per
// reason, as every exit 2 does.
func (v *verifyFlags) finish(env *Env, rep *report.Report) int {
	if v.failOn == "warning" && rep.Status == report.Warnings {
		rep.Status, rep.Passed = report.Failed, false
	}
	if v.noTimings {
		rep.DurationMS = 0
		for i := range rep.DimensionResults {
			rep.DimensionResults[i].DurationMS = 0
		}
	}
	if err := writeReport(env, v, rep); err != nil {
		return fail(env, err)
	}
	if rep.Status == report.Errored {
		fmt.Fprintf(env.Stderr, "agentverify: could not verify: %s\n", report.Escape(rep.Error))
	}
	return exitCode(rep)
}

// unverified ends a run that could not verify the change: the error's document (status
// error and the reason) goes to every output but a text one on standard output, where
// the error line on standard error already says it; exit 2.
func (v *verifyFlags) unverified(env *Env, err error) int {
	rep := agentverify.ErrorReport(err)
	outs := v.outputs[:0:0]
	for _, o := range v.outputs {
		if o.path != "" || o.format != "text" {
			outs = append(outs, o)
		}
	}
	w := *v
	w.outputs = outs
	if werr := writeReport(env, &w, rep); werr != nil {
		fail(env, werr)
	}
	return fail(env, err)
}

// refuse is usageError once the outputs are known: they get the error's document too.
func (v *verifyFlags) refuse(env *Env, cmd string, err error) int {
	v.unverified(&Env{Stdout: env.Stdout, Stderr: io.Discard, Dir: env.Dir, Getenv: env.Getenv}, err)
	return usageError(env, cmd, err)
}

// isSet reports whether flag name was given on the command line (even as "").
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// checkOutputPaths refuses, before anything is verified, outputs that could not be
// written: two to one file, a directory, a file in a directory that does not exist.
func checkOutputPaths(env *Env, outs outputList) error {
	seen := map[string]string{}
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		p := filepath.Clean(abs(env, o.path))
		if prev, ok := seen[p]; ok {
			return fmt.Errorf("--output: %s and %s both write %s", prev, o.format, o.path)
		}
		seen[p] = o.format
		if strings.HasSuffix(o.path, "/") || strings.HasSuffix(o.path, string(filepath.Separator)) {
			return fmt.Errorf("--output %s=%s: a directory, not a file", o.format, o.path)
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return fmt.Errorf("--output %s=%s: a directory, not a file", o.format, o.path)
		}
		if fi, err := os.Stat(filepath.Dir(p)); err != nil || !fi.IsDir() {
			return fmt.Errorf("--output %s=%s: directory %s does not exist", o.format, o.path, filepath.Dir(o.path))
		}
	}
	return nil
}

// noServerFlag registers --no-server, which Main reads before the command runs.
func noServerFlag(fs *flag.FlagSet) {
	fs.Bool("no-server", false, "verify in this process, not on the shared warm server (also "+NoServerEnv+"=1)")
}

// exitCode maps a report's verdict to the exit code (design.md §1): 2 when the change
// could not be verified, 1 when it failed (with --fail-on warning, finish has made
// warnings a failure), 0 otherwise.
func exitCode(rep *report.Report) int {
	switch rep.Status {
	case report.Errored:
		return ExitError
	case report.Failed:
		return ExitFailed
	}
	return ExitOK
}

// fixAndVerify applies the report's exact fixes and verifies again, returning the new
// report; with --dry-run it prints their diff instead and reports done (no report is
// written, the exit code is the verification's).
func fixAndVerify(ctx context.Context, env *Env, v *verifyFlags, checker *agentverify.Checker, req agentverify.Request, rep *report.Report) (*report.Report, bool, error) {
	if req.Source == agentverify.Patch {
		return nil, false, errFixPatch
	}
	plan := planFixes(rep)
	if v.dryRun {
		return rep, true, runFixes(rep.Root, plan, true, env.Stdout)
	}
	if plan.fixed == 0 {
		return rep, false, nil
	}
	if err := runFixes(rep.Root, plan, false, nil); err != nil {
		return nil, false, err
	}
	fmt.Fprintf(env.Stderr, "agentverify: fixed %d finding(s) in %d file(s); verifying again\n", plan.fixed, len(plan.edits))
	if req.Source == agentverify.Staged {
		fmt.Fprintln(env.Stderr, "agentverify: the fixes are in the working tree; stage them (git add) for the commit to have them")
	}
	rep, err := checker.Check(ctx, req)
	return rep, false, err
}

func writeReport(env *Env, v *verifyFlags, rep *report.Report) error {
	for _, o := range v.outputs {
		opts := report.TextOptions{Timings: !v.noTimings, Quiet: v.quiet}
		if o.path == "" {
			opts.Color = v.color == "always" || v.color == "auto" && env.Terminal && env.Getenv("NO_COLOR") == "" && env.Getenv("TERM") != "dumb"
			if err := report.Write(env.Stdout, o.format, rep, opts); err != nil {
				return err
			}
			continue
		}
		err := writeFileAtomic(abs(env, o.path), func(w io.Writer) error { return report.Write(w, o.format, rep, opts) })
		if err != nil {
			return err
		}
	}
	return nil
}

// writeFileAtomic writes a file through a temporary file in the same directory and a rename,
// so a reader never sees a partial report and a failure leaves the old file in place.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func usageError(env *Env, cmd string, err error) int {
	fmt.Fprintf(env.Stderr, "agentverify %s: %v\n", cmd, err)
	fmt.Fprintf(env.Stderr, "Run 'agentverify %s --help' for usage.\n", cmd)
	return ExitError
}

// fail prints the error and returns exit 2: the gate fails closed. Each line of the error
// (errors.Join puts one problem on each: every bad key of a policy) is a line of its own,
// its white space folded.
func fail(env *Env, err error) int {
	for _, line := range strings.Split(strings.TrimSpace(err.Error()), "\n") {
		if line = strings.Join(strings.Fields(line), " "); line != "" {
			fmt.Fprintf(env.Stderr, "agentverify: %s\n", report.Escape(line))
		}
	}
	return ExitError
}

var initLong = `Writes a commented starter policy, .agentverify.yaml, at the root of the repository (or
in the current directory outside a repository). Every key is explained in the file. An
existing policy is never overwritten unless --force is given.

  agentverify init --agent AGENT
      Sets up AGENT's hook instead (AGENT: ` + agentList + `): writes the agent's
      own configuration file at the repository root, or merges the hook into it, and
      prints what it did. Running it again changes nothing. The command it configures
      is 'agentverify hook AGENT', found on PATH.`

func runInit(ctx context.Context, env *Env, args []string) int {
	fs := newFlags(env, "init")
	force := fs.Bool("force", false, "overwrite an existing policy file")
	agentName := fs.String("agent", "", "set up `AGENT`'s hook (its own configuration file) instead of writing a policy")
	if code, done := parse(fs, env, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(env, "init", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	root := env.Dir
	if repo, err := gitchange.Open(env.Dir); err == nil {
		root = repo.Root()
	}
	if *agentName != "" {
		return initAgent(env, root, *agentName)
	}
	path := filepath.Join(root, policy.DefaultFile)
	if _, err := os.Lstat(path); err == nil && !*force {
		return fail(env, fmt.Errorf("%s already exists (use --force to overwrite it)", path))
	}
	if err := writeFileAtomic(path, func(w io.Writer) error { _, err := w.Write(policy.Starter()); return err }); err != nil {
		return fail(env, err)
	}
	fmt.Fprintf(env.Stdout, "wrote %s\n", path)
	return ExitOK
}

// initAgent writes or merges an agent's hook configuration and says what it did.
func initAgent(env *Env, root, name string) int {
	agent, ok := agenthook.Lookup(name)
	if !ok {
		return usageError(env, "init", fmt.Errorf("unknown agent %q (want one of %s)", name, agentList))
	}
	path, did, err := agenthook.Setup(root, agent)
	if err != nil {
		return fail(env, err)
	}
	switch did {
	case "unchanged":
		fmt.Fprintf(env.Stdout, "%s: already runs %q; nothing to do\n", path, agenthook.Command(agent.Name))
	default:
		fmt.Fprintf(env.Stdout, "%s %s: %s runs %q before every file edit\n", did, path, agent.Title, agenthook.Command(agent.Name))
	}
	return ExitOK
}

const explainLong = `Shows the documentation of a rule: what makes it fire, why it matters and how to fix
it. With no RULE, lists every rule with its dimension and default severity.`

func runExplain(ctx context.Context, env *Env, args []string) int {
	fs := newFlags(env, "explain")
	if code, done := parse(fs, env, args); done {
		return code
	}
	dims := agentverify.Dimensions()
	rules := agentverify.Rules(dims)
	if fs.NArg() == 0 {
		ids := make([]string, 0, len(rules))
		for id := range rules {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			fmt.Fprintf(env.Stdout, "%-36s %-8s %s\n", id, rules[id].Default, rules[id].Short)
		}
		return ExitOK
	}
	if fs.NArg() > 1 {
		return usageError(env, "explain", errors.New("explain takes one rule"))
	}
	r := rules[fs.Arg(0)]
	if r == nil {
		msg := fmt.Sprintf("unknown rule %q", fs.Arg(0))
		if s := closestRule(fs.Arg(0), rules); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		}
		fmt.Fprintf(env.Stderr, "agentverify explain: %s; run 'agentverify explain' to list the rules\n", msg)
		return ExitError
	}
	fmt.Fprintf(env.Stdout, "%s (default severity: %s)\n\n%s\n\n%s\n", r.ID, r.Default, r.Short, r.Doc)
	return ExitOK
}

// closestRule suggests a rule for a mistyped ID: the one sharing the longest suffix after
// the dimension, or whose name contains what was typed.
func closestRule(id string, rules map[string]*check.Rule) string {
	_, name, _ := strings.Cut(id, "/")
	if name == "" {
		name = id
	}
	best := ""
	for r := range rules {
		_, rn, _ := strings.Cut(r, "/")
		if strings.Contains(rn, name) || strings.Contains(name, rn) {
			if best == "" || r < best {
				best = r
			}
		}
	}
	return best
}

// buildVersion returns the version and commit the binary was built from: the module
// version when installed with "go install …@vX.Y.Z", else agentverify.Version; the VCS
// revision (with "+dirty" for a modified tree) when built from a checkout, else "unknown".
func buildVersion() (version, commit string) {
	version, commit = agentverify.Version, "unknown"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return version, commit
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		version = strings.TrimPrefix(v, "v")
	}
	dirty := ""
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			commit = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	return version, commit + dirty
}

func runVersion(ctx context.Context, env *Env, args []string) int {
	if len(args) > 0 {
		fs := newFlags(env, "version")
		if code, done := parse(fs, env, args); done {
			return code
		}
	}
	version, commit := buildVersion()
	fmt.Fprintf(env.Stdout, "agentverify %s\ncommit %s\n%s %s/%s\n", version, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return ExitOK
}
