package semantic

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/policy"
)

// Dimension is the semantics dimension: it compares APIs with the comparer of every
// frontend that has one (lang.APIComparer), and tests through the frontends' parses.
var Dimension = &check.Dimension{
	Name:         policy.Semantics,
	Doc:          "the public API, the dependents and the tests survive the change",
	Rules:        []*check.Rule{removedExport, incompatibleChange, brokenDependent, removedTest, testSkipped, typeMismatch},
	PerDirectory: true,
	Run: func(pass *check.Pass) ([]check.Finding, error) {
		var comparers []lang.APIComparer
		for _, fe := range pass.Languages {
			if c, ok := fe.(lang.APIComparer); ok {
				comparers = append(comparers, c)
			}
		}
		return run(pass, comparers)
	},
}

func run(pass *check.Pass, comparers []lang.APIComparer) ([]check.Finding, error) {
	types, err := typeFindings(pass)
	if err != nil {
		return nil, err
	}
	if pass.Changes.NoBase || pass.Focus != nil {
		// A base-view pass only matches findings not marked Introduced: the skips and the
		// type mismatches. The API comparison, the dependents and removed tests report
		// only Introduced findings.
		more, err := skips(pass)
		return append(types, more...), err
	}
	out, err := testFindings(pass)
	if err != nil {
		return nil, err
	}
	for _, c := range comparers {
		fs, err := apiFindings(pass, c)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	more, err := skips(pass)
	return append(append(out, more...), types...), err
}

// apiFindings reports the API changes one comparer finds, as the policy for each
// package asks, and the callers outside the change that they break.
func apiFindings(pass *check.Pass, c lang.APIComparer) ([]check.Finding, error) {
	changes, err := c.CompareAPI(pass.Request())
	if err != nil {
		return nil, fmt.Errorf("comparing the API: %w", err)
	}
	var kept []lang.APIChange
	var out []check.Finding
	for _, ch := range changes {
		opts := pass.Policy.ForPath(policyPath(ch)).Semantics
		switch {
		case ch.Internal && !opts.IncludeInternal:
		case ch.Removed && !opts.PreserveExports:
		case !ch.Removed && !opts.PreserveSignatures:
		default:
			kept = append(kept, ch)
			out = append(out, changeFinding(ch))
		}
	}
	uses, err := c.BrokenUses(pass.Request(), kept)
	if err != nil {
		return nil, err
	}
	for _, u := range uses {
		out = append(out, useFinding(u))
	}
	return out, nil
}

// wholePackage reports whether a change concerns a package or module as a whole.
func wholePackage(ch lang.APIChange) bool {
	return strings.HasPrefix(ch.Subject, "package ") || strings.HasPrefix(ch.Subject, "module ")
}

// qualified names what changed for a message about its callers: "example.com/m/p.(*T).M".
func qualified(ch lang.APIChange) string {
	if ch.Qualified != "" {
		return ch.Qualified
	}
	if wholePackage(ch) {
		return ch.Package
	}
	return ch.Package + "." + ch.Subject
}

func location(p lang.Place) check.Location {
	return check.Location{File: p.File, Line: max(p.Pos.Line, 1), Column: p.Pos.Column}
}

// changeFinding turns an API change into a removed-export or incompatible-change finding
// at its head place, with where it was at the base as related place.
func changeFinding(ch lang.APIChange) check.Finding {
	f := check.Finding{
		Rule:       incompatibleChange.ID,
		Location:   location(ch.Head),
		Message:    fmt.Sprintf("package %s: %s: %s; callers outside the change break", ch.Package, ch.Subject, ch.Detail),
		Suggestion: suggestion(ch),
		Symbol:     ch.Subject,
		Introduced: true,
	}
	if ch.Removed {
		f.Rule = removedExport.ID
	}
	if wholePackage(ch) {
		f.Message = fmt.Sprintf("%s: %s; every importer breaks", ch.Subject, ch.Detail)
	}
	if ch.Base.File != "" && ch.Base != ch.Head {
		f.Related = []check.Related{{Location: location(ch.Base), Base: true, Message: ch.Subject + " as it was at the base"}}
	}
	return f
}

// suggestion says how to keep callers working through an API change.
func suggestion(ch lang.APIChange) string {
	switch {
	case strings.HasPrefix(ch.Subject, "module "):
		return "keep the module path; a new path is a new module (for a new major version, keep the old one released)"
	case wholePackage(ch):
		return "keep the package where it is, or move its importers in the same change"
	case ch.Removed && ch.RenamedTo != "":
		return fmt.Sprintf("it looks renamed to %s; keep %s (e.g. as a deprecated wrapper), or update every caller in the same change", ch.RenamedTo, ch.Subject)
	case ch.Removed:
		return fmt.Sprintf("keep %s (e.g. as a deprecated wrapper), or update every caller in the same change", ch.Subject)
	case strings.HasPrefix(ch.Detail, "added"):
		return "every implementation of the interface outside the change lacks the new method; declare a new interface that embeds this one instead"
	case strings.HasPrefix(ch.Detail, "no longer implements"):
		return fmt.Sprintf("keep the methods %s needs, or callers that use it as %s break", ch.Subject, strings.TrimPrefix(ch.Detail, "no longer implements "))
	}
	return fmt.Sprintf("keep %s as it was and add a new declaration for the new behaviour", ch.Subject)
}

// useFinding reports a caller broken by an API change at the caller, with the change as
// related place.
func useFinding(u lang.BrokenUse) check.Finding {
	return check.Finding{
		Rule:       brokenDependent.ID,
		Location:   location(u.At),
		Message:    fmt.Sprintf("package %s is broken: %s (broken by the change to %s)", u.Package, u.Message, qualified(u.Change)),
		Suggestion: fmt.Sprintf("keep %s compatible, or update this caller in the same change", qualified(u.Change)),
		Symbol:     u.Package + ":" + u.Change.Subject,
		Related:    []check.Related{{Location: location(u.Change.Head), Message: "the change to " + qualified(u.Change)}},
		Introduced: true,
	}
}

// policyPath is the file whose policy decides about ch: where it shows at the head, else
// where it was at the base.
func policyPath(ch lang.APIChange) string {
	if ch.Head.File != "" {
		return ch.Head.File
	}
	if ch.Base.File != "" {
		return ch.Base.File
	}
	return path.Join(ch.Dir, "-")
}

// testDecl is a test function with where it is.
type testDecl struct {
	lang.Decl
	file string
}

// tests gathers the test functions of one package's changed files on both sides, and
// where each head file's package clause is.
type tests struct {
	dir        string
	base, head map[string]testDecl
	clauses    map[string]lang.Pos // head file → package clause
	// files are the changed files, by base path, for where a removed test was.
	files map[string]*change.File
}

// testFindings reports the test functions the change removed, as the policy for each
// package asks.
func testFindings(pass *check.Pass) ([]check.Finding, error) {
	pkgs, err := collect(pass)
	if err != nil {
		return nil, err
	}
	dirs := make([]string, 0, len(pkgs))
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	var out []check.Finding
	for _, dir := range dirs {
		for _, f := range removedTests(pkgs[dir]) {
			if pass.Policy.ForPath(f.Location.File).Semantics.PreserveTests {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// collect gathers, per package directory, the test functions of the changed files on
// both sides. A file that does not parse on either side is left out: comparing the other
// side with it would report every test as removed (hallucination reports the error).
func collect(pass *check.Pass) (map[string]*tests, error) {
	pkgs := map[string]*tests{}
	for _, f := range pass.Changes.Files {
		if f.Binary || f.Symlink || f.TooLarge {
			continue
		}
		sides, broken, err := parseSides(pass, f)
		if err != nil {
			return nil, err
		}
		if broken {
			continue
		}
		for i, lf := range sides {
			if lf == nil {
				continue // no frontend, or the side does not exist
			}
			content := f.Content([]change.Side{change.Base, change.Head}[i])
			if lf.Language == "go" && !buildMatch(lf.Path, content) {
				continue // excluded by build constraints: not run
			}
			p := pkgOf(pkgs, path.Dir(lf.Path))
			p.add(lf, i == 1)
			if i == 0 {
				p.files[lf.Path] = f
			}
			if i == 1 && movedWith(pass, f) {
				pkgOf(pkgs, path.Dir(f.OldPath)).add(lf, true) // still there for its base package
			}
		}
	}
	return pkgs, nil
}

// pkgOf returns the tests of the package in dir, adding an empty record the first time.
func pkgOf(pkgs map[string]*tests, dir string) *tests {
	p := pkgs[dir]
	if p == nil {
		p = &tests{dir: dir, base: map[string]testDecl{}, head: map[string]testDecl{}, clauses: map[string]lang.Pos{},
			files: map[string]*change.File{}}
		pkgs[dir] = p
	}
	return p
}

// movedWith reports whether the change moves f to another directory where its tests
// still run: a test that moves with its file to another package (a package cut by
// stage) is not removed. A move under testdata/ or vendor/, or into a directory whose
// name starts with "." or "_", is: the go command runs no test there; so is a move out
// of what the language's test command runs (lang.TestReach: into a nested Go module).
func movedWith(pass *check.Pass, f *change.File) bool {
	if f.OldPath == "" || f.Base == nil || f.Head == nil || path.Dir(f.OldPath) == path.Dir(f.Path) {
		return false
	}
	if r, ok := pass.Languages.For(f.Path).(lang.TestReach); ok && !r.StillRuns(pass.Changes, f.OldPath, f.Path) {
		return false
	}
	for _, d := range strings.Split(path.Dir(f.Path), "/") {
		if d == "testdata" || d == "vendor" || strings.HasPrefix(d, ".") && d != "." || strings.HasPrefix(d, "_") {
			return false
		}
	}
	return true
}

// parseSides parses the base and head of f; broken is set when a side has syntax errors.
func parseSides(pass *check.Pass, f *change.File) (sides [2]*lang.File, broken bool, err error) {
	for i, s := range []change.Side{change.Base, change.Head} {
		lf, err := pass.Files.Parse(f, s)
		if err != nil {
			return sides, false, err
		}
		sides[i] = lf
		broken = broken || (lf != nil && len(lf.SyntaxErrors) > 0)
	}
	return sides, broken, nil
}

// add records the test functions of one side of a file.
func (p *tests) add(lf *lang.File, head bool) {
	m := p.base
	if head {
		m = p.head
		for _, id := range lf.Idents {
			if id.Kind == lang.IdentPackage {
				p.clauses[lf.Path] = id.Pos
				break
			}
		}
	}
	for _, d := range lf.Decls {
		if d.Test {
			m[d.Name] = testDecl{d, lf.Path}
		}
	}
}

// removedTests reports each test of the base that the head lacks, at the package clause
// of its file at the head (under its new name when the change renamed it), else (a
// language without one: Lisp, Python) at the head line now where the test was, or at a
// deleted file's first line; where it was at the base is the related place.
func removedTests(p *tests) []check.Finding {
	names := make([]string, 0, len(p.base))
	for n := range p.base {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []check.Finding
	for _, name := range names {
		if _, ok := p.head[name]; ok {
			continue
		}
		d := p.base[name]
		at := check.Location{File: d.file, Line: 1}
		if f := p.files[d.file]; f != nil && f.Head != nil {
			at.File = f.Path
			if pos, ok := p.clauses[f.Path]; ok {
				at.Line, at.Column = pos.Line, pos.Column
			} else {
				at.Line = change.HeadLine(f.Base, f.Head, d.NamePos.Line)
			}
		}
		out = append(out, check.Finding{
			Rule:       removedTest.ID,
			Location:   at,
			Message:    fmt.Sprintf("test %s was removed from %s", name, p.dir),
			Suggestion: "fix the code the test exercises instead of deleting the test",
			Symbol:     name,
			Related:    []check.Related{{Location: check.Location{File: d.file, Line: d.NamePos.Line, Column: d.NamePos.Column}, Base: true, Message: name + " as it was at the base"}},
			Introduced: true,
		})
	}
	return out
}

// skips reports each place where a changed file skips a test, as its frontend finds
// them; the diff filter and the base view keep the ones the change added.
func skips(pass *check.Pass) ([]check.Finding, error) {
	var out []check.Finding
	for _, f := range pass.Changes.Files {
		if !f.Analyzable() || f.Head == nil {
			continue
		}
		lf, err := pass.Files.Parse(f, change.Head)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		if lf == nil {
			continue
		}
		for _, s := range lf.Skips {
			out = append(out, check.Finding{
				Rule:     testSkipped.ID,
				Location: check.Location{File: f.Path, Line: s.Pos.Line, Column: s.Pos.Column},
				Message:  "the change skips a test: " + s.Text,
				Symbol:   f.Path,
			})
		}
	}
	return out, nil
}
