package semantic

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/api"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/policy"
)

// Dimension is the semantics dimension with a fresh package loader per verification.
var Dimension = New(nil)

// New returns the dimension comparing APIs with the frontends' comparers, the Go one
// loading packages with l; nil means a fresh loader per run. Long-lived processes share
// one loader with the hallucination dimension.
func New(l *load.Loader) *check.Dimension {
	return &check.Dimension{
		Name:  policy.Semantics,
		Doc:   "the public API, the dependents and the tests survive the change",
		Rules: []*check.Rule{removedExport, incompatibleChange, brokenDependent, removedTest, testSkipped},
		Run: func(pass *check.Pass) ([]check.Finding, error) {
			loader := l
			if loader == nil {
				loader = pass.Memo.Get(load.MemoKey, func() any { return load.New(load.Options{}) }).(*load.Loader)
			}
			return run(pass, []lang.APIComparer{api.New(loader)})
		},
	}
}

func run(pass *check.Pass, comparers []lang.APIComparer) ([]check.Finding, error) {
	if pass.Changes.NoBase || pass.Focus != nil {
		// A base-view pass only matches findings not marked Introduced: the skips. The
		// API comparison, the dependents and removed tests report only Introduced findings.
		return skips(pass)
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
	return append(out, more...), err
}

// apiFindings reports the API changes one comparer finds, as the policy for each
// package asks, and the callers outside the change that they break.
func apiFindings(pass *check.Pass, c lang.APIComparer) ([]check.Finding, error) {
	changes, err := c.CompareAPI(pass.Context, pass.Changes)
	if err != nil {
		return nil, fmt.Errorf("comparing the API: %w", err)
	}
	var kept []lang.APIChange
	var out []check.Finding
	for _, ch := range changes {
		opts := pass.Policy.ForPath(path.Join(ch.Dir, "x.go")).Semantics
		switch {
		case isInternal(ch.Dir) && !opts.IncludeInternal:
		case ch.Removed && !opts.PreserveExports:
		case !ch.Removed && !opts.PreserveSignatures:
		default:
			kept = append(kept, ch)
			out = append(out, changeFinding(ch))
		}
	}
	uses, err := c.BrokenUses(pass.Context, pass.Changes, kept)
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
		Message:    fmt.Sprintf("package %s no longer type-checks: %s (broken by the change to %s)", u.Package, u.Message, qualified(u.Change)),
		Suggestion: fmt.Sprintf("keep %s compatible, or update this caller in the same change", qualified(u.Change)),
		Symbol:     u.Package + ":" + u.Change.Subject,
		Related:    []check.Related{{Location: location(u.Change.Head), Message: "the change to " + qualified(u.Change)}},
		Introduced: true,
	}
}

func isInternal(dir string) bool {
	for _, part := range strings.Split(dir, "/") {
		if part == "internal" {
			return true
		}
	}
	return false
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
		if pass.Policy.ForPath(dir + "/x.go").Semantics.PreserveTests {
			out = append(out, removedTests(pkgs[dir])...)
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
			dir := path.Dir(lf.Path)
			p := pkgs[dir]
			if p == nil {
				p = &tests{dir: dir, base: map[string]testDecl{}, head: map[string]testDecl{}, clauses: map[string]lang.Pos{}}
				pkgs[dir] = p
			}
			p.add(lf, i == 1)
		}
	}
	return pkgs, nil
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
// of its file at the head (or at the deleted file's first line), with where it was at the
// base as related place: its base line would land on unrelated code of the head file.
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
		if pos, ok := p.clauses[d.file]; ok {
			at.Line, at.Column = pos.Line, pos.Column
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

var skipCall = regexp.MustCompile(`\b[a-zA-Z_][a-zA-Z0-9_]*\.(Skip|SkipNow|Skipf)\(`)

// skips reports each Skip call in a test file; the diff filter keeps the added ones.
func skips(pass *check.Pass) ([]check.Finding, error) {
	var out []check.Finding
	for _, f := range pass.Changes.Files {
		if !f.Analyzable() || !strings.HasSuffix(f.Path, "_test.go") {
			continue
		}
		for i, line := range strings.Split(string(f.Head), "\n") {
			trimmed := strings.TrimSpace(line)
			if strings.HasPrefix(trimmed, "//") {
				continue
			}
			if loc := skipCall.FindStringIndex(line); loc != nil {
				out = append(out, check.Finding{
					Rule:     testSkipped.ID,
					Location: check.Location{File: f.Path, Line: i + 1, Column: loc[0] + 1},
					Message:  "the change skips a test: " + strings.TrimSpace(line[loc[0]:]),
					Symbol:   f.Path,
				})
			}
		}
	}
	return out, nil
}
