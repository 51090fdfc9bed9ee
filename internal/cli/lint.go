package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/report"
)

const lintLong = `Runs as the lint command of agents that lint after every edit — aider (--lint-cmd
"agentverify lint"), SWE-agent — and of anything that reads compiler-style lines. It
verifies the working tree against HEAD, as 'agentverify diff' does, so only what the
uncommitted change introduced is reported, one finding a line:

  FILE:LINE:COL: RULE message (suggestion)

with FILE relative to the current directory. The FILE arguments the agent passes (the
files it just edited) are accepted; the whole change is verified, since an edit can break
a caller elsewhere. Exit status: 0 when nothing is wrong (warnings are printed), 1 when
the change has errors, 2 when it could not be verified, with one line saying why.`

func runLint(ctx context.Context, env *Env, args []string) int {
	fs := newFlags(env, "lint")
	policyFile := fs.String("policy", "", "policy `FILE` (default: the repository's .agentverify.yaml at HEAD)")
	if code, done := parse(fs, env, args); done {
		return code
	}
	req := agentverify.Request{Dir: env.Dir, Source: agentverify.WorkingTree, GitEnv: gitchange.GitVars(env.Environ())}
	if *policyFile != "" {
		req.PolicyFile = abs(env, *policyFile)
	}
	checker := env.Checker
	if checker == nil {
		checker = &agentverify.Checker{}
	}
	rep, err := checker.Check(ctx, req)
	if err != nil {
		return fail(env, err)
	}
	for _, v := range rep.Violations {
		fmt.Fprintln(env.Stdout, lintLine(env.Dir, rep.Root, v))
	}
	switch rep.Status {
	case report.Passed, report.Warnings:
		return ExitOK
	case report.Failed:
		return ExitFailed
	}
	fmt.Fprintf(env.Stderr, "agentverify: the change could not be verified (status %q)\n", rep.Status)
	return ExitError
}

// lintLine is one finding as a compiler prints it: FILE:LINE:COL: RULE message.
func lintLine(dir, root string, v report.Violation) string {
	file := v.Location.File
	if root != "" {
		if d, err := filepath.Abs(dir); err == nil {
			if rel, err := filepath.Rel(d, filepath.Join(root, filepath.FromSlash(file))); err == nil {
				file = rel
			}
		}
	}
	col := max(v.Location.Column, 1)
	line := max(v.Location.Line, 1)
	msg := strings.Join(strings.Fields(v.Message), " ")
	if v.Suggestion != "" {
		msg += " (" + strings.Join(strings.Fields(v.Suggestion), " ") + ")"
	}
	return fmt.Sprintf("%s:%d:%d: %s %s", strings.Map(noControl, file), line, col, v.Rule, msg)
}

// noControl keeps a file name on one line.
func noControl(r rune) rune {
	if r < ' ' || r == 0x7f {
		return '?'
	}
	return r
}
