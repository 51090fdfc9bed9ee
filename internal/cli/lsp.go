package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/internal/integrations/lsp"
	"github.com/agentverify/agentverify/report"
)

const lspLong = `Serves the Language Server Protocol on standard input and output: the findings of the
open documents, verified in memory as the editor holds them (unsaved changes included)
against the working tree, with the policy at HEAD, published as diagnostics on open,
change and save. A diagnostic's code is its rule ID; related places are its related
information; a finding with one safe edit (what --fix applies) offers it as a quick fix.
Verifications go to the repository's shared warm server, the one the agent hooks use
(started if need be), or run in this process with its own warm engine.`

func runLSP(ctx context.Context, env *Env, args []string) int {
	fs := newFlags(env, "lsp")
	debounce := fs.Duration("debounce", 200*time.Millisecond, "wait `DURATION` after a change before verifying")
	fs.Bool("stdio", true, "serve on standard input and output (the only transport; editors pass it)")
	noServerFlag(fs)
	if code, done := parse(fs, env, args); done {
		return code
	}
	root, err := rootDir(env.Dir)
	if err != nil {
		return fail(env, err)
	}
	version, _ := buildVersion()
	s := &lsp.Server{Root: root, Debounce: *debounce, Version: version, Verify: lspVerify(env, args)}
	if err := s.Run(ctx, env.Stdin, env.Stdout); err != nil {
		return fail(env, err)
	}
	return ExitOK
}

// lspVerify verifies the editor's documents through the shared warm server ('hook report'
// on it), else in this process with a warm checker kept for the session.
func lspVerify(env *Env, args []string) lsp.Verify {
	checker := env.Checker
	if checker == nil {
		checker = agentverify.NewChecker()
	}
	useServer := env.Server && servable(env.Getenv, append([]string{"hook", "report"}, args...))
	return func(ctx context.Context, dir string, edits []editset.Edit) (*report.Report, error) {
		if useServer {
			if rep, ok := reportViaServer(ctx, env, dir, edits); ok {
				return rep, nil
			}
		}
		return checker.Check(ctx, agentverify.Request{Dir: dir, Source: agentverify.Edits, Edits: edits, GitEnv: gitchange.GitVars(env.Environ())})
	}
}

// reportViaServer asks the shared server for the report of edits; ok is false when it
// gave none (the caller then verifies in its own process).
func reportViaServer(ctx context.Context, env *Env, dir string, edits []editset.Edit) (*report.Report, bool) {
	payload, err := json.Marshal(editsPayload{Cwd: dir, Edits: toPayload(edits)})
	if err != nil {
		return nil, false
	}
	var out, errb bytes.Buffer
	sub := *env
	sub.Stdin, sub.Stdout, sub.Stderr, sub.Dir = bytes.NewReader(payload), &out, &errb, dir
	code, ok := viaServer(ctx, &sub, []string{"hook", "report"})
	if !ok || code == ExitError {
		return nil, false
	}
	var rep report.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return nil, false
	}
	rep.Root = dir
	if r, err := rootDir(dir); err == nil {
		rep.Root = r
	}
	return &rep, true
}

// editsPayload is the input of the hidden 'hook report': proposed files, as the LSP holds
// them, verified against the working tree of cwd's repository.
type editsPayload struct {
	Cwd   string        `json:"cwd"`
	Edits []editPayload `json:"edits"`
}

type editPayload struct {
	Path    string `json:"path"`
	Content string `json:"content"`
	Delete  bool   `json:"delete,omitempty"`
}

func toPayload(edits []editset.Edit) []editPayload {
	out := make([]editPayload, len(edits))
	for i, e := range edits {
		out[i] = editPayload{Path: e.Path, Content: string(e.Content), Delete: e.Delete}
	}
	return out
}

// runReportHook is 'hook report': it verifies the edits of an editsPayload on standard
// input and prints the JSON report (exit 0 passed or warnings, 1 failed, 2 not verified).
func runReportHook(ctx context.Context, env *Env, policyFile string) int {
	data, err := io.ReadAll(io.LimitReader(env.Stdin, 256<<20))
	if err != nil {
		return fail(env, err)
	}
	var p editsPayload
	if err := json.Unmarshal(data, &p); err != nil {
		return fail(env, fmt.Errorf("hook report: %w", err))
	}
	edits := make([]editset.Edit, len(p.Edits))
	for i, e := range p.Edits {
		edits[i] = editset.Edit{Path: e.Path, Content: []byte(e.Content), Delete: e.Delete}
	}
	if p.Cwd == "" {
		p.Cwd = env.Dir
	}
	req := agentverify.Request{Dir: p.Cwd, Source: agentverify.Edits, Edits: edits, GitEnv: gitchange.GitVars(env.Environ())}
	if policyFile != "" {
		req.PolicyFile = abs(env, policyFile)
	}
	checker := env.Checker
	if checker == nil {
		checker = agentverify.NewChecker()
	}
	rep, err := checker.Check(ctx, req)
	if err != nil {
		return fail(env, err)
	}
	if err := report.Write(env.Stdout, "json", rep, report.TextOptions{}); err != nil {
		return fail(env, err)
	}
	return exitCode(rep)
}
