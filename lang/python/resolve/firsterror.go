package resolve

import (
	"context"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
	"github.com/agentverify/agentverify/policy"
)

// An agent's hook acts on the first error (lang.Request.FirstError): a made-up package
// or a file that does not parse needs no type inference, and pyright costs a second or
// more per check. So the steps (pyright's among them) start as usual, beside the
// dependency checks; when those finish, if our own checks — the syntax errors and the
// dependency checks — already hold an error the change introduced, the answer is their
// introduced findings, and pyright's run is cancelled, not waited for. Otherwise the
// answer is the full one, as if FirstError were unset.

// ownErrorKinds are the kinds our own checks report whose rules are errors by default
// (dimensions/hallucination): a finding of one of them, at error severity in the
// policy in force, fails the verification whatever pyright would add.
var ownErrorKinds = map[lang.Kind]bool{
	lang.SyntaxErrorKind: true, lang.UnknownPackage: true, lang.UndeclaredDependency: true,
}

// ranResult is what the steps found.
type ranResult struct {
	ps  []lang.Problem
	err error
}

// firstError is Resolve for a caller that acts on the first error.
func (j *job) firstError(deps <-chan depResult) ([]lang.Problem, error) {
	ctx, cancel := context.WithCancel(j.req.Context)
	defer cancel() // an early answer stops pyright's run
	bg := *j.req
	bg.Context = ctx
	full := newJob(j.fe, &bg)
	full.targets = j.targets
	ran := make(chan ranResult, 1)
	go func() {
		var r ranResult
		defer func() { ran <- r }()
		defer crash.Recover(&r.err)
		r.ps, r.err = full.run()
	}()
	var d depResult
	select {
	case r := <-ran: // nothing for pyright, or it was faster
		return full.finish(r.ps, r.err, <-deps)
	case d = <-deps:
	}
	if d.err == nil {
		if own, ok := j.ownErrors(d.ps); ok {
			return own, nil
		}
	}
	r := <-ran
	return full.finish(r.ps, r.err, d)
}

// ownErrors returns the findings of our own checks (the files' syntax errors, the
// dependency checks' dps) that the change introduced, processed as the full answer
// processes them, when one of them is an error in the policy in force; ok is false
// otherwise. The job does not run the steps: it shares nothing with the one that does.
func (j *job) ownErrors(dps []lang.Problem) (out []lang.Problem, ok bool) {
	if len(j.targets) == 0 {
		return nil, false
	}
	j.all = j.targets
	j.leftOut()
	own, _ := syntaxStep(j)
	own = j.dropGuarded(dedupe(append(dps, own...)))
	for _, p := range own {
		if !j.introduced(p) {
			continue // a finding the base may have too: the engine would settle it against a base run of pyright's
		}
		p.Introduced = true
		j.importHint(&p)
		out = append(out, p)
		ok = ok || ownErrorKinds[p.Kind] && j.severity(p) == policy.Error
	}
	lang.SortProblems(out)
	return out, ok
}

// severity is the severity of p's rule for its file in the policy in force.
func (j *job) severity(p lang.Problem) policy.Severity {
	pol := j.req.Policy
	if pol == nil {
		return policy.Error
	}
	if !pol.Enabled(p.Kind.Dimension()) {
		return policy.Off
	}
	return pol.Severity(p.Kind.Dimension()+"/"+string(p.Kind), p.Location.File, policy.Error)
}

// introduced reports whether the change certainly introduced p, a finding in a changed
// Python file: the whole change is new (no base), the file is, a syntax error in a file
// whose base parses, or a dependency finding on a module its base does not import (the
// finding's Symbol is the imported top-level name). Anything else is left to the full
// answer.
func (j *job) introduced(p lang.Problem) bool {
	if j.req.Changes.NoBase {
		return true
	}
	var f *change.File
	for _, t := range j.all {
		if t.f.Path == p.Location.File {
			f = t.f
		}
	}
	switch {
	case f == nil:
		return false
	case f.Base == nil:
		return f.Op == change.Create
	case p.Kind == lang.SyntaxErrorKind:
		lf, err := j.fe.parseFile(f.Path, f.Base)
		return err == nil && len(lf.SyntaxErrors) == 0
	case p.Kind == lang.UnknownPackage || p.Kind == lang.UndeclaredDependency || p.Kind == lang.MissingDependency:
		return !importsTop(j.fe, f.Base, p.Symbol)
	}
	return false
}

// importsTop reports whether src imports the top-level module top, or cannot be read.
func importsTop(fe Resolver, src []byte, top string) bool {
	tree, err := fe.parse(src)
	if err != nil || top == "" {
		return true
	}
	for _, r := range syntax.Imports(tree, src) {
		if r.Level == 0 && syntax.TopLevel(r.Module) == top {
			return true
		}
	}
	return false
}

// importHint gives an unknown package (not installed, so unresolved by pyright unless it
// bundles a stub for it) the did-you-mean that the full
// answer takes from pyright's unresolved import on that line (dedupe, importHints): the
// closest module name, for a module named without a dot.
func (j *job) importHint(p *lang.Problem) {
	if p.Kind != lang.UnknownPackage {
		return
	}
	mod := j.importedAt(p.Location)
	if mod == "" || strings.Contains(mod, ".") || len(j.stubDirsHolding(mod)) > 0 {
		return
	}
	if h := didYouMean(closest(mod, j.topLevelModules())); strings.HasPrefix(h, "did you mean") {
		p.Suggestion = h + "; " + p.Suggestion
	}
}

// importedAt returns the module, as written, of the import whose name is at loc in a
// changed file.
func (j *job) importedAt(loc lang.Location) string {
	for _, t := range j.all {
		if t.f.Path != loc.File || t.tree == nil {
			continue
		}
		for _, r := range syntax.Imports(t.tree, t.src) {
			if r.Level == 0 && r.Node.Pos.Line == loc.Line && r.Node.Pos.Column == loc.Column {
				return r.Module
			}
		}
	}
	return ""
}
