package resolve

import (
	"errors"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/npm"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
	"github.com/agentverify/agentverify/lang/typescript/tsc"
)

// Resolver checks a change's TypeScript and JavaScript files.
type Resolver struct {
	// Match tells the frontend's files.
	Match func(path string) bool
	// Servers, when set, keeps TypeScript 7 language servers running between
	// verifications (a long-lived process); nil runs the compiler in batch mode.
	Servers *tsc.Servers
	// Registry, when set, is the npm registry to ask (kept by a long-lived process);
	// nil asks the one the user's npm is configured for, anew each verification.
	Registry *npm.Registry
	// WholeProject checks every file of a changed project in diff mode, even when the
	// change cannot reach the others (narrow.go): the yardstick of the narrowed check.
	WholeProject bool
}

// target is one changed file to check.
type target struct {
	f   *change.File
	src []byte
	// broken is set when tree-sitter found syntax errors in it.
	broken bool
	// tree is its syntax tree, once a step parsed it.
	tree *syntax.Tree
}

// job is one verification's state.
type job struct {
	r       Resolver
	req     *lang.Request
	targets []*target
	// reported holds, by file, the module specifiers the package checks reported, so
	// that the compiler's "cannot find module" on the same import is not said twice.
	reported map[string]map[string]bool
	// pkgs reads package.json files, node_modules and the registry (packages.go).
	pkgs *deps
}

// handled records that the import of spec in file has been reported.
func (j *job) handled(file, spec string) {
	if j.reported == nil {
		j.reported = map[string]map[string]bool{}
	}
	if j.reported[file] == nil {
		j.reported[file] = map[string]bool{}
	}
	j.reported[file][spec] = true
}

// step is one analysis of the resolver.
type step func(j *job) ([]lang.Problem, error)

// Resolve reports the problems of the change's files (lang.Resolver).
func (r Resolver) Resolve(req *lang.Request) ([]lang.Problem, error) {
	j := &job{r: r, req: req}
	var out []lang.Problem
	for _, f := range req.Changes.Files {
		if !f.Analyzable() || !r.Match(f.Path) || f.Head == nil {
			continue
		}
		t := &target{f: f, src: f.Head}
		j.targets = append(j.targets, t)
		lf, err := req.Parse(f, change.Head)
		if err != nil {
			return nil, err
		}
		if lf == nil {
			continue
		}
		t.tree, _ = lf.Syntax.(*syntax.Tree)
		for _, e := range lf.SyntaxErrors {
			t.broken = true
			out = append(out, lang.Problem{Kind: lang.SyntaxErrorKind, Location: lang.Location{File: f.Path, Line: e.Pos.Line, Column: e.Pos.Column},
				Message: e.Message, Symbol: e.Message})
		}
	}
	// The compiler runs while the package checks read manifests and ask the registry;
	// what they reported is then taken out of its findings (tscStep's afterwards).
	type result struct {
		ps  []lang.Problem
		err error
	}
	compiled := make(chan result, 1)
	j.deps() // made before the compiler's goroutine reads it (ambient.go)
	go func() {
		var r result
		defer func() { compiled <- r }()
		defer crash.Recover(&r.err)
		r.ps, r.err = tscStep(j)
	}()
	var errs []error
	for _, s := range []step{packagesStep, untypedStep, nodeStep} {
		ps, err := s(j)
		errs = append(errs, err)
		out = append(out, ps...)
	}
	res := <-compiled
	if err := errors.Join(append(errs, res.err)...); err != nil {
		return nil, firstSetup(err, res.err)
	}
	out = append(out, j.afterPackages(res.ps)...)
	out = j.focus(out)
	lang.SortProblems(out)
	return out, nil
}

// focus keeps the problems of the files a base-view pass is about.
func (j *job) focus(ps []lang.Problem) []lang.Problem {
	if j.req.Focus == nil {
		return ps
	}
	var out []lang.Problem
	for _, p := range ps {
		if j.req.Focus[p.Location.File] {
			out = append(out, p)
		}
	}
	return out
}

// needsCompiler reports whether the file at p is one the compiler checks: TypeScript,
// and JavaScript in a project that checks it (decided per project, see tscStep).
func needsCompiler(p string) bool { return !syntax.IsJS(p) }

// firstSetup returns the compiler's SetupError when there is one (it decides the exit
// code), else err.
func firstSetup(err, compiler error) error {
	var se *lang.SetupError
	if errors.As(compiler, &se) {
		return se
	}
	return err
}

// afterPackages drops the compiler's "cannot find module" on the imports the package
// checks reported.
func (j *job) afterPackages(ps []lang.Problem) []lang.Problem {
	out := ps[:0]
	for _, p := range ps {
		if p.Kind == lang.UnknownImport && j.reported[p.Location.File][p.Symbol] {
			continue
		}
		out = append(out, p)
	}
	return out
}
