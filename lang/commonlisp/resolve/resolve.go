package resolve

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
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
	lang.SortProblems(out)
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
		w.addExports(files[p].ix.Exports, fromProject)
	}
	for _, p := range paths {
		w.noteUnread(files[p])
	}
	for _, p := range paths {
		w.addDefs(files[p].ix.Definitions, false)
	}
	for _, p := range paths {
		w.noteMacroDefined(files[p].rf.Forms)
	}
	w.loadDeclared()
	loaded := loadedFiles(asds)
	for _, f := range changed {
		if otherLisp(f.Path, asds, files, loaded) {
			continue
		}
		out = append(out, w.check(files[f.Path])...)
	}
	for _, p := range sortedKeys(asds) {
		if isChanged(changed, p) {
			out = append(out, w.droppedDependencies(asds[p], p, files, changed)...)
		}
	}
	return out
}

// loadedFiles returns the repository paths of the source files the systems of asds load
// under SBCL's features.
func loadedFiles(asds map[string]*asdf.ASD) map[string]bool {
	out := map[string]bool{}
	for p, a := range asds {
		for _, s := range a.Systems {
			for _, f := range s.SourceFiles() {
				out[path.Join(path.Dir(p), f)] = true
			}
		}
	}
	return out
}

// otherLisp reports whether file is a component an .asd file names but loads only on
// other implementations (#+abcl (:file "impl-abcl"), :if-feature): its code is read by
// another Lisp, with other packages, and is not checked against SBCL's.
func otherLisp(file string, asds map[string]*asdf.ASD, files map[string]*projectFile, loaded map[string]bool) bool {
	if loaded[file] || path.Ext(file) == ".asd" {
		return false
	}
	stem := strings.ToLower(strings.TrimSuffix(path.Base(file), path.Ext(file)))
	for p := range asds {
		if !underDir(path.Dir(file), path.Dir(p), true) {
			continue
		}
		src := strings.ToLower(string(files[p].src))
		if strings.Contains(src, `"`+stem+`"`) || strings.Contains(src, ":"+stem+")") || strings.Contains(src, ":"+stem+" ") {
			return true
		}
	}
	return false
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

// noteUnread marks the packages a file with syntax errors has code in as incomplete: a
// definition may be in what could not be read. It records the dispatch macro
// characters the file defines.
func (w *world) noteUnread(pf *projectFile) {
	for _, f := range pf.rf.Forms {
		w.noteDeep(f, 0)
		w.noteUsePackage(pf, f)
	}
	if len(pf.rf.Errors) == 0 {
		return
	}
	w.unread = append(w.unread, pf.src)
	names := []string{index.DefaultPackage}
	for _, ip := range pf.ix.InPackages {
		names = append(names, ip.Name)
	}
	for _, n := range names {
		if p := w.pkgs[n]; p != nil && p.origin == fromProject {
			p.incomplete = true
		}
	}
}

// noteDeep records, anywhere in f (macro templates included), the sub-characters of
// (set-dispatch-macro-character #\# #\x …) forms and named-readtables'
// (:dispatch-macro-char #\# #\x …) options, and the names of packages made by
// defpackage or make-package forms the index does not see (in a macro's expansion).
func (w *world) noteDeep(f *reader.Form, depth int) {
	if depth > 64 {
		return
	}
	for _, x := range f.Items {
		w.noteDeep(x, depth+1)
	}
	h := f.Head()
	if f.Kind != reader.List || h == nil || len(f.Items) < 2 {
		return
	}
	if len(f.Items) > 2 && f.Items[2].Kind == reader.Char &&
		(h.IsSymbol("SET-DISPATCH-MACRO-CHARACTER") || h.IsKeyword("DISPATCH-MACRO-CHAR")) {
		w.dispatch[strings.ToUpper(f.Items[2].Name)] = true
	}
	if h.Kind == reader.Symbol && (h.Name == "DEFPACKAGE" || h.Name == "DEFINE-PACKAGE" || h.Name == "MAKE-PACKAGE") {
		w.noteMade(f.Items[1])
	}
}

// noteMade records the package name n (a symbol, a string, or either quoted) designates.
func (w *world) noteMade(n *reader.Form) {
	if n.Kind == reader.Quote {
		n = n.Items[0]
	}
	if n.Kind == reader.Symbol || n.Kind == reader.String {
		w.made[n.Name] = true
	}
}

// noteUsePackage adds the packages of a top-level (use-package …) to the package in
// effect there.
func (w *world) noteUsePackage(pf *projectFile, f *reader.Form) {
	h := f.Head()
	if h == nil || !h.IsSymbol("USE-PACKAGE") || len(f.Items) != 2 {
		return
	}
	p := w.pkgs[pf.ix.PackageAt(f.Span.Start.Offset)]
	if p == nil || p.origin != fromProject {
		return
	}
	arg := f.Items[1]
	if arg.Kind == reader.Quote {
		arg = arg.Items[0]
	}
	for _, x := range append([]*reader.Form{arg}, listItems(arg)...) {
		if x.Kind == reader.Symbol || x.Kind == reader.String {
			p.use = append(slices.Clip(p.use), x.Name)
		}
	}
}

// customDispatch reports whether a syntax error is an unknown dispatch macro character
// the project defines (its forms are unread, and their packages incomplete).
func (w *world) customDispatch(msg string) bool {
	i := strings.LastIndex(msg, "#")
	return strings.HasPrefix(msg, "unknown dispatch macro character") && i >= 0 && w.dispatch[strings.ToUpper(msg[i+1:])]
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
			w.addExports(sys.exports, fromDep)
			w.addDefs(sys.defs, true)
		}
	}
}

