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
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/policy"
)

// Dimension is the semantics dimension with a fresh package loader per verification.
var Dimension = New(nil)

// New returns the dimension type-checking dependents with loader l; nil means a fresh
// loader per verification. Long-lived processes share one loader with the hallucination dimension.
func New(l *load.Loader) *check.Dimension {
	return &check.Dimension{
		Name:  policy.Semantics,
		Doc:   "the public API, the dependents and the tests survive the change",
		Rules: []*check.Rule{removedExport, incompatibleChange, brokenDependent, removedTest, testSkipped},
		Run: func(pass *check.Pass) ([]check.Finding, error) {
			loader := l
			if loader == nil {
				loader = pass.Memo.Get("semantic/loader", func() any { return load.New(load.Options{}) }).(*load.Loader)
			}
			return run(pass, loader)
		},
	}
}

// decl is a declaration with where it is.
type decl struct {
	lang.Decl
	file string
}

// pkg gathers the declarations of one package's changed files on both sides.
type pkg struct {
	dir        string
	base, head map[string]decl // API declarations by name
	baseTests  map[string]decl
	headTests  map[string]decl
	apiVisible bool
}

func run(pass *check.Pass, loader *load.Loader) ([]check.Finding, error) {
	if pass.Changes.NoBase || pass.Focus != nil {
		// A base-view pass only matches findings not marked Introduced: the skips. The
		// API comparison and the dependents report only Introduced findings.
		return skips(pass)
	}
	pkgs, err := collect(pass)
	if err != nil {
		return nil, err
	}
	var out []check.Finding
	broken := map[string][]string{} // package dir → exported names the change broke
	dirs := make([]string, 0, len(pkgs))
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		fs := compare(pass, pkgs[dir])
		for _, f := range fs {
			if f.Rule == removedExport.ID || f.Rule == incompatibleChange.ID {
				broken[dir] = append(broken[dir], f.Symbol)
			}
		}
		out = append(out, fs...)
	}
	deps, err := brokenDependents(pass, loader, broken)
	if err != nil {
		return nil, err
	}
	out = append(out, deps...)
	more, err := skips(pass)
	return append(out, more...), err
}

// compare reports what the change did to one package's tests and API, as the policy for
// the package asks.
func compare(pass *check.Pass, p *pkg) []check.Finding {
	opts := pass.Policy.ForPath(p.dir + "/x.go").Semantics
	var out []check.Finding
	if opts.PreserveTests {
		out = append(out, removedTests(p)...)
	}
	if !p.apiVisible || (isInternal(p.dir) && !opts.IncludeInternal) {
		return out
	}
	if opts.PreserveExports {
		out = append(out, removals(p)...)
	}
	if opts.PreserveSignatures {
		out = append(out, changes(p)...)
	}
	return out
}

// collect gathers, per package directory, the declarations of the changed files on both
// sides. A file that does not parse on either side is left out: it says nothing about the
// API, and comparing the other side with it would report every declaration as removed
// (hallucination reports the syntax error).
func collect(pass *check.Pass) (map[string]*pkg, error) {
	pkgs := map[string]*pkg{}
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
				continue // excluded by build constraints: not the API callers build against
			}
			dir := path.Dir(lf.Path)
			p := pkgs[dir]
			if p == nil {
				p = &pkg{dir: dir, base: map[string]decl{}, head: map[string]decl{}, baseTests: map[string]decl{}, headTests: map[string]decl{}}
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

// add records the declarations of one side of a file.
func (p *pkg) add(lf *lang.File, head bool) {
	api, tests := p.base, p.baseTests
	if head {
		api, tests = p.head, p.headTests
	}
	public := lf.Package != "main" && !strings.HasSuffix(lf.Package, "_test")
	p.apiVisible = p.apiVisible || public
	for _, d := range lf.Decls {
		switch {
		case d.Test:
			tests[d.Name] = decl{d, lf.Path}
		case public && d.Exported && exportedReceiver(d):
			api[d.Name] = decl{d, lf.Path}
		}
	}
}

// exportedReceiver reports whether a method or field belongs to an exported type: the
// members of unexported types are not part of the API.
func exportedReceiver(d lang.Decl) bool {
	if d.Kind != lang.Method && d.Kind != lang.Field {
		return true
	}
	recv, _, _ := strings.Cut(d.Name, ".")
	return recv != "" && strings.ToUpper(recv[:1]) == recv[:1]
}

func isInternal(dir string) bool {
	for _, part := range strings.Split(dir, "/") {
		if part == "internal" {
			return true
		}
	}
	return false
}

func sortedNames(m map[string]decl) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func removals(p *pkg) []check.Finding {
	var out []check.Finding
	for _, name := range sortedNames(p.base) {
		d := p.base[name]
		if _, ok := p.head[name]; ok {
			continue
		}
		f := check.Finding{
			Rule:       removedExport.ID,
			Location:   check.Location{File: d.file, Line: d.NamePos.Line, Column: d.NamePos.Column},
			Message:    fmt.Sprintf("exported %s %s was removed from package %s; callers outside the change break", d.Kind, name, p.dir),
			Symbol:     name,
			Introduced: true,
		}
		if r := renamedTo(p, d); r != "" {
			f.Suggestion = fmt.Sprintf("it looks renamed to %s; keep %s (e.g. as a deprecated wrapper) or update every caller", r, name)
		}
		out = append(out, f)
	}
	return out
}

// renamedTo finds a new declaration of the same kind and signature: the likely new name.
func renamedTo(p *pkg, d decl) string {
	for _, name := range sortedNames(p.head) {
		h := p.head[name]
		if _, existed := p.base[name]; !existed && h.Kind == d.Kind && h.Signature == d.Signature && d.Signature != "" {
			return name
		}
	}
	return ""
}

func changes(p *pkg) []check.Finding {
	var out []check.Finding
	for _, name := range sortedNames(p.head) {
		h := p.head[name]
		b, ok := p.base[name]
		if !ok || b.Signature == h.Signature {
			continue
		}
		msg := fmt.Sprintf("exported %s %s changed from %s to %s; callers outside the change break", h.Kind, name, b.Signature, h.Signature)
		if h.Kind == lang.Type {
			why := typeChange(b.Signature, h.Signature)
			if why == "" {
				continue // e.g. a field added: compatible; fields are compared one by one
			}
			msg = fmt.Sprintf("exported type %s changed incompatibly: %s", name, why)
		}
		out = append(out, check.Finding{
			Rule:       incompatibleChange.ID,
			Location:   check.Location{File: h.file, Line: h.NamePos.Line, Column: h.NamePos.Column},
			Message:    msg,
			Suggestion: fmt.Sprintf("keep %s as it was and add a new declaration for the new behaviour", name),
			Symbol:     name,
			Introduced: true,
		})
	}
	return out
}

func removedTests(p *pkg) []check.Finding {
	var out []check.Finding
	for _, name := range sortedNames(p.baseTests) {
		if _, ok := p.headTests[name]; ok {
			continue
		}
		d := p.baseTests[name]
		out = append(out, check.Finding{
			Rule:       removedTest.ID,
			Location:   check.Location{File: d.file, Line: d.NamePos.Line, Column: d.NamePos.Column},
			Message:    fmt.Sprintf("test %s was removed from %s", name, p.dir),
			Suggestion: "fix the code the test exercises instead of deleting the test",
			Symbol:     name,
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
