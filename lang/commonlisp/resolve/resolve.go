package resolve

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/asdf"
	"github.com/agentverify/agentverify/lang/commonlisp/index"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// MemoKey is the key of a verification's dependency loader in lang.Request.Memo.
const MemoKey = "commonlisp/resolve.Deps"

// Resolver checks the Common Lisp files of a change against their world.
type Resolver struct {
	// Features are the #+/#- features; nil means reader.DefaultFeatures().
	Features []string
	// Deps, when set, is shared by every verification (a long-lived process); else each
	// verification gets one in its Memo.
	Deps *Deps
}

// Resolve reports the problems of the changed Common Lisp files (design.md §5): syntax
// errors, undefined functions, unknown packages and symbols, wrong argument counts,
// unknown keyword arguments, undeclared and missing dependencies.
func (r Resolver) Resolve(req *lang.Request) ([]lang.Problem, error) {
	deps := r.Deps
	if deps == nil && req.Memo != nil {
		deps = req.Memo.Get(MemoKey, func() any { return NewDeps(nil, r.Features) }).(*Deps)
	}
	if deps == nil {
		deps = NewDeps(nil, r.Features)
	}
	head := req.Changes.HeadFS
	if head == nil {
		head = os.DirFS(req.Changes.Root)
	}
	groups := map[string][]*change.File{}
	trees := map[string]bool{}
	for _, f := range req.Changes.Files {
		if !f.Analyzable() || !lispFile(f.Path) || req.Focus != nil && !req.Focus[f.Path] {
			continue
		}
		dir, tree := systemDir(head, f.Path)
		groups[dir] = append(groups[dir], f)
		trees[dir] = tree
	}
	dirs := make([]string, 0, len(groups))
	for d := range groups {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	var out []lang.Problem
	repo := &repoSystems{features: r.Features}
	for _, d := range dirs {
		if err := req.Context.Err(); err != nil {
			return nil, err
		}
		out = append(out, r.resolveGroup(head, d, trees[d], groups[d], deps, repo)...)
	}
	out = append(out, unverifiedFiles(req)...)
	sortProblems(out)
	return out, nil
}

// resolveGroup checks the changed files of one system directory.
func (r Resolver) resolveGroup(head fs.FS, dir string, tree bool, changed []*change.File, deps *Deps, repo *repoSystems) []lang.Problem {
	opts := reader.Options{Features: r.Features}
	w := newWorld(deps)
	files := map[string]*projectFile{}
	for _, f := range changed {
		files[f.Path] = w.deps.file(f.Path, f.Head, opts)
	}
	asds := w.gather(head, dir, tree, files, repo, opts)
	var out []lang.Problem
	for _, p := range sortedKeys(asds) {
		if problems := w.loadDeps(asds[p], p); isChanged(changed, p) {
			out = append(out, problems...)
		}
	}
	paths := sortedKeys(files)
	for _, p := range paths {
		pf := files[p]
		w.addPackages(pf.ix.Packages, fromProject, "", len(pf.rf.Errors) > 0)
	}
	for _, p := range paths {
		pf := files[p]
		w.addDefs(pf.ix.Definitions, false)
		w.noteMacroDefined(pf.rf.Forms)
	}
	w.loadDeclared()
	for _, f := range changed {
		out = append(out, w.check(files[f.Path])...)
	}
	return out
}

// gather reads the project files of the world rooted at dir into files, and those of
// the systems of the repository that its .asd files depend on (a test system's main
// system, a sibling system of a monorepo: the repository's version, not an installed
// one), and declares the systems of every .asd file read. It returns the .asd files.
func (w *world) gather(head fs.FS, dir string, tree bool, files map[string]*projectFile, repo *repoSystems, opts reader.Options) map[string]*asdf.ASD {
	asds := map[string]*asdf.ASD{}
	dirs, seen := []string{dir}, map[string]bool{dir: true}
	for len(dirs) > 0 {
		d := dirs[0]
		dirs = dirs[1:]
		for _, p := range projectPaths(head, d, tree || d != dir) {
			if files[p] == nil {
				src, err := fs.ReadFile(head, p)
				if err != nil {
					continue
				}
				files[p] = w.deps.file(p, src, opts)
			}
			if !files[p].asd || asds[p] != nil {
				continue
			}
			asds[p] = asdf.Parse(p, files[p].src, opts)
			w.hasASD = true
			w.declare(asds[p])
		}
		for _, name := range sortedKeys(w.declared) {
			if sd, ok := repo.dir(head, name); ok && !seen[sd] && !underDir(sd, dir, tree) {
				seen[sd] = true
				dirs = append(dirs, sd)
			}
			if _, ok := repo.dir(head, name); ok {
				w.self[name] = true
			}
		}
	}
	return asds
}

// underDir reports whether d is dir or, for a tree, below it.
func underDir(d, dir string, tree bool) bool {
	return d == dir || tree && (dir == "." || strings.HasPrefix(d, dir+"/"))
}

func isChanged(changed []*change.File, p string) bool {
	for _, f := range changed {
		if f.Path == p {
			return true
		}
	}
	return false
}

func readFile(p string, src []byte, opts reader.Options) *projectFile {
	rf := reader.Read(src, opts)
	return &projectFile{path: p, src: src, rf: rf, ix: index.Build(rf), asd: path.Ext(p) == ".asd"}
}

// loadDeps notes the declared dependencies of an .asd file that are missing, with the
// problems to report at their place in it when the change touches it (the uses in
// changed files are reported too); the found ones are loaded by loadDeclared.
func (w *world) loadDeps(a *asdf.ASD, file string) []lang.Problem {
	var out []lang.Problem
	for _, s := range a.Systems {
		for _, d := range append(append([]asdf.Dependency(nil), s.DefsystemDependsOn...), s.DependsOn...) {
			if w.selfSystem(d.Name) || d.Require {
				continue
			}
			sys := w.deps.System(d.Name)
			if sys.problem == "" {
				continue
			}
			if sys.status == asdf.Missing {
				w.missing = append(w.missing, d.Name)
			}
			out = append(out, lang.Problem{Kind: lang.MissingDependency,
				Location: lang.Location{File: file, Line: d.Span.Start.Line, Column: d.Span.Start.Column,
					EndLine: d.Span.End.Line, EndColumn: d.Span.End.Column},
				Message:    fmt.Sprintf("dependency %s could not be verified: %s; what the code uses from it is not checked", d.Name, sys.problem),
				Suggestion: "install the declared dependencies where the verification runs, or fix :depends-on",
				Symbol:     d.Name})
		}
	}
	return out
}

// loadDeclared adds the packages and definitions of the declared dependencies found.
func (w *world) loadDeclared() {
	for _, name := range sortedKeys(w.declared) {
		if w.selfSystem(name) {
			continue
		}
		sys := w.deps.System(name)
		if sys.status == asdf.Found {
			w.addPackages(sys.pkgs, fromDep, name, sys.incomplete || sys.problem != "")
			w.addDefs(sys.defs, true)
		}
	}
}

// check reports the problems of one changed file.
func (w *world) check(pf *projectFile) []lang.Problem {
	rep := &reporter{path: pf.path, missingNoted: map[string]bool{}}
	for _, e := range pf.rf.Errors {
		rep.problems = append(rep.problems, lang.Problem{Kind: lang.SyntaxErrorKind,
			Location: lang.Location{File: pf.path, Line: max(e.Pos.Line, 1), Column: e.Pos.Column},
			Message:  e.Msg, Symbol: pf.path})
	}
	k := &walker{w: w, file: pf, rep: rep}
	k.defpackages(pf.rf.Forms)
	for _, f := range pf.rf.Forms {
		k.qualified(f)
	}
	for _, f := range pf.rf.Forms {
		k.form(f, nil)
	}
	return rep.problems
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortProblems(ps []lang.Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i].Location, ps[j].Location
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return ps[i].Kind < ps[j].Kind
	})
}
