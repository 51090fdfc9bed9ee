package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/agentverify/agentverify/crash"
)

// snapshot is what a cold load of a module leaves for later checks.
type snapshot struct {
	dir     string
	module  Module
	fset    *token.FileSet // shared with the cached dependency types, so positions resolve
	modHash [32]byte
	byDir   map[string][]*pkgState // absolute directory → its package variants
	// build decides whether a file the overlay adds to a package belongs to it; nil when
	// the configuration cannot be reproduced (build tags), and such files need go list.
	build *build.Context
	// src says which imported packages live in files that can change (stamp.go); stamps
	// identifies their content; loaded is when the load that made the snapshot started.
	src    *sources
	env    []string
	stamps *stampCache
	loaded time.Time
	parses parseCache // the syntax of the files re-checked
}

// pkgState is one loaded package variant, enough to re-type-check it alone.
type pkgState struct {
	id, pkgPath, name string
	dir               string
	files             []string
	other, ignored    []string // Package.OtherFiles and IgnoredFiles
	listing           string   // the .go file names of dir, as seen at load time
	imports           map[string]*Import
	sizes             types.Sizes
	goVersion         string
	deps              map[string]string // mutable dependency directory → fingerprint
	stamps            *stampCache
	infoSize          infoSize // how large its last re-check's types.Info grew
}

var errUncacheable = errors.New("package cannot be re-checked without go list")

// addState records p in snap for the warm path, or fails when p cannot be re-checked by
// go/types alone (cgo, no files, no module).
func addState(snap *snapshot, p *packages.Package, pkg *Package, overlay map[string][]byte) error {
	if snap == nil {
		return errUncacheable
	}
	if p.Types == nil || p.Module == nil || len(p.CompiledGoFiles) == 0 ||
		len(p.CompiledGoFiles) != len(p.GoFiles) || len(p.Syntax) != len(p.CompiledGoFiles) {
		return errUncacheable
	}
	st := &pkgState{
		id: p.ID, pkgPath: p.PkgPath, name: p.Name,
		dir:       filepath.Dir(p.CompiledGoFiles[0]),
		files:     p.CompiledGoFiles,
		other:     p.OtherFiles,
		ignored:   p.IgnoredFiles,
		imports:   pkg.Imports,
		sizes:     p.TypesSizes,
		goVersion: p.Module.GoVersion,
		deps:      map[string]string{},
		stamps:    snap.stamps,
	}
	st.listing = listing(st.dir, overlay)
	if snap.src == nil {
		snap.src = newSources(snap.dir, p.Module.Path, snap.env)
	}
	seen := map[string]bool{}
	var walk func(*types.Package)
	walk = func(tp *types.Package) {
		for _, ip := range tp.Imports() {
			path := ip.Path()
			if seen[path] {
				continue
			}
			seen[path] = true
			dir, mutable := snap.src.dirOf(path)
			if !mutable {
				continue
			}
			st.deps[dir] = snap.stamps.fingerprint(dir, overlay, snap.loaded)
			walk(ip)
		}
	}
	walk(p.Types)
	snap.byDir[st.dir] = append(snap.byDir[st.dir], st)
	return nil
}

// listing returns the sorted .go file names of dir on disk and in the overlay, without
// those the overlay marks absent.
func listing(dir string, overlay map[string][]byte) string {
	names := map[string]bool{}
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".go") && !e.IsDir() {
				names[e.Name()] = true
			}
		}
	}
	for p, content := range overlay {
		if filepath.Dir(p) == dir && strings.HasSuffix(p, ".go") {
			names[filepath.Base(p)] = !isAbsent(content)
		}
	}
	for n, present := range names {
		if !present {
			delete(names, n)
		}
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	return strings.Join(list, "\n")
}

