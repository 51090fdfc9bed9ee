package api

import (
	"context"
	"fmt"
	"go/token"
	"go/types"
	"io/fs"
	"path"
	"sort"
	"strings"

	"golang.org/x/exp/apidiff"
	"golang.org/x/mod/modfile"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// Comparer compares Go APIs for the Go frontend's lang.APIComparer. Its loader is the
// frontend's, shared with resolution, so the head's dependencies load once.
type Comparer struct {
	loader *load.Loader
	bases  *Bases // nil: every comparison checks its base
}

// New returns a Comparer loading dependencies with l.
func New(l *load.Loader) *Comparer { return &Comparer{loader: l} }

// NewWarm returns a Comparer loading dependencies with l that reuses the base sides kept
// in bases (a long-lived process's).
func NewWarm(l *load.Loader, bases *Bases) *Comparer { return &Comparer{loader: l, bases: bases} }

// module is one Go module of a change with the directories of its changed packages.
type module struct {
	dir      string            // repository-relative root
	pkgDirs  map[string]bool   // directories with a changed non-test Go file, on either side
	goMod    *change.File      // set when the change touches go.mod
	headSrc  map[string][]byte // head files the load request read, by relative path
	basePath string            // module path at the base
	headPath string            // module path at the head
}

// CompareAPI type-checks the base and head of every package with a changed non-test Go
// file and reports apidiff's incompatible changes, placed.
func (c *Comparer) CompareAPI(ctx context.Context, set *change.Set) ([]lang.APIChange, error) {
	if set.NoBase || set.BaseFS == nil || set.HeadFS == nil {
		return nil, nil
	}
	var out []lang.APIChange
	for _, m := range modules(set) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cs, err := c.compareModule(ctx, set, m)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// modules groups the changed Go packages of set by module, in directory order.
func modules(set *change.Set) []*module {
	g := &grouping{set: set, byDir: map[string]*module{}}
	for _, f := range set.Files {
		if !f.Binary && !f.Symlink && !f.TooLarge {
			g.add(f)
		}
	}
	dirs := make([]string, 0, len(g.byDir))
	for d, m := range g.byDir {
		if len(m.pkgDirs) > 0 || m.goMod != nil {
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	out := make([]*module, len(dirs))
	for i, d := range dirs {
		out[i] = g.byDir[d]
	}
	return out
}

// grouping sorts the files of a change into modules.
type grouping struct {
	set   *change.Set
	byDir map[string]*module
}

// module returns the module of a repository-relative file: the nearest go.mod at the
// head, or at the base for a file whose module is gone; nil when there is none.
func (g *grouping) module(file string) *module {
	dir, ok := load.ModuleRoot(g.set.HeadFS, file)
	if !ok {
		if dir, ok = load.ModuleRoot(g.set.BaseFS, file); !ok {
			return nil
		}
	}
	if g.byDir[dir] == nil {
		g.byDir[dir] = &module{dir: dir, pkgDirs: map[string]bool{}}
	}
	return g.byDir[dir]
}

// add records a changed go.mod, or the package directories of a non-test Go file on
// both sides.
func (g *grouping) add(f *change.File) {
	if path.Base(f.Path) == "go.mod" {
		if m := g.module(f.Path); m != nil && m.dir == path.Dir(f.Path) {
			m.goMod = f
		}
		return
	}
	for _, p := range []string{f.Path, f.OldPath} {
		if p == "" || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			continue
		}
		if m := g.module(p); m != nil {
			m.pkgDirs[path.Dir(p)] = true
		}
	}
}

// importPath is the import path of the package in dir of the module rooted at modDir.
func importPath(modPath, modDir, dir string) string {
	if dir == modDir {
		return modPath
	}
	rel := dir
	if modDir != "." {
		rel = strings.TrimPrefix(dir, modDir+"/")
	}
	return modPath + "/" + rel
}

func (c *Comparer) compareModule(ctx context.Context, set *change.Set, m *module) ([]lang.APIChange, error) {
	m.basePath, m.headPath = load.ModulePath(set.BaseFS, m.dir), load.ModulePath(set.HeadFS, m.dir)
	var out []lang.APIChange
	if m.goMod != nil && m.basePath != "" && m.headPath != "" && m.basePath != m.headPath {
		out = append(out, modulePathChange(m))
	}
	for d := range m.pkgDirs {
		if sameDecls(set, d) {
			delete(m.pkgDirs, d) // only function bodies changed
		}
	}
	if len(m.pkgDirs) == 0 {
		return out, nil
	}
	pairs, fset, err := c.checkModule(ctx, set, m)
	if err != nil {
		return nil, err
	}
	var removed []*checked
	for _, p := range pairs {
		switch {
		case p.base.pkg == nil || p.base.broken || p.head.broken || p.base.pkg.Name() == "main":
			// new, unparsable or no API
		case p.head.pkg == nil:
			removed = append(removed, p.base)
		default:
			out = append(out, p.changes()...)
		}
	}
	return append(out, removedPackages(m, fset, removed)...), nil
}

// checkModule type-checks both sides of the module's changed packages with the head's
// dependencies: those of the loader's last load, or of a new one when the head imports
// a package that load did not.
func (c *Comparer) checkModule(ctx context.Context, set *change.Set, m *module) ([]*pair, *token.FileSet, error) {
	deps, goVersion, err := c.headDeps(ctx, set, m, false)
	if err != nil {
		return nil, nil, err
	}
	pairs, fset, missed := c.check(set, m, deps, goVersion)
	if missed {
		if deps, goVersion, err = c.headDeps(ctx, set, m, true); err != nil {
			return nil, nil, err
		}
		pairs, fset, _ = c.check(set, m, deps, goVersion)
	}
	return pairs, fset, nil
}

// check type-checks both sides of the module's changed packages (the base perhaps
// reused, baseTree), in directory order; missed is set when the head imports a package
// that deps lacks.
func (c *Comparer) check(set *change.Set, m *module, deps map[string]*types.Package, goVersion string) (pairs []*pair, fset *token.FileSet, missed bool) {
	base, fset, std, done := c.baseTree(set.BaseFS, m, deps, goVersion)
	defer done()
	head := m.tree(set.HeadFS, fset, m.headPath, deps, std, goVersion)
	head.like, head.read = base, m.headSrc
	for _, dir := range sortedDirs(m.pkgDirs) {
		pairs = append(pairs, &pair{fset: fset, base: base.check(importPath(m.basePath, m.dir, dir), dir), head: head.check(importPath(m.headPath, m.dir, dir), dir)})
	}
	return pairs, fset, head.missed
}

func (m *module) tree(fsys fs.FS, fset *token.FileSet, modPath string, deps map[string]*types.Package, std types.Importer, goVersion string) *tree {
	t := &tree{fsys: fsys, fset: fset, goVersion: goVersion, dirs: map[string]string{}, deps: deps, std: std, done: map[string]*checked{}, imported: map[string]*types.Package{}, parsed: map[string]*parsedFile{}}
	for d := range m.pkgDirs {
		t.dirs[importPath(modPath, m.dir, d)] = d
	}
	return t
}

// changes runs apidiff on the pair and keeps its incompatible changes.
func (p *pair) changes() []lang.APIChange {
	var out []lang.APIChange
	var moved *moves // the types that moved behind aliases, once a change needs them
	for _, ch := range apidiff.Changes(p.base.pkg, p.head.pkg).Changes {
		s, detail, ok := strings.Cut(ch.Message, ": ")
		if ch.Compatible || !ok || strings.Contains(detail, "invalid type") || unknownValue(detail) {
			continue
		}
		if strings.HasPrefix(detail, "changed from ") {
			if moved == nil {
				moved = newMoves(p.base.pkg, p.head.pkg)
			}
			if moved.movedBehindAlias(p.base.path, detail) {
				continue
			}
		}
		c := lang.APIChange{Package: p.base.path, Dir: p.base.dir, Subject: s, Detail: detail, Removed: detail == "removed"}
		p.place(&c, s)
		if c.Removed && !strings.ContainsAny(s, ".,(") {
			c.RenamedTo = p.renamedTo(s)
		}
		out = append(out, c)
	}
	return out
}

// unknownValue reports whether apidiff's detail is about a constant whose value is
// unknown on a side, as it is when its declaration has a type error (which the
// hallucination dimension reports, as for an invalid type): "value changed from unknown
// to unknown" says nothing of the change.
func unknownValue(detail string) bool {
	v, ok := strings.CutPrefix(detail, "value changed from ")
	return ok && (strings.HasPrefix(v, "unknown to ") || strings.HasSuffix(v, " to unknown"))
}

// removedPackages reports, through apidiff.ModuleChanges, the packages whose every file
// is gone, each at the first of its deleted files.
func removedPackages(m *module, fset *token.FileSet, removed []*checked) []lang.APIChange {
	if len(removed) == 0 {
		return nil
	}
	old := &apidiff.Module{Path: m.basePath}
	byPath := map[string]*checked{}
	for _, c := range removed {
		old.Packages = append(old.Packages, c.pkg)
		byPath[c.path] = c
	}
	var out []lang.APIChange
	for _, ch := range apidiff.ModuleChanges(old, &apidiff.Module{Path: m.headPath}).Changes {
		s, detail, _ := strings.Cut(ch.Message, ": ")
		c := byPath[strings.TrimPrefix(s, "package ")]
		if ch.Compatible || c == nil {
			continue
		}
		first := fset.Position(c.files[0].Package)
		at := lang.Place{File: first.Filename, Pos: lang.Pos{Line: first.Line, Column: first.Column}}
		out = append(out, lang.APIChange{Package: c.path, Dir: c.dir, Subject: s, Detail: detail, Name: c.path, Removed: true, Head: at, Base: at})
	}
	return out
}

// modulePathChange reports a go.mod whose module path changed: every importer breaks.
func modulePathChange(m *module) lang.APIChange {
	line := func(src []byte) lang.Place {
		at := lang.Place{File: m.goMod.Path, Pos: lang.Pos{Line: 1, Column: 1}}
		if f, err := modfile.ParseLax(m.goMod.Path, src, nil); err == nil && f.Module != nil {
			at.Pos = lang.Pos{Line: f.Module.Syntax.Start.Line, Column: f.Module.Syntax.Start.LineRune}
		}
		return at
	}
	return lang.APIChange{
		Package: m.basePath, Dir: m.dir, Subject: "module " + m.basePath,
		Detail: fmt.Sprintf("path changed from %s to %s", m.basePath, m.headPath),
		Name:   m.basePath, Head: line(m.goMod.Head), Base: line(m.goMod.Base),
	}
}
