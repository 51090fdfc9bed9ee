// Package agentverify is the one entry point of the verification gate: Check takes a
// request (which change, which policy), builds the change set, runs the five dimensions in
// parallel and returns the canonical report. The CLI, the hooks, the MCP server and the
// agent runner all call it; there is no second code path.
package agentverify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/change/patch"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/engine"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/policy"
	"github.com/agentverify/agentverify/report"
	"github.com/agentverify/agentverify/resultcache"
)

// Version is agentverify's version.
const Version = "0.1.0"

// InformationURI is where the rules are documented (SARIF tool.driver.informationUri).
const InformationURI = "https://github.com/agentverify/agentverify"

// Source says which change a request verifies.
type Source int

// Change sources (design.md §3).
const (
	WorkingTree Source = iota // Base (default HEAD) vs the working tree, untracked files included
	Staged                    // the index vs HEAD, what a pre-commit hook sees
	Patch                     // a unified diff applied to HEAD
	Paths                     // files as they are, no base (agentverify check)
	Edits                     // proposed in-memory edits over the working tree
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
}

// ErrUsage marks errors in the request itself (bad flags, missing inputs).
var ErrUsage = errors.New("usage")

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
	// inputs are unchanged since a run stored them (resultcache.go, design.md §9).
	Cache *resultcache.Cache
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

// check is Check without the recover.
func (c *Checker) check(ctx context.Context, req Request) (*report.Report, error) {
	now := c.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	dims := c.Dims()
	langs := c.Languages
	if langs == nil {
		langs = Languages()
	}
	dir := req.Dir
	if dir == "" {
		dir = "."
	}
	set, pol, trust, err := changeAndPolicy(ctx, dir, req)
	if err != nil {
		return nil, err
	}
	polPath := policy.DefaultFile
	if trust != nil && trust.PolicyFile != "" {
		polPath = trust.PolicyFile
	}
	langs = configured(langs, pol)
	rules := Rules(dims)
	if err := pol.ValidateRules(func(id string) bool { return rules[id] != nil }); err != nil {
		return nil, err
	}
	mode := check.Diff
	switch {
	case set.NoBase:
		mode = check.Check
	case req.All:
		mode = check.All
	}
	pass := &check.Pass{
		Context:    ctx,
		Changes:    set,
		Policy:     pol,
		PolicyPath: polPath,
		Trust:      trust,
		Mode:       mode,
		Languages:  langs,
		Files:      check.NewFiles(langs),
		Memo:       check.NewMemo(),
	}
	timeout := c.Timeout
	if timeout == 0 {
		timeout = pol.Limits.Timeout()
	}
	opts := engine.Options{Timeout: timeout}
	var outcomes []engine.Outcome
	if c.Cache != nil && mode == check.Check {
		outcomes = runCached(ctx, c.Cache, pass, dims, opts)
	} else {
		outcomes = engine.Run(ctx, pass, dims, opts)
	}
	outcomes = engine.ConfirmAtBase(ctx, pass, dims, outcomes, opts, rules)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("verification interrupted: %w", err)
	}
	violations, results := engine.Process(pass, outcomes, rules)
	rep := newReport(pol.Name, req.Task, set, violations, results, ruleList(dims))
	if rep.Status == report.Errored {
		rep.Error = engine.RelativePaths(set.Root, unverifiedReason(outcomes))
	}
	rep.Root = set.Root
	rep.Source = source(set)
	rep.DurationMS = now().Sub(start).Milliseconds()
	return rep, nil
}

// unverifiedReason is why a run could not verify its change: the first dimension that
// could not complete, in report order. A lang.SetupError is the user's to fix and says
// how (install pyright, download the modules), so it is given as is.
func unverifiedReason(outcomes []engine.Outcome) string {
	for _, o := range outcomes {
		var se *lang.SetupError
		switch {
		case o.Err == nil:
		case errors.As(o.Err, &se):
			return oneLine(se.Error())
		default:
			return "the " + o.Dimension + " dimension could not complete: " + oneLine(o.Err.Error())
		}
	}
	return "a dimension could not complete"
}

// ErrorReport is the report of a verification that could not start (err from Check, or
// a bad request a front door refused): status report.Errored, the reason, no dimension
// results. Front doors write it in every format, so a pipeline reading JSON, SARIF or
// JUnit after a failed run finds why instead of an empty file.
func ErrorReport(err error) *report.Report {
	return &report.Report{
		SchemaVersion: report.SchemaVersion,
		Tool:          report.Tool{Name: "agentverify", Version: Version, InformationURI: InformationURI},
		Status:        report.Errored,
		Error:         oneLine(strings.TrimPrefix(err.Error(), ErrUsage.Error()+": ")),
		Rules:         ruleList(Dimensions()),
	}
}