// warm re-checks the packages of req with go/types alone when nothing but the content of
// their files changed since the cold load; ok is false when a cold load is needed.
func (s *snapshot) warm(ctx context.Context, req Request) (*Result, bool, error) {
	states, files, ok := s.reusable(req)
	if !ok {
		return nil, false, nil
	}
	order, ok := importOrder(states)
	if !ok || anyStale(order) {
		return nil, false, nil
	}
	res := &Result{Module: s.module, Fset: s.fset, Warm: true}
	fresh := map[string]*types.Package{}
	twins := map[*pkgState]*pkgState{}
	if req.StandIns {
		twins = testTwins(order, files)
	}
	checked := map[*pkgState]*Package{}
	for _, wave := range waves(order) {
		wave = slices.DeleteFunc(slices.Clone(wave), func(st *pkgState) bool { return twins[st] != nil })
		if ok, err := s.recheckAll(ctx, wave, files, req.Overlay, fresh, checked); !ok || err != nil {
			return nil, false, err
		}
	}
	// A package whose test variant cannot stand for it is checked on its own, after
	// every package it could import.
	var alone []*pkgState
	for _, st := range order {
		if t := twins[st]; t != nil && !standsFor(checked[t], files[st]) {
			alone = append(alone, st)
		}
	}
	if ok, err := s.recheckAll(ctx, alone, files, req.Overlay, fresh, checked); !ok || err != nil {
		return nil, false, err
	}
	for _, st := range order {
		if p := checked[st]; p != nil {
			res.Packages = append(res.Packages, p)
		}
	}
	sortPackages(res.Packages)
	return res, true, nil
}

// anyStale reports whether a package of order is stale through an import (staleThrough).
// That depends only on which packages come before it in order, all of them re-checked
// with new types: decided for all first, so the re-checks can run in waves.
func anyStale(order []*pkgState) bool {
	before := map[string]*types.Package{}
	for _, st := range order {
		if staleThrough(st, before) {
			return true
		}
		before[st.id] = types.NewPackage(st.pkgPath, st.name)
	}
	return false
}

// recheckAll re-checks the states of one wave side by side, recording each in checked
// and its types in fresh for the waves after it; ok is false when one needs go list.
func (s *snapshot) recheckAll(ctx context.Context, wave []*pkgState, files map[*pkgState][]string, overlay map[string][]byte, fresh map[string]*types.Package, checked map[*pkgState]*Package) (ok bool, _ error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	pkgs := make([]*Package, len(wave))
	oks := make([]bool, len(wave))
	errs := make([]error, len(wave))
	var g crash.Group
	for i, st := range wave {
		g.Go(func() { pkgs[i], oks[i], errs[i] = s.recheck(st, files[st], overlay, fresh) })
	}
	if err := g.Wait(); err != nil {
		return false, err
	}
	for i, st := range wave {
		if errs[i] != nil || !oks[i] {
			return false, errs[i]
		}
		fresh[st.id] = pkgs[i].Types
		checked[st] = pkgs[i]
	}
	return true, nil
}

// reusable returns the package states to re-check for req with the files of each in the
// tree req describes, and false when something the snapshot does not track changed:
// go.mod, go.sum or go.work, a file list only go list can settle, an in-module
// dependency, or content of another module (a workspace's) in the overlay.
func (s *snapshot) reusable(req Request) ([]*pkgState, map[*pkgState][]string, bool) {
	if modHash(req.Dir, req.Overlay) != s.modHash {
		return nil, nil, false
	}
	for p := range req.Overlay {
		if rel, err := filepath.Rel(s.dir, p); err != nil || strings.HasPrefix(rel, "..") {
			return nil, nil, false
		}
	}
	targets := map[string]bool{}
	var states []*pkgState
	for _, f := range req.Files {
		dir := filepath.Dir(f)
		if targets[dir] {
			continue
		}
		targets[dir] = true
		sts := s.byDir[dir]
		if len(sts) == 0 {
			return nil, nil, false
		}
		states = append(states, sts...)
	}
	files := map[*pkgState][]string{}
	for _, st := range states {
		fs, ok := s.viewFiles(st, req.Overlay)
		if !ok || !st.depsUnchanged(targets, req.Overlay) {
			return nil, nil, false
		}
		files[st] = fs
	}
	return states, files, true
}

