package api

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/signature"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// Compare reports the incompatible changes the change makes to the public API of
// the Python modules it touches (design.md §5, semantics): a public name (listed in
// __all__, or without a leading underscore; public methods of public classes) that the
// head no longer binds, and a function or method whose new signature rejects calls the
// old one accepted. Test modules, conftest.py, scripts (__main__.py, setup.py) and files
// that do not parse on either side are no API; modules and packages whose name starts
// with an underscore are Internal.
func Compare(req *lang.Request, parse Parse) ([]lang.APIChange, error) {
	var out []lang.APIChange
	for _, f := range req.Changes.Files {
		if f.Binary || f.Symlink || f.TooLarge || f.Base == nil || !syntax.IsPython(f.OldPath) || !isAPIModule(f.OldPath) {
			continue
		}
		chs, err := compareFile(req, f, parse)
		if err != nil {
			return nil, err
		}
		out = append(out, chs...)
	}
	return out, nil
}

// isAPIModule reports whether a file can be imported as part of a package's API: not a
// test module, a script, or a file under a directory of tests, docs, examples or
// benchmarks (their helpers serve the project's own suite, nobody imports them).
func isAPIModule(p string) bool {
	base := path.Base(p)
	if syntax.RoleOf(p) != syntax.Source || base == "__main__.py" || base == "setup.py" || base == "noxfile.py" || base == "conftest.py" {
		return false
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "tests", "test", "docs", "doc", "examples", "benchmarks", "scripts":
			return false
		}
	}
	return true
}

// detailRemoved is the Detail of a name the head no longer has at all.
const detailRemoved = "removed"

// modulePlace names a module: its dotted name and directory.
type modulePlace struct {
	name, dir string
	internal  bool
}

// moduleOf is the dotted name of the module at p in fsys: the file's stem under its
// package directories (those holding __init__.py), as Python imports it.
func moduleOf(fsys fs.FS, p string) modulePlace {
	stem := strings.TrimSuffix(strings.TrimSuffix(path.Base(p), ".pyi"), ".py")
	parts := []string{}
	if stem != "__init__" {
		parts = append(parts, stem)
	}
	dir := path.Dir(p)
	for d := dir; d != "." && d != "/" && d != ""; d = path.Dir(d) {
		if fsys == nil {
			break
		}
		if _, err := fs.Stat(fsys, path.Join(d, "__init__.py")); err != nil {
			if stem == "__init__" && d == dir {
				parts = append([]string{path.Base(d)}, parts...)
			}
			break
		}
		parts = append([]string{path.Base(d)}, parts...)
	}
	m := modulePlace{name: strings.Join(parts, "."), dir: dir}
	for _, part := range parts {
		m.internal = m.internal || strings.HasPrefix(part, "_") && !syntax.IsDunder(part)
	}
	return m
}

// apiSide is one side of a changed module.
type apiSide struct {
	parse Parse
	src   []byte
	lf    *lang.File
	decls map[string]lang.Decl // exported declarations by name
	// bound holds the module-level names bound by imports, and star is set for a
	// module-level `from x import *` or __getattr__; both are computed on first use
	// (only a removal needs them, and they need a syntax tree).
	bound map[string]bool
	star  bool
	err   error
}

func side(req *lang.Request, f *change.File, s change.Side, parse Parse) (*apiSide, error) {
	if f.Content(s) == nil {
		return nil, nil
	}
	lf, err := req.Parse(f, s)
	if err != nil || lf == nil || len(lf.SyntaxErrors) > 0 {
		return nil, err
	}
	out := &apiSide{parse: parse, src: f.Content(s), lf: lf, decls: map[string]lang.Decl{}}
	for _, d := range lf.Decls {
		if d.Exported {
			out.decls[d.Name] = d
		}
		out.star = out.star || d.Name == "__getattr__" && d.Kind == lang.Func
	}
	return out, nil
}

// compareFile compares the API of one changed module.
func compareFile(req *lang.Request, f *change.File, parse Parse) ([]lang.APIChange, error) {
	base, err := side(req, f, change.Base, parse)
	if err != nil || base == nil {
		return nil, err
	}
	mod := moduleOf(req.Changes.BaseFS, f.OldPath)
	if f.Op == change.Delete || f.Op == change.Rename && moduleOf(req.Changes.HeadFS, f.Path).name != mod.name {
		if len(base.decls) == 0 {
			return nil, nil
		}
		return []lang.APIChange{{Package: mod.name, Dir: mod.dir, Internal: mod.internal, Subject: "package " + mod.name,
			Detail: "removed", Name: mod.name, Removed: true, Head: lang.Place{File: f.Path, Pos: lang.Pos{Line: 1}},
			Base: lang.Place{File: f.OldPath, Pos: lang.Pos{Line: 1}}}}, nil
	}
	head, err := side(req, f, change.Head, parse)
	if err != nil || head == nil {
		return nil, err
	}
	return compareSides(mod, f, base, head), nil
}

