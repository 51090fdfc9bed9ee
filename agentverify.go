// Package agentverify is the one entry point of the verification gate: Check takes a
// request (which change, which policy) and reads top-down as change set and trusted
// policy (trust.Build) → engine (engine, engine/cacheplan) → report (report). The CLI,
// the hooks, the MCP server and the agent runner all call it; there is no second code
// path.
package agentverify

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/change/source"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/engine"
	"github.com/agentverify/agentverify/engine/cacheplan"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp"
	"github.com/agentverify/agentverify/policy"
	"github.com/agentverify/agentverify/report"
	"github.com/agentverify/agentverify/resultcache"
	"github.com/agentverify/agentverify/trust"
)

// Version is agentverify's version.
const Version = "0.1.0"

// InformationURI is where the rules are documented (SARIF tool.driver.informationUri).
const InformationURI = "https://github.com/agentverify/agentverify"

// Source says which change a request verifies (design.md §3).
type Source = source.Kind

// Change sources (design.md §3).
const (
	WorkingTree = source.WorkingTree // Base (default HEAD) vs the working tree, untracked files included
	Staged      = source.Staged      // the index vs HEAD, what a pre-commit hook sees
	Patch       = source.Patch       // a unified diff applied to HEAD
	Paths       = source.Paths       // files as they are, no base (agentverify check)
	Edits       = source.Edits       // proposed in-memory edits over the working tree
)

// Request is one verification.
type Request struct {
	// Dir is where the repository (or the files to check) is found; default ".".
	Dir    string
	Source Source
	// Base is the base revision for WorkingTree (default HEAD; a branch means its
	// merge-base with HEAD).
	Base string
	// Patch and PatchName give the diff for the Patch source.
	Patch     io.Reader
	PatchName string
	// Paths are the files or directories for the Paths source (default Dir).
	Paths []string
	// Edits are the proposed files for the Edits source.
	Edits []editset.Edit
	// GitEnv holds the caller's git variables as KEY=VALUE (gitchange.GitVars of its
	// environment): GIT_INDEX_FILE is the index git hands a pre-commit hook ('git commit
	// -a' and 'git commit PATH' commit a temporary one), GIT_DIR and GIT_WORK_TREE say
	// where the repository is, GIT_CONFIG_PARAMETERS carries 'git -c'. nil means this
	// process's environment; a server verifying for a client passes the client's.
	GitEnv []string

	// PolicyFile overrides the policy found at the repository root. Policy, when set, is
	// used as is (callers that loaded it already). Without either, every source but Paths
	// reads the policy from the base commit's git objects (HEAD for Staged, Patch and
	// Edits), never from the disk; a PolicyFile inside the repository is likewise read as
	// committed at the base when the base has it.
	PolicyFile string
	Policy     *policy.Policy
	// AllowPolicyChange puts the change's own policy in force and does not report
	// scope/policy-changed: a human who means to change the policy says so
	// (--allow-policy-change). Never set it on behalf of an agent.
	AllowPolicyChange bool
	// TrustedPolicy makes the Paths source (check mode) read the policy from HEAD instead
	// of the working tree, for agent-facing callers; the other sources always do.
	TrustedPolicy bool
	// All reports pre-existing findings in the changed files too (--all).
	All bool
	// Task describes what the change was for; it is shown in reports.
	Task string
	// FirstError is set by the callers that act on the first error (agent hooks, the
	// agent runner's gate): a frontend may answer from its own checks when they already
	// find an error the change introduced, without waiting for its oracle
	// (lang.Request.FirstError). diff, check, lint and the MCP tools report every finding.
	FirstError bool
}

// ErrUsage marks errors in the request itself (bad flags, missing inputs).
var ErrUsage = source.ErrUsage

// Checker runs verifications. A long-lived Checker (MCP server, agent runner) keeps what
// its dimensions cache warm between calls. It is safe for concurrent use.
type Checker struct {
	// Dimensions run in this order in reports; default Dimensions().
	Dimensions []*check.Dimension
	// Languages are the frontends; default Languages().
	Languages lang.Registry
	// Timeout bounds each dimension; 0 means the policy's limits.dimension_timeout.
	Timeout time.Duration
	// Now measures durations; default time.Now (tests pin it for byte-identical output).
	Now func() time.Time
	// Cache, when set, replays in check mode the findings of the directories whose
	// inputs are unchanged since a run stored them (engine/cacheplan, design.md §9).
	Cache *resultcache.Cache
	// Fresh makes every verification compute everything afresh (--no-cache): no
	// frontend starts from or keeps a record of earlier runs (lang.Request.Fresh).
	Fresh bool
	// Trees, when set, keeps the file listings of the base commits' trees between
	// verifications (a long-lived process: the shared server, an MCP session); nil reads
	// them each time. A tree is named by its content's hash: a kept listing is never stale.
	Trees *gitchange.Trees
}

// DefaultTimeout bounds one dimension's run when the policy does not say otherwise.
const DefaultTimeout = 5 * time.Minute

// Dims returns the dimensions the checker runs.
func (c *Checker) Dims() []*check.Dimension {
	if c.Dimensions != nil {
		return c.Dimensions
	}
	return Dimensions()
}