// depsUnchanged reports whether st's dependencies whose files can change (in the module,
// the workspace, a directory replacement, vendor) outside targets are as they were when
// loaded, by content.
func (st *pkgState) depsUnchanged(targets map[string]bool, overlay map[string][]byte) bool {
	for dir, fp := range st.deps {
		if !targets[dir] && st.stamps.fingerprint(dir, overlay, time.Time{}) != fp {
			return false
		}
	}
	return true
}

// importOrder orders states so that each comes after the states it imports.
func importOrder(states []*pkgState) ([]*pkgState, bool) {
	byID := map[string]*pkgState{}
	for _, st := range states {
		byID[st.id] = st
	}
	done := map[string]bool{}
	var order []*pkgState
	for len(order) < len(states) {
		progress := false
		for _, st := range states {
			if done[st.id] {
				continue
			}
			ready := true
			for _, im := range st.imports {
				if byID[im.ID] != nil && !done[im.ID] && im.ID != st.id {
					ready = false
				}
			}
			if ready {
				done[st.id], progress = true, true
				order = append(order, st)
			}
		}
		if !progress {
			return nil, false // an import cycle: let go list report it
		}
	}
	return order, true
}

// waves splits order (each state after the states it imports) into runs of states that
// import none of each other, to re-check side by side: a package and its test variant
// are one wave, their external tests the next. Each wave only reads the map of the
// packages re-checked before it.
func waves(order []*pkgState) [][]*pkgState {
	level := map[string]int{}
	var out [][]*pkgState
	for _, st := range order {
		l := 0
		for _, im := range st.imports {
			if dl, ok := level[im.ID]; ok && im.ID != st.id {
				l = max(l, dl+1)
			}
		}
		level[st.id] = l
		for len(out) <= l {
			out = append(out, nil)
		}
		out[l] = append(out[l], st)
	}
	return out
}

func (s *snapshot) recheck(st *pkgState, files []string, overlay map[string][]byte, fresh map[string]*types.Package) (*Package, bool, error) {
	syntax, errs, err := parseFiles(s.fset, files, overlay, &s.parses)
	if err != nil {
		return nil, false, nil // a file vanished: let go list say what the package is now
	}
	if !st.resolves(syntax, fresh) {
		return nil, false, nil
	}
	errs = append(errs, st.internalImports(s.fset, syntax)...)
	pkg := &Package{
		ID: st.id, PkgPath: st.pkgPath, Name: st.name, Files: files, Syntax: syntax,
		TypesSizes: st.sizes, Imports: st.imports, Errors: errs,
		Info: st.infoSize.newInfo(syntax), OtherFiles: st.other, IgnoredFiles: st.ignored,
	}
	if len(syntax) != len(files) {
		return nil, false, nil
	}
	cfg := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			im := st.imports[path]
			if im == nil {
				return nil, fmt.Errorf("could not import %s (not in the loaded import graph)", path)
			}
			if t := fresh[im.ID]; t != nil {
				return t, nil
			}
			return im.Types, nil
		}),
		Sizes: st.sizes,
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				pkg.Errors = append(pkg.Errors, Error{Kind: TypeError, Pos: te.Fset.Position(te.Pos), Msg: te.Msg, Soft: te.Soft})
			}
		},
	}
	if st.goVersion != "" {
		cfg.GoVersion = "go" + st.goVersion
	}
	pkg.Types, _ = cfg.Check(st.pkgPath, s.fset, syntax, pkg.Info)
	st.infoSize.record(pkg.Info)
	return pkg, true, nil
}