// source reads the files of a report on either side of set, for the SARIF writer's
// columns: a changed file's content from the set, any other from the side's tree.
func source(set *change.Set) func(path string, base bool) ([]byte, bool) {
	return func(path string, base bool) ([]byte, bool) {
		if data, ok, found := changed(set, path, base); found {
			return data, ok
		}
		fsys := set.HeadFS
		if base {
			fsys = set.BaseFS
		}
		return readSmall(fsys, path)
	}
}

// changed returns the content of path on one side when the change has the file there
// (found), and whether that content is known (not too large).
func changed(set *change.Set, path string, base bool) (data []byte, ok, found bool) {
	f := set.File(path)
	switch {
	case f == nil:
		return nil, false, false
	case !base && f.Path == path && f.Op != change.Delete:
		return f.Head, f.Head != nil && !f.TooLarge, true
	case base && (f.OldPath == path || f.Path == path && f.Op != change.Create):
		return f.Base, f.Base != nil && !f.TooLarge, true
	}
	return nil, false, false
}

// readSmall reads a regular file of fsys no larger than the default size limit.
func readSmall(fsys fs.FS, path string) ([]byte, bool) {
	if fsys == nil || !fs.ValidPath(path) {
		return nil, false
	}
	if fi, err := fs.Stat(fsys, path); err != nil || !fi.Mode().IsRegular() || fi.Size() > change.DefaultMaxFileSize {
		return nil, false
	}
	data, err := fs.ReadFile(fsys, path)
	return data, err == nil
}

// newReport assembles the canonical report of a run.
func newReport(policyName, task string, set *change.Set, violations []report.Violation, results []report.DimensionResult, rules []*check.Rule) *report.Report {
	rep := &report.Report{
		SchemaVersion:    report.SchemaVersion,
		Tool:             report.Tool{Name: "agentverify", Version: Version, InformationURI: InformationURI},
		Policy:           policyName,
		Task:             task,
		Violations:       violations,
		DimensionResults: results,
		Files:            make([]report.FileEntry, 0, len(set.Files)),
		Rules:            rules,
	}
	for _, f := range set.Files {
		e := report.FileEntry{Path: f.Path, Operation: f.Op}
		if f.Op == change.Rename {
			e.OldPath = f.OldPath
		}
		rep.Files = append(rep.Files, e)
	}
	if !set.NoBase {
		rep.Base = set.BaseRev
	}
	rep.Notes = set.Notes
	rep.Status = report.StatusOf(violations)
	rep.Passed = rep.Status.OK()
	ok := func(dim string) bool {
		for _, r := range results {
			if r.Dimension == dim {
				return r.Status.OK()
			}
		}
		return true
	}
	rep.Dimensions = report.Dimensions{
		Scope: ok(policy.Scope), Hallucination: ok(policy.Hallucination), Style: ok(policy.Style),
		Semantics: ok(policy.Semantics), Complexity: ok(policy.Complexity),
	}
	return rep
}

// changeAndPolicy builds the change set of req and decides the policy in force from the
// trusted side (trust.go). The set is built with the default file-size limit, which the
// trusted policy may lower (applied to the set) or raise (the set is built again, which
// only a policy with a larger max_file_size costs): the change cannot pick its own limit.
func changeAndPolicy(ctx context.Context, dir string, req Request) (*change.Set, *policy.Policy, *check.Trust, error) {
	set, err := changeSet(ctx, dir, req, change.DefaultMaxFileSize)
	if err != nil {
		return nil, nil, nil, err
	}
	pol, trust, err := resolvePolicy(set, req)
	if err != nil {
		return nil, nil, nil, err
	}
	pol = guardScope(pol, trust)
	if limit := pol.Limits.FileSize(); limit > change.DefaultMaxFileSize && req.Source != Patch { // a patch is read once, and whole
		if set, err = changeSet(ctx, dir, req, limit); err != nil {
			return nil, nil, nil, err
		}
	}
	set.Limit(pol.Limits.FileSize())
	return set, pol, trust, nil
}

