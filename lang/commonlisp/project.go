package commonlisp

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/index"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// A project is what the Lisp files of one side of a repository define: the read and
// indexed files, and the packages by name and nickname. The semantics (API comparison,
// broken callers) and style (exports declared in another file's defpackage) need the
// whole repository, since a Lisp package's :export is rarely in the file that defines
// the function. One is built per side of a change and kept in the verification's Memo;
// the base reuses the head's reading of every file the change does not touch.
type project struct {
	files    map[string]*projFile
	packages map[string]*projPackage // upper-case name or nickname → package
}

// projFile is one read and indexed file.
type projFile struct {
	path string
	src  []byte
	rf   *reader.File
	ix   *index.File
}

// projPackage is a defpackage with the file it is in.
type projPackage struct {
	index.Package
	file string
}

// Limits of a project walk: a repository with more Lisp than this is read partially,
// which can only hide callers (never invent findings).
const (
	maxProjectFiles = 5000
	maxProjectFile  = 5 << 20
)

func readFile(p string, src []byte, features []string) *projFile {
	rf := reader.Read(src, reader.Options{Features: features})
	return &projFile{path: p, src: src, rf: rf, ix: index.Build(rf)}
}

// projectFor returns the project of one side of req's change. It is built once per
// verification: the Memo holds a holder (Memo.Get runs under a lock, so the reading is
// done outside it, once).
func (fe *Frontend) projectFor(req *lang.Request, side change.Side) (*project, error) {
	key := fmt.Sprintf("commonlisp/project %p %d", req.Changes, side)
	newHolder := func() any { return &projectHolder{} }
	var h *projectHolder
	if req.Memo != nil {
		h = req.Memo.Get(key, newHolder).(*projectHolder)
	} else {
		h = newHolder().(*projectHolder)
	}
	h.once.Do(func() {
		var shared *project
		if side == change.Base {
			if shared, h.err = fe.projectFor(req, change.Head); h.err != nil {
				return
			}
		}
		h.p, h.err = fe.loadProject(req, side, shared)
	})
	return h.p, h.err
}

type projectHolder struct {
	once sync.Once
	p    *project
	err  error
}

// loadProject reads every Lisp file of one side: the files of the change from their
// content, the others from the side's file system (taken from shared, the head's
// project, when building the base).
func (fe *Frontend) loadProject(req *lang.Request, side change.Side, shared *project) (*project, error) {
	set := req.Changes
	p := &project{files: map[string]*projFile{}, packages: map[string]*projPackage{}}
	changed := map[string]bool{}
	for _, f := range set.Files {
		changed[f.Path] = true
		if f.OldPath != "" {
			changed[f.OldPath] = true
		}
		name := f.Path
		if side == change.Base && f.OldPath != "" {
			name = f.OldPath
		}
		src := f.Content(side)
		if src == nil || f.Binary || f.Symlink || f.TooLarge || !fe.Match(name) {
			continue
		}
		p.files[name] = readFile(name, src, fe.Features)
	}
	fsys := set.HeadFS
	if side == change.Base {
		fsys = set.BaseFS
	}
	if err := fe.walk(req, fsys, changed, shared, p); err != nil {
		return nil, err
	}
	p.indexPackages()
	return p, nil
}

// walk reads the Lisp files of fsys that the change does not touch into p.
func (fe *Frontend) walk(req *lang.Request, fsys fs.FS, changed map[string]bool, shared *project, p *project) error {
	if fsys == nil {
		return nil
	}
	n := 0
	return fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable directory hides callers, never invents them
		}
		if read, err := fe.wanted(name, d, changed); !read || n >= maxProjectFiles {
			return err
		}
		if err := ctxErr(req); err != nil {
			return err
		}
		n++
		if shared != nil && shared.files[name] != nil {
			p.files[name] = shared.files[name]
		} else if pf := fe.readFS(fsys, name, d); pf != nil {
			p.files[name] = pf
		}
		return nil
	})
}