// resolves reports whether syntax is still st's package with imports the snapshot
// resolves (from its types, or re-checked before it in fresh): a renamed package, or a
// new or unresolved import, needs go list.
func (st *pkgState) resolves(syntax []*ast.File, fresh map[string]*types.Package) bool {
	for _, f := range syntax {
		if f.Name == nil || f.Name.Name != st.name {
			return false
		}
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				continue // a parse error already says so
			}
			im := st.imports[path]
			if im == nil || len(im.Errors) > 0 || im.Types == nil && fresh[im.ID] == nil {
				return false
			}
		}
	}
	return true
}

// internalImports returns the go command's error for each import of an internal package
// st may not import ("use of internal package … not allowed"): one that only the tree
// rooted at the internal directory's parent may import, the standard library's to it
// alone. go list reports it on the importing package, which a re-check by path does not
// ask; go/types alone would accept the import.
func (st *pkgState) internalImports(fset *token.FileSet, syntax []*ast.File) []Error {
	importer := st.pkgPath
	if strings.Contains(st.id, "_test [") { // an external test imports as its package does
		importer = strings.TrimSuffix(importer, "_test")
	}
	var out []Error
	for _, f := range syntax {
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil || internalVisible(importer, path) {
				continue
			}
			out = append(out, Error{Kind: ListError, Pos: fset.Position(spec.Path.Pos()), Msg: "use of internal package " + path + " not allowed"})
		}
	}
	return out
}

// internalVisible reports whether importer may import path by the go command's rule for
// internal packages: a path with an "internal" element is importable only from the tree
// rooted at that element's parent (for the standard library's, "internal/…" or
// "crypto/internal/…", the standard library: never from a module's package).
func internalVisible(importer, path string) bool {
	parent, ok := "", true
	switch {
	case strings.HasPrefix(path, "internal/") || path == "internal":
		parent, ok = "", false
	case strings.HasSuffix(path, "/internal"):
		parent, ok = strings.TrimSuffix(path, "/internal"), false
	default:
		if i := strings.LastIndex(path, "/internal/"); i >= 0 {
			parent, ok = path[:i], false
		}
	}
	if ok {
		return true // not internal
	}
	if parent == "" {
		return false // the standard library's own
	}
	return importer == parent || strings.HasPrefix(importer, parent+"/")
}

// staleThrough reports whether an import of st that is not re-checked depends on one that
// is (top imports base directly and through mid, base and top are re-checked): mid's
// types refer to the old base, the re-check would see two packages of one path and
// report "cannot use *base.T as *base.T". Such a package is loaded anew instead. A
// package go list recompiled for a test is one such mid: "obs [core.test]", imported by
// core's external test, names the types of core's test variant, which a re-check of
// core's directory makes anew ("cannot use zapcore.Entry as zapcore.Entry").
func staleThrough(st *pkgState, fresh map[string]*types.Package) bool {
	if len(fresh) == 0 {
		return false
	}
	byPath := map[string]*types.Package{}
	for _, t := range fresh {
		if t != nil {
			byPath[t.Path()] = t
		}
	}
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package) bool
	visit = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		for _, ip := range p.Imports() {
			if f := byPath[ip.Path()]; f != nil && f != ip || visit(ip) {
				return true
			}
		}
		return false
	}
	for _, im := range st.imports {
		if im.Types != nil && fresh[im.ID] == nil && visit(im.Types) {
			return true
		}
	}
	return false
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// viewFiles returns the files of st in the tree the overlay describes: its files at load
// time without those the overlay marks absent or gives content its build constraint now
// excludes, plus the files the overlay adds to its directory or gives content that now
// belongs to st (by package clause, test suffix and build constraints). ok is false when
// the directory changed in a way only go list can settle.
func (s *snapshot) viewFiles(st *pkgState, overlay map[string][]byte) ([]string, bool) {
	files, ok := s.keptFiles(st, overlay)
	if !ok {
		return nil, false
	}
	then := map[string]bool{}
	for _, n := range strings.Split(st.listing, "\n") {
		then[n] = true
	}
	in := map[string]bool{}
	for _, f := range st.files {
		in[f] = true
	}
	for _, name := range strings.Split(listing(st.dir, overlay), "\n") {
		abs := filepath.Join(st.dir, name)
		if then[name] {
			delete(then, name)
			if _, over := overlay[abs]; !over || in[abs] {
				continue // as at load time, or decided by keptFiles
			}
		}
		belongs, ok := s.belongs(st, abs, overlay)
		if !ok {
			return nil, false
		}
		if belongs {
			files = append(files, abs)
		}
	}
	for name := range then {
		if name != "" && !isAbsent(overlay[filepath.Join(st.dir, name)]) {
			return nil, false // a file that vanished from the disk needs go list
		}
	}
	sortFiles(files)
	return files, len(files) > 0 // with no file left, let go list say what it is now
}