// compareSides lists the removed and incompatibly changed public names of a module.
func compareSides(mod modulePlace, f *change.File, base, head *apiSide) []lang.APIChange {
	names := make([]string, 0, len(base.decls))
	for n := range base.decls {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []lang.APIChange
	for _, n := range names {
		b := base.decls[n]
		ch := lang.APIChange{Package: mod.name, Dir: mod.dir, Internal: mod.internal, Subject: n, Name: syntax.LastName(n),
			Base: lang.Place{File: f.OldPath, Pos: b.NamePos}, Head: lang.Place{File: f.Path, Pos: lang.Pos{Line: 1}}}
		h, ok := head.decls[n]
		switch {
		case !ok && (head.still(n) || head.inherits(n) || ownerGone(n, base, head)):
		case !ok:
			ch.Removed, ch.Detail = true, detailRemoved
			if _, private := findDecl(head.lf, n); private {
				ch.Detail = "no longer public (dropped from __all__)"
			}
			ch.RenamedTo = renamed(b, base, head)
			out = append(out, ch)
		case (b.Kind == lang.Func || b.Kind == lang.Method) && h.Signature != b.Signature:
			ch.Head.Pos = h.NamePos
			method := b.Kind == lang.Method
			if why := signature.Incompatibilities(signature.Parse(b.Signature, method), signature.Parse(h.Signature, method)); len(why) > 0 {
				ch.Detail = fmt.Sprintf("signature changed from %s to %s: %s", b.Signature, h.Signature, strings.Join(why, "; "))
				out = append(out, ch)
			}
		}
	}
	return out
}

// still reports whether the head module still provides a module-level name without
// declaring it: bound by an import (a move to another module, re-exported), or
// possibly provided by a star import or a module __getattr__.
func (s *apiSide) still(name string) bool {
	if strings.Contains(name, ".") {
		return false
	}
	if s.bound == nil && s.err == nil {
		var root *syntax.Node
		if root, s.err = s.parse(s.src); s.err != nil {
			return true // cannot tell: not reported (the parse error is the frontend's)
		}
		s.bound, s.star = moduleBindings(root, s.src, s.star)
	}
	return s.bound[name] || s.star
}

// ownerGone reports whether name is a method of a class the head no longer has: the
// class's own removal is the one change to report.
func ownerGone(name string, base, head *apiSide) bool {
	i := strings.LastIndex(name, ".")
	if i < 0 {
		return false
	}
	_, inBase := base.decls[name[:i]]
	_, inHead := head.decls[name[:i]]
	return inBase && !inHead
}

// inherits reports whether the head class of method name (Class.method) gets it from a
// base class declared in the same module.
func (s *apiSide) inherits(name string) bool { return s.inheritsFrom(name, 8) }

// inheritsFrom looks depth classes up (cyclic bases do not parse in Python, but may here).
func (s *apiSide) inheritsFrom(name string, depth int) bool {
	i := strings.LastIndex(name, ".")
	if i < 0 || depth == 0 {
		return false
	}
	cls, ok := findDecl(s.lf, name[:i])
	if !ok {
		return false
	}
	bases := strings.TrimSuffix(strings.TrimPrefix(cls.Signature, "class("), ")")
	for _, b := range strings.Split(bases, ", ") {
		if b == "" || strings.Contains(b, "=") {
			continue
		}
		if _, ok := findDecl(s.lf, b+name[i:]); ok || s.inheritsFrom(b+name[i:], depth-1) {
			return true
		}
	}
	return false
}

// findDecl returns the head declaration named name, public or not.
func findDecl(lf *lang.File, name string) (lang.Decl, bool) {
	for _, d := range lf.Decls {
		if d.Name == name {
			return d, true
		}
	}
	return lang.Decl{}, false
}

// renamed returns the name of a public head declaration that the base lacks, of the
// same kind and signature, in the same class: the removal looks like a rename.
func renamed(b lang.Decl, base, head *apiSide) string {
	prefix := b.Name[:strings.LastIndex(b.Name, ".")+1]
	var cands []string
	for n, h := range head.decls {
		if _, ok := base.decls[n]; ok || h.Kind != b.Kind || h.Signature != b.Signature {
			continue
		}
		if strings.HasPrefix(n, prefix) && !strings.Contains(n[len(prefix):], ".") {
			cands = append(cands, n)
		}
	}
	if len(cands) != 1 {
		return ""
	}
	return cands[0]
}

// moduleBindings returns the names module-level imports bind, and whether a star
// import (or a module __getattr__, passed in) may bind any name.
func moduleBindings(root *syntax.Node, src []byte, star bool) (map[string]bool, bool) {
	bound := map[string]bool{}
	for _, s := range syntax.ModuleStatements(root) {
		if s.Kind != "import_statement" && s.Kind != "import_from_statement" {
			continue
		}
		star = star || s.FirstOfKind("wildcard_import") != nil
		for _, c := range s.Children {
			if c.Field == "name" {
				bound[boundName(s, c, src)] = true
			}
		}
	}
	return bound, star
}

// boundName is the name an import's name c binds: its alias; for `import a.b`, a; for
// `from m import b`, b.
func boundName(stmt, c *syntax.Node, src []byte) string {
	if a := c.Child("alias"); a != nil {
		return a.Text(src)
	}
	if stmt.Kind == "import_statement" {
		return syntax.TopLevel(syntax.Dotted(c, src))
	}
	return syntax.LastName(syntax.Dotted(c, src))
}