// check reports the problems of one changed file.
func (w *world) check(pf *projectFile) []lang.Problem {
	rep := &reporter{path: pf.path, missingNoted: map[string]bool{}, loads: runtimeLoads(pf.rf.Forms, pf.src)}
	forms := pf.rf.Forms
	for _, e := range pf.rf.Errors {
		if computedFeature(e.Msg) {
			// The reader cannot evaluate #+#.(…), and may have lost the #+/#- of the forms
			// it resumed at: only the forms before it are checked.
			forms = formsBefore(forms, e.Pos.Offset)
			continue
		}
		if w.customDispatch(e.Msg) {
			continue // a reader macro the project defines: not a syntax error once loaded
		}
		rep.problems = append(rep.problems, lang.Problem{Kind: lang.SyntaxErrorKind,
			Location: lang.Location{File: pf.path, Line: max(e.Pos.Line, 1), Column: e.Pos.Column},
			Message:  e.Msg, Symbol: pf.path})
	}
	k := &walker{w: w, file: pf, rep: rep}
	k.defpackages(forms)
	for _, f := range forms {
		k.qualified(f)
	}
	for _, f := range forms {
		k.form(f, nil)
	}
	return rep.problems
}

// unreadDefines reports whether the text of a project file that did not read cleanly
// has a defining form for name, which the index may have missed.
func (w *world) unreadDefines(name string) bool {
	re, err := regexp.Compile(`(?i)\(def[a-z-]*\s+(\(setf\s+)?\|?` + regexp.QuoteMeta(name) + `[\s)|]`)
	if err != nil {
		return true
	}
	for _, src := range w.unread {
		if re.Match(src) {
			return true
		}
	}
	return false
}

// computedFeature reports whether a syntax error is a #+/#- feature expression computed
// by #., which is valid Lisp the reader cannot evaluate.
func computedFeature(msg string) bool { return strings.Contains(msg, "feature expression: #.") }

// formsBefore returns the forms that end before offset.
func formsBefore(forms []*reader.Form, offset int) []*reader.Form {
	for i, f := range forms {
		if f.Span.End.Offset > offset {
			return forms[:i]
		}
	}
	return forms
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