// sortFiles puts files in go list's order: a package's files, then its tests' (a test
// variant's CompiledGoFiles), each by name. The order is go/types' too: which of two
// declarations of a name is reported as redeclared.
func sortFiles(files []string) {
	sort.Slice(files, func(i, j int) bool {
		ti, tj := strings.HasSuffix(files[i], "_test.go"), strings.HasSuffix(files[j], "_test.go")
		if ti != tj {
			return tj
		}
		return files[i] < files[j]
	})
}

// keptFiles returns st's files at load time that are still in it: not marked absent, and
// when the overlay gives one other content, still matching the build constraints.
func (s *snapshot) keptFiles(st *pkgState, overlay map[string][]byte) ([]string, bool) {
	var files []string
	for _, f := range st.files {
		src, over := overlay[f]
		switch {
		case isAbsent(src):
			continue
		case over:
			match, ok := s.matchFile(st.dir, f, src)
			if !ok {
				return nil, false
			}
			if !match {
				continue
			}
		}
		files = append(files, f)
	}
	return files, true
}

// matchFile reports whether the file abs with content src is in the build of the
// snapshot's configuration; ok is false when that cannot be decided without go list.
func (s *snapshot) matchFile(dir, abs string, src []byte) (match, ok bool) {
	if s.build == nil {
		return false, false
	}
	ctxt := *s.build
	ctxt.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(src)), nil }
	match, err := ctxt.MatchFile(dir, filepath.Base(abs))
	return match, err == nil
}

// belongs reports whether abs, a Go file only the overlay holds, is part of variant st;
// ok is false when that cannot be decided without go list.
func (s *snapshot) belongs(st *pkgState, abs string, overlay map[string][]byte) (in, ok bool) {
	src, added := overlay[abs]
	if !added || s.build == nil {
		return false, false
	}
	if isAbsent(src) {
		return false, true
	}
	match, ok := s.matchFile(st.dir, abs, src)
	if !ok || !match {
		return false, ok
	}
	f, err := parser.ParseFile(token.NewFileSet(), abs, src, parser.PackageClauseOnly)
	if err != nil || f.Name == nil {
		return false, false
	}
	claims := func(v *pkgState) bool {
		switch {
		case !strings.HasSuffix(abs, "_test.go"):
			return f.Name.Name == v.name && !strings.HasSuffix(v.name, "_test")
		case strings.HasSuffix(f.Name.Name, "_test"):
			return f.Name.Name == v.name
		}
		return strings.Contains(v.id, " [") && f.Name.Name == v.name
	}
	for _, v := range s.byDir[st.dir] {
		if claims(v) {
			return claims(st), true
		}
	}
	return false, false // no variant takes it (a first test file, another package name)
}

// buildContext returns the go/build configuration of env and the build tags of a Build
// for deciding which files belong to a package, or nil when env sets build tags it does
// not model.
func buildContext(env, tags []string) *build.Context {
	ctxt := build.Default
	ctxt.BuildTags = tags
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "GOOS":
			ctxt.GOOS = v
		case "GOARCH":
			ctxt.GOARCH = v
		case "CGO_ENABLED":
			ctxt.CgoEnabled = v == "1"
		case "GOFLAGS":
			if strings.Contains(v, "-tags") {
				return nil
			}
		}
	}
	return &ctxt
}
