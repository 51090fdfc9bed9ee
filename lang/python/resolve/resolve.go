package resolve

import (
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// step is one analysis of the resolver. Resolve runs the frontend's steps in order over
// the same job and reports what they all find (design.md §4): the syntax errors, pyright's
// diagnostics, what agentverify checks beyond pyright. The dependency checks
// (DepChecker) run first and on their own: a change may touch only a requirements file.
type step func(*job) ([]lang.Problem, error)

// defaultSteps are the resolver's analyses, in order.
func defaultSteps() []step {
	return []step{syntaxStep, pyrightStep, tooNewStep, kwfwdStep, kwargsStep, uncheckedStep, deprecatedStep}
}

// job is one resolution: the Python files of the change and what the steps share.
type job struct {
	fe      Resolver
	req     *lang.Request
	targets []*target
	// all are every changed file, targets included: the syntax step reports on each.
	all []*target
	// tool, stdlib and project are found on first use.
	tool    *pyright.Tool
	stdlib  *pyright.Stdlib
	project *pyright.Project
	// members caches the public names of modules for suggestions; path the
	// interpreter's sys.path, once asked.
	members map[string][]string
	path    *[]string
	pathErr error // why the interpreter did not tell its sys.path
	// projClasses indexes the project's classes for the mixin check, once asked.
	projClasses projectClasses
	// decls are what modules' stubs and sources declare (moduledecls.go), once asked.
	decls map[string]*modDecl
	// pyRange is the Python versions requires-python admits (deprecated.go), once asked;
	// depCands the names each module may declare deprecated.
	pyRange  *pyRange
	depCands map[string]map[string]bool
	dyn      // what the checks beyond pyright's view of modules read (nscollect.go)
}

// target is one changed Python file, as the head of the change has it.
type target struct {
	f    *change.File
	src  []byte
	lf   *lang.File
	tree *syntax.Node // nil when the grammar is unavailable
	// broken is set when the file has syntax errors: only they are reported for it.
	broken bool
	idx    *fileIndex
}

// Resolve reports every reference of the change's Python files that does not resolve
// (lang.Resolver): the syntax errors tree-sitter finds, pyright's errors that mean a
// reference to something that does not exist (design.md §5), and what pyright misses:
// APIs newer than requires-python and keywords a function forwards through **kwargs.
func (fe Resolver) Resolve(req *lang.Request) ([]lang.Problem, error) {
	j := newJob(fe, req)
	if err := j.collect(); err != nil {
		return nil, err
	}
	// The dependency checks (which may run the interpreter) go on while pyright checks
	// the files: a cold verification waits for the slower of the two, not their sum.
	deps := make(chan depResult, 1)
	go func() {
		var r depResult
		defer func() { deps <- r }()
		defer crash.Recover(&r.err)
		if fe.deps != nil {
			r.ps, r.err = fe.deps.Problems(req)
		}
	}()
	if req.FirstError {
		return j.firstError(deps)
	}
	out, err := j.run()
	return j.finish(out, err, <-deps)
}

func newJob(fe Resolver, req *lang.Request) *job {
	return &job{fe: fe, req: req, members: map[string][]string{}, dyn: newDyn()}
}

// finish merges the steps' problems with the dependency checks' and drops what the code
// guards or pyright gets wrong.
func (j *job) finish(out []lang.Problem, err error, d depResult) ([]lang.Problem, error) {
	if d.err != nil {
		return nil, d.err // reported first, as when the checks ran first
	}
	if err != nil {
		return nil, err
	}
	out = append(d.ps, out...)
	if len(j.all) > 0 {
		out = j.dropGuarded(mergeDeprecated(dedupe(out)))
	}
	lang.SortProblems(out)
	return out, nil
}

// depResult is what the dependency checks found.
type depResult struct {
	ps  []lang.Problem
	err error
}

// run runs the frontend's steps in order over the job's files.
func (j *job) run() ([]lang.Problem, error) {
	if len(j.targets) == 0 {
		return nil, nil
	}
	j.all = j.targets
	j.leftOut() // the steps check only what the project type-checks (included.go)
	var out []lang.Problem
	for _, s := range j.fe.steps {
		if err := j.req.Context.Err(); err != nil {
			return nil, err
		}
		ps, err := s(j)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	if j.pathErr != nil {
		return nil, j.pathErr // the steps judged installed modules without them
	}
	return out, nil
}

// collect gathers the changed Python files the request is about.
func (j *job) collect() error {
	for _, f := range j.req.Changes.Files {
		if !f.Analyzable() || !j.fe.Match(f.Path) {
			continue
		}
		if j.req.Focus != nil && !j.req.Focus[f.Path] {
			continue
		}
		t := &target{f: f, src: f.Head}
		lf, err := j.parse(f)
		if err != nil {
			return err
		}
		t.lf = lf
		t.broken = len(lf.SyntaxErrors) > 0
		if tree, err := j.fe.parse(f.Head); err == nil {
			t.tree = tree
			t.idx = indexFile(tree, f.Head)
		}
		j.targets = append(j.targets, t)
	}
	return nil
}

func (j *job) parse(f *change.File) (*lang.File, error) {
	if j.req.Parse != nil {
		lf, err := j.req.Parse(f, change.Head)
		if err == nil && lf != nil {
			return lf, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return j.fe.parseFile(f.Path, f.Head)
}

// pyright returns the pyright installation; not finding one is an error, never a pass.
func (j *job) pyright() (*pyright.Tool, error) {
	if j.tool == nil {
		t, err := pyright.Find(j.req.Changes.Root)
		if err != nil {
			return nil, &lang.SetupError{Err: err}
		}
		j.tool = t
	}
	return j.tool, nil
}

// stdlibIndex returns typeshed's record of the standard library.
func (j *job) stdlibIndex() (*pyright.Stdlib, error) {
	if j.stdlib == nil {
		t, err := j.pyright()
		if err != nil {
			return nil, err
		}
		if j.stdlib, err = t.Stdlib(); err != nil {
			return nil, err
		}
	}
	return j.stdlib, nil
}

// projectConfig returns what the project's pyproject.toml and pyrightconfig.json say.
func (j *job) projectConfig() (pyright.Project, error) {
	if j.project == nil {
		p, err := pyright.ReadProject(j.headFS())
		if err != nil {
			return p, err
		}
		j.project = &p
	}
	return *j.project, nil
}

// headFS is the head tree (the disk at the root when the change does not give one).
func (j *job) headFS() fs.FS {
	if h := j.req.Changes.HeadFS; h != nil {
		return h
	}
	if j.req.Changes.Root == "" {
		return nil
	}
	return os.DirFS(j.req.Changes.Root)
}

// syntaxStep reports the syntax errors of the files (the resolver reports them itself,
// lang.Resolver).
func syntaxStep(j *job) ([]lang.Problem, error) {
	var out []lang.Problem
	for _, t := range j.all {
		for _, e := range t.lf.SyntaxErrors {
			out = append(out, lang.Problem{
				Kind:     lang.SyntaxErrorKind,
				Location: lang.Location{File: t.f.Path, Line: e.Pos.Line, Column: e.Pos.Column},
				Message:  e.Message,
			})
		}
	}
	return out, nil
}

// dedupe keeps one problem per place and symbol: an api-too-new wins over pyright's
// unknown name at the same place (the name exists, in a newer Python), and a dependency
// problem (unknown-package, undeclared- or missing-dependency) over pyright's unknown
// import on its line (it says more: what is wrong with the distribution).
func dedupe(ps []lang.Problem) []lang.Problem {
	tooNew, deps := map[place]bool{}, map[place]bool{}
	for _, p := range ps {
		switch p.Kind {
		case lang.APITooNew:
			tooNew[placeOf(p, syntax.LastName(p.Symbol))] = true
		case lang.UnknownPackage, lang.UndeclaredDependency, lang.MissingDependency:
			deps[placeOf(p, "")] = true
		}
	}
	hints := importHints(ps, deps)
	seen := map[string]bool{}
	var out []lang.Problem
	for _, p := range ps {
		k := placeOf(p, "")
		if p.Kind != lang.APITooNew && tooNew[placeOf(p, syntax.LastName(p.Symbol))] ||
			p.Kind == lang.UnknownImport && deps[k] {
			continue
		}
		if h := hints[k]; h != "" && p.Kind == lang.UnknownPackage {
			p.Suggestion = h + "; " + p.Suggestion
		}
		key := fmt.Sprintf("%s:%d:%d:%s:%s", p.Location.File, p.Location.Line, p.Location.Column, p.Kind, p.Message)
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	return out
}

// place is a line of a file, and a name on it when that matters.
type place struct {
	file string
	line int
	name string
}

func placeOf(p lang.Problem, name string) place { return place{p.Location.File, p.Location.Line, name} }

// importHints returns the did-you-mean of each unknown import that the dependency check
// also reported, by line: the dependency problem replaces it and keeps that hint ("jsno"
// is a made-up package and a typo of json).
func importHints(ps []lang.Problem, deps map[place]bool) map[place]string {
	hints := map[place]string{}
	for _, p := range ps {
		if k := placeOf(p, ""); p.Kind == lang.UnknownImport && deps[k] && strings.HasPrefix(p.Suggestion, "did you mean") {
			hints[k] = p.Suggestion
		}
	}
	return hints
}

// dropGuarded drops the unknown imports that the code guards itself: inside a try whose
// handler catches ImportError (an optional dependency), or a branch on sys.version_info
// or sys.platform (an import for another Python). What the guarded import names is the
// dependency checks' business. Then the false alarms of pyrightidioms.go.
func (j *job) dropGuarded(ps []lang.Problem) []lang.Problem {
	byPath := map[string]*target{}
	for _, t := range j.targets {
		byPath[t.f.Path] = t
	}
	out := ps[:0]
	for _, p := range ps {
		t := byPath[p.Location.File]
		if (p.Kind == lang.UnknownImport || p.Kind == lang.UnknownSymbol && p.Fix == nil && isImportLine(t, p.Location.Line)) &&
			t != nil && t.idx != nil && t.idx.guarded(p.Location.Line) {
			continue
		}
		out = append(out, p)
	}
	return j.dropFalseAlarms(out)
}

func isImportLine(t *target, line int) bool {
	return t != nil && t.idx != nil && t.idx.importLines[line]
}