// Check runs one verification with a fresh Checker.
func Check(ctx context.Context, req Request) (*report.Report, error) {
	return (&Checker{}).Check(ctx, req)
}

// Check builds the change set of req, runs the dimensions and returns the report. An
// error means the verification could not start (usage, policy, repository); the front
// doors turn it into the same document as any other unverified run (ErrorReport). A
// dimension that could not complete — a tool or module missing here (lang.SetupError),
// a crash, a time-out — is in the report: its `<dimension>/internal-error` violation
// beside the other dimensions' findings, status report.Errored and the reason in
// Report.Error. Either way the gate fails closed (exit 2). A panic outside the
// dimensions is an error too, never a crash of the caller.
func (c *Checker) Check(ctx context.Context, req Request) (rep *report.Report, err error) {
	defer func() {
		if err != nil {
			rep = nil
		}
	}()
	defer crash.Recover(&err)
	return c.check(ctx, req)
}

// check is Check without the recover: change set, trusted policy, engine, report.
func (c *Checker) check(ctx context.Context, req Request) (*report.Report, error) {
	now := c.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	spec := source.Spec{Dir: req.Dir, Kind: req.Source, Base: req.Base, Patch: req.Patch, PatchName: req.PatchName,
		Paths: req.Paths, Edits: req.Edits, GitEnv: req.GitEnv}
	if !c.Fresh {
		spec.Trees = c.Trees
	}
	set, pol, tr, err := trust.Build(ctx, spec, trust.Request{Kind: req.Source, GitEnv: req.GitEnv, PolicyFile: req.PolicyFile,
		Policy: req.Policy, AllowPolicyChange: req.AllowPolicyChange, TrustedPolicy: req.TrustedPolicy})
	if err != nil {
		return nil, err
	}
	dims, rules := c.Dims(), Rules(c.Dims())
	if err := pol.ValidateRules(func(id string) bool { return rules[id] != nil }); err != nil {
		return nil, err
	}
	pass := c.pass(ctx, req, set, pol, tr)
	outcomes := c.run(ctx, pass, dims)
	outcomes = engine.ConfirmAtBase(ctx, pass, dims, outcomes, c.options(pol), rules)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("verification interrupted: %w", err)
	}
	violations, results := engine.Process(pass, outcomes, rules)
	rep := report.New(tool(), pol.Name, req.Task, set, violations, results, engine.RuleList(dims))
	if rep.Status == report.Errored {
		rep.Error = engine.RelativePaths(set.Root, engine.UnverifiedReason(outcomes))
	}
	rep.Root, rep.Source = set.Root, report.ChangeSource(set)
	rep.DurationMS = now().Sub(start).Milliseconds()
	return rep, nil
}

// pass is what the dimensions see of one verification.
func (c *Checker) pass(ctx context.Context, req Request, set *change.Set, pol *policy.Policy, tr *check.Trust) *check.Pass {
	langs := c.Languages
	if langs == nil {
		langs = Languages()
	}
	langs = commonlisp.WithFeatures(langs, pol.Languages.CommonLisp.Features)
	polPath := policy.DefaultFile
	if tr != nil && tr.PolicyFile != "" {
		polPath = tr.PolicyFile
	}
	mode := check.Diff
	switch {
	case set.NoBase:
		mode = check.Check
	case req.All:
		mode = check.All
	}
	return &check.Pass{Context: ctx, Changes: set, Policy: pol, PolicyPath: polPath, Trust: tr, Mode: mode,
		Languages: langs, Files: check.NewFiles(langs), Memo: check.NewMemo(), Fresh: c.Fresh, FirstError: req.FirstError}
}

// run runs the dimensions, over the result cache in check mode when the checker has one.
func (c *Checker) run(ctx context.Context, pass *check.Pass, dims []*check.Dimension) []engine.Outcome {
	if c.Cache != nil && pass.Mode == check.Check {
		return cacheplan.Run(ctx, c.Cache, Version, pass, dims, c.options(pass.Policy))
	}
	return engine.Run(ctx, pass, dims, c.options(pass.Policy))
}

// options bound each dimension's run: the checker's timeout, else the policy's.
func (c *Checker) options(pol *policy.Policy) engine.Options {
	if c.Timeout != 0 {
		return engine.Options{Timeout: c.Timeout}
	}
	return engine.Options{Timeout: pol.Limits.Timeout()}
}

// ErrorReport is the report of a verification that could not start (err from Check, or
// a bad request a front door refused): status report.Errored, the reason, no dimension
// results. Front doors write it in every format, so a pipeline reading JSON, SARIF or
// JUnit after a failed run finds why instead of an empty file.
func ErrorReport(err error) *report.Report {
	return &report.Report{
		SchemaVersion: report.SchemaVersion,
		Tool:          tool(),
		Status:        report.Errored,
		Error:         strings.Join(strings.Fields(strings.TrimPrefix(err.Error(), ErrUsage.Error()+": ")), " "),
		Rules:         engine.RuleList(Dimensions()),
	}
}

func tool() report.Tool {
	return report.Tool{Name: "agentverify", Version: Version, InformationURI: InformationURI}
}

// Rules returns every rule of dims, the synthesised internal-error rules included, by ID.
func Rules(dims []*check.Dimension) map[string]*check.Rule { return engine.Rules(dims) }