// changeSet builds the change of req; files over limit bytes are not loaded.
func changeSet(ctx context.Context, dir string, req Request, limit int64) (*change.Set, error) {
	switch req.Source {
	case WorkingTree, Staged, Patch:
		if err := checkBase(req.Base); err != nil {
			return nil, err
		}
		repo, err := gitchange.OpenEnv(dir, req.GitEnv)
		if err != nil {
			return nil, err
		}
		repo.MaxFileSize = limit
		return repoChangeSet(ctx, repo, req, limit)
	case Paths:
		paths := req.Paths
		if len(paths) == 0 {
			paths = []string{dir}
		}
		return gitchange.PathsLimit(ctx, dir, paths, limit)
	case Edits:
		root := dir
		if repo, err := gitchange.OpenEnv(dir, req.GitEnv); err == nil {
			root = repo.Root()
		}
		return editset.BuildLimit(root, req.Edits, limit)
	}
	return nil, fmt.Errorf("%w: unknown change source %d", ErrUsage, req.Source)
}

// reflogSuffix matches a reflog selector (main@{2}, @{yesterday}, HEAD@{2024-01-02 10:00}),
// which may hold a colon that is not a tree path's.
var reflogSuffix = regexp.MustCompile(`@\{[^}]*\}`)

// peel matches a peeling suffix: ^{commit}, ^{} and ^{/message} name commits, ^{tree},
// ^{blob} and ^{tag} do not.
var peel = regexp.MustCompile(`\^\{([^}]*)\}`)

// checkBase refuses a base revision that names something other than a commit — a file
// in a tree (HEAD:go.mod, :0:path), a tree (HEAD^{tree}) — which go-git would resolve to
// the commit before it and so verify against the wrong base.
func checkBase(rev string) error {
	plain := reflogSuffix.ReplaceAllString(rev, "")
	if strings.Contains(plain, ":") {
		return fmt.Errorf("%w: base %q names a file in a tree or the index, not a commit", ErrUsage, rev)
	}
	for _, m := range peel.FindAllStringSubmatch(plain, -1) {
		if kind := m[1]; kind != "" && kind != "commit" && !strings.HasPrefix(kind, "/") {
			return fmt.Errorf("%w: base %q names a %s, not a commit", ErrUsage, rev, kind)
		}
	}
	return nil
}

// repoChangeSet builds the change of a source that needs a repository.
func repoChangeSet(ctx context.Context, repo *gitchange.Repo, req Request, limit int64) (*change.Set, error) {
	switch req.Source {
	case Staged:
		return repo.Staged(ctx)
	case Patch:
		if req.Patch == nil {
			return nil, fmt.Errorf("%w: no patch given", ErrUsage)
		}
		base, err := repo.HeadFS()
		if err != nil {
			return nil, err
		}
		// The patch is in memory whole; changeAndPolicy applies the policy's limit to it.
		return patch.Load(ctx, repo.Root(), base, req.Patch, req.PatchName)
	}
	return repo.WorkingTree(ctx, req.Base)
}

// loadPolicy returns the policy found on the disk (check mode, or no repository) and its
// repository-relative path.
func loadPolicy(root string, req Request) (*policy.Policy, string, error) {
	if req.Policy != nil {
		return req.Policy, policy.DefaultFile, nil
	}
	if req.PolicyFile != "" {
		p, err := policy.Load(req.PolicyFile)
		if err != nil {
			return nil, "", err
		}
		abs, _ := filepath.Abs(req.PolicyFile)
		if rel, err := filepath.Rel(root, abs); err == nil && filepath.IsLocal(rel) {
			return p, filepath.ToSlash(rel), nil
		}
		return p, policy.DefaultFile, nil
	}
	path, found, err := policy.Find(root)
	if err != nil {
		return nil, "", err
	}
	if !found {
		return policy.Default(), policy.DefaultFile, nil
	}
	p, err := policy.Load(path)
	if err != nil {
		return nil, "", err
	}
	rel, _ := filepath.Rel(root, path)
	return p, filepath.ToSlash(rel), nil
}

// Rules returns every rule of dims, the synthesised internal-error rules included, by ID.
func Rules(dims []*check.Dimension) map[string]*check.Rule {
	m := map[string]*check.Rule{}
	for _, r := range ruleList(dims) {
		m[r.ID] = r
	}
	return m
}

func ruleList(dims []*check.Dimension) []*check.Rule {
	var out []*check.Rule
	for _, d := range dims {
		out = append(out, d.Rules...)
		out = append(out, engine.InternalErrorRule(d.Name))
	}
	return out
}
