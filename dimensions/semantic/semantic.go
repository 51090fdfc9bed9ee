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

// Dimension is the semantics dimension with a fresh package loader per run.
var Dimension = New(nil)

// New returns the dimension type-checking dependents with loader l; nil means a fresh
// loader per run. Long-lived processes share one loader with the hallucination dimension.
func New(l *load.Loader) *check.Dimension {
	return &check.Dimension{
		Name:  policy.Semantics,
		Doc:   "the public API, the dependents and the tests survive the change",
		Rules: []*check.Rule{removedExport, incompatibleChange, brokenDependent, removedTest, testSkipped},
		Run: func(pass *check.Pass) ([]check.Finding, error) {
			loader := l
			if loader == nil {
				loader = load.New(load.Options{})
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
	if pass.Changes.NoBase {
		return skips(pass)
	}
	pkgs := map[string]*pkg{}
	get := func(dir string) *pkg {
		p := pkgs[dir]
		if p == nil {
			p = &pkg{dir: dir, base: map[string]decl{}, head: map[string]decl{}, baseTests: map[string]decl{}, headTests: map[string]decl{}}
			pkgs[dir] = p
		}
		return p
	}
	for _, f := range pass.Changes.Files {
		if f.Binary || f.Symlink || f.TooLarge {
			continue
		}
		var sides [2]*lang.File
		broken := false
		for i, s := range []change.Side{change.Base, change.Head} {
			lf, err := pass.Files.Parse(f, s)
			if err != nil {
				return nil, err
			}
			sides[i] = lf
			broken = broken || (lf != nil && len(lf.SyntaxErrors) > 0)
		}
		if broken {
			// A side that does not parse says nothing about the API: comparing the other
			// side with it would report every declaration as removed. Hallucination reports
			// the syntax error.
			continue
		}
		for i, lf := range sides {
			if lf == nil {
				continue // no frontend, or the side does not exist
			}
			content := f.Base
			if i == 1 {
				content = f.Head
			}
			if lf.Language == "go" && !buildMatch(lf.Path, content) {
				continue // excluded by build constraints: not the API callers build against
			}
			p := get(path.Dir(lf.Path))
			api, tests := p.base, p.baseTests
			if i == 1 {
				api, tests = p.head, p.headTests
			}
			public := lf.Package != "main" && !strings.HasSuffix(lf.Package, "_test")
			if public {
				p.apiVisible = true
			}
			for _, d := range lf.Decls {
				switch {
				case d.Test:
					tests[d.Name] = decl{d, lf.Path}
				case public && d.Exported && exportedReceiver(d):
					api[d.Name] = decl{d, lf.Path}
				}
			}
		}
	}
	var out []check.Finding
	broken := map[string][]string{} // package dir → exported names the change broke
	dirs := make([]string, 0, len(pkgs))
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		p := pkgs[dir]
		opts := pass.Policy.ForPath(dir + "/x.go").Semantics
		if opts.PreserveTests {
			out = append(out, removedTests(p)...)
		}
		if !p.apiVisible || (isInternal(dir) && !opts.IncludeInternal) {
			continue
		}
		var api []check.Finding
		if opts.PreserveExports {
			api = append(api, removals(p)...)
		}
		if opts.PreserveSignatures {
			api = append(api, changes(p)...)
		}
		for _, f := range api {
			broken[dir] = append(broken[dir], f.Symbol)
		}
		out = append(out, api...)
	}
	deps, err := brokenDependents(pass, loader, broken)
	if err != nil {
		return nil, err
	}
	out = append(out, deps...)
	more, err := skips(pass)
	return append(out, more...), err
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