// wanted says whether a walk reads the entry: a Lisp file the change does not touch;
// hidden directories (.git) and node_modules are skipped.
func (fe *Frontend) wanted(name string, d fs.DirEntry, changed map[string]bool) (bool, error) {
	switch {
	case d.IsDir() && name != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules"):
		return false, fs.SkipDir
	case d.IsDir() || changed[name] || !fe.Match(name) || !d.Type().IsRegular():
		return false, nil
	}
	return true, nil
}

// readFS reads one file of a project walk; nil when it is too large or unreadable.
func (fe *Frontend) readFS(fsys fs.FS, name string, d fs.DirEntry) *projFile {
	if info, err := d.Info(); err != nil || info.Size() > maxProjectFile {
		return nil
	}
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil
	}
	return readFile(name, src, fe.Features)
}

// indexPackages collects the defpackages of every file, in path order, and adds what the
// files' top-level (export …) forms export to the packages they name. A package
// defined in several files (a copy under a build directory, a defpackage repeated for
// another implementation) is the first, exporting what any of them exports: the
// comparison then never reports an export as removed that one definition still has.
func (p *project) indexPackages() {
	for _, name := range p.paths() {
		for _, pk := range p.files[name].ix.Packages {
			if pp := p.packages[pk.Name]; pp != nil {
				pp.Export = append(pp.Export, pk.Export...)
				continue
			}
			pp := &projPackage{Package: pk, file: name}
			pp.Export = append([]index.Symbol(nil), pk.Export...) // not the index's array
			for _, n := range append([]string{pk.Name}, pk.Nicknames...) {
				if p.packages[n] == nil {
					p.packages[n] = pp
				}
			}
		}
	}
	for _, name := range p.paths() {
		for _, e := range p.files[name].ix.Exports {
			pp := p.packages[e.Package]
			if pp == nil {
				continue // a package the project does not define
			}
			for _, s := range e.Symbols {
				s.File = name // a top-level (export …), in its own file
				pp.Export = append(pp.Export, s)
			}
		}
	}
}

// paths returns the project's file paths, sorted.
func (p *project) paths() []string {
	out := make([]string, 0, len(p.files))
	for n := range p.files {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// exported reports whether the symbol pkg:name is external in the project's package pkg
// (upper case; nicknames resolved). A package the project does not define exports
// nothing the project can tell.
func (p *project) exported(pkg, name string) bool {
	pp := p.packages[pkg]
	return pp != nil && pp.Exports(name)
}

// canonical returns the name of the package pkg names (through nicknames), or pkg.
func (p *project) canonical(pkg string) string {
	if pp := p.packages[pkg]; pp != nil {
		return pp.Name
	}
	return pkg
}

// Link sets Decl.Exported of lf's declarations from the project at the head of req's
// change: a definition is exported when its package, defined in any file of the
// repository, lists its symbol in :export (lang.Linker). lf is not modified.
func (fe *Frontend) Link(req *lang.Request, lf *lang.File) (*lang.File, error) {
	p, err := fe.projectFor(req, change.Head)
	if err != nil {
		return nil, err
	}
	pf := p.files[lf.Path]
	if pf == nil {
		return lf, nil
	}
	out := *lf
	out.Decls = append([]lang.Decl(nil), lf.Decls...)
	type key struct {
		at   lang.Pos
		name string
	}
	exported := map[key]bool{} // a defstruct's derived names share its name's position
	for _, d := range pf.ix.Definitions {
		if d.TopLevel && p.exported(d.Package, d.Name) {
			exported[key{pos(d.NameSpan.Start), d.Name}] = true
		}
	}
	for i, d := range out.Decls {
		if !d.Test && exported[key{d.NamePos, strings.ToUpper(strings.Trim(d.Name, "|"))}] {
			out.Decls[i].Exported = true
		}
	}
	return &out, nil
}

// dirOf is the directory of a repository-relative path.
func dirOf(p string) string { return path.Dir(p) }

// ctxErr is the request's context error; a request without a context is never cancelled.
func ctxErr(req *lang.Request) error {
	if req.Context == nil {
		return nil
	}
	return req.Context.Err()
}
