package load

import (
	"context"
	"crypto/sha256"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"

	"github.com/agentverify/agentverify/crash"
)

// metaMode lists a module's packages and their whole import graph without type
// information: go/packages then runs `go list` without -export, which would compile every
// listed package, the module's own included, though they are type-checked from source.
const metaMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedTypesSizes | packages.NeedModule

// CheckEach type-checks the packages containing req.Files, as Check does, for a check
// that covers many packages of a module and keeps nothing (design.md §9): the module's
// packages are type-checked from source in dependency order, up to GOMAXPROCS at a time,
// against export data for the packages outside the module, and each checked package is
// given to each (one call at a time) as soon as it is done. Its syntax and type
// information are dropped when each returns; only its *types.Package stays, for the
// packages that import it. The Result given to each has Module, Fset and that one
// package. The errors are those Check reports.
//
// For another build configuration (req.Build) the packages outside the module are
// type-checked from source, declarations only, and dropped as well: export data for
// another port would mean compiling its standard library first.
//
// An overlay (in-memory edits, the base side of a change, files the tree checked does
// not have) is read in place of the disk, by go list and by the type checker; the
// packages outside the module come from export data all the same, for no overlay
// reaches them.
//
// handled is false, and nothing was checked, when req is not for this path: files
// outside a module, an overlay that changes go.mod or go.sum (the module graph is not
// the disk's), or a Request.Choose that prefers Check; the caller then uses Check.
func (l *Loader) CheckEach(ctx context.Context, req Request, each func(*Result) error) (handled bool, err error) {
	req = withAbsent(req)
	if !streamable(req) {
		return false, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	patterns, err := loadPatterns(req, true)
	if err != nil {
		return true, err
	}
	key := req.cacheKey() + "\x00" + strings.Join(patterns, "\x00")
	if req.Choose != nil && (l.declined[key] || l.keptServes(req)) {
		return false, nil
	}
	if kept := l.streamed; req.declOnly && kept.serves(key, req) {
		l.streamed = nil
		return true, kept.replay(each)
	}
	s := &stream{ctx: ctx, dir: req.Dir, env: append(l.Env(req.Dir), req.Build.env()...), flags: req.Build.flags(),
		port: req.Build.key() != (Build{}).key(), depFacts: req.DepFacts, overlay: req.Overlay, declOnly: req.declOnly,
		imports: map[string]map[string]*Import{}, fset: token.NewFileSet(), view: map[string]*types.Package{},
		sourced: map[*packages.Package]*sync.Once{}}
	roots, err := s.list(patterns)
	if err != nil {
		return true, err
	}
	if req.Choose != nil && !req.Choose(s.cost()) {
		l.declined[key] = true
		return false, nil
	}
	l.colds++
	if err := s.sources(); err != nil {
		return true, err
	}
	if err := s.run(roots, each); err != nil || req.declOnly || req.Choose == nil {
		return true, err // a check's stream (no Choose) keeps nothing
	}
	l.streamed = &streamedImports{key: key, overlay: overlayHash(req.Overlay), mod: s.mod, imports: s.imports}
	return true, nil
}

// streamable reports whether CheckEach can serve req: files in a module, and no overlay
// of go.mod or go.sum.
func streamable(req Request) bool {
	if len(req.Files) == 0 || !fileExists(filepath.Join(req.Dir, "go.mod"), nil) {
		return false
	}
	return len(req.Overlay) == 0 || modHash(req.Dir, req.Overlay) == modHash(req.Dir, nil)
}

// sources decides which outside packages come from source: for another port all of
// them, else those go list has no export data for.
func (s *stream) sources() error {
	if s.port {
		s.decideSources()
		return nil
	}
	return s.exportFiles()
}

// streamedImports keeps what the last full stream's checked packages import, for a
// declarations-only stream of the same packages that would only ask for that (the
// semantics dimension's Loader.Imports beside the resolver's stream): it is given those
// instead, once.
type streamedImports struct {
	key     string   // the module, configuration and package directories
	overlay [32]byte // overlayHash of the request
	mod     Module
	imports map[string]map[string]*Import // by package ID
}

// serves reports whether k holds the imports of req's packages (key) as req has them.
func (k *streamedImports) serves(key string, req Request) bool {
	return k != nil && k.key == key && k.overlay == overlayHash(req.Overlay)
}

// replay gives each a Result per kept package, in ID order, with its imports alone.
func (k *streamedImports) replay(each func(*Result) error) error {
	for _, id := range slices.Sorted(maps.Keys(k.imports)) {
		if err := each(&Result{Module: k.mod, Packages: []*Package{{ID: id, Imports: k.imports[id]}}}); err != nil {
			return err
		}
	}
	return nil
}

// overlayHash fingerprints an overlay: its paths and contents.
func overlayHash(overlay map[string][]byte) [32]byte {
	h := sha256.New()
	for _, p := range slices.Sorted(maps.Keys(overlay)) {
		fmt.Fprintf(h, "%s\x00%d\x00", p, len(overlay[p]))
		h.Write(overlay[p])
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// Cost is what checking a request costs either way, in packages, as CheckEach
// estimates it from the package graph before it type-checks anything (Request.Choose).
type Cost struct {
	// Roots are the checked packages (test variants included): type-checked from
	// source, with their function bodies, either way.
	Roots int
	// Through are the other packages of the graph that import a checked one, directly or
	// not (a package recompiled for a test among them). With any, Check has go list
	// compile the roots and these for export data, for they are not in the build cache
	// while the change is not compiled; with none, it compiles none of them.
	Through int
	// Declared are the module's other packages that CheckEach type-checks from source,
	// declarations only (Check reads their export data).
	Declared int
}

// compileCost is what go list's compiling one package for its export data costs, in
// type-checks of a package from source without its function bodies (Cost): the
// compiler type-checks the bodies too and generates code. On cli/cli (docs/performance.md)
// the per-package load of a 100-file diff compiled 299 packages in about 140 s of CPU,
// half a second each, where a declarations-only check takes some tens of milliseconds;
// 10 keeps the estimate on Check's side when the two are close.
const compileCost = 10

// StreamCheaper reports whether CheckEach costs less than Check at c: whether Check
// would compile more than the stream type-checks. When nothing imports a checked
// package, Check compiles none of them, and reading the other packages' export data
// is cheaper than any stream.
func (c Cost) StreamCheaper() bool {
	return c.Through > 0 && compileCost*(c.Roots+c.Through) > c.Declared
}

// cost estimates the two loads of s's graph.
func (s *stream) cost() Cost {
	roots := map[string]bool{}
	var c Cost
	for _, n := range s.order {
		if n.initial {
			c.Roots++
			roots[n.pkg.ID] = true
		}
	}
	through := map[*packages.Package]bool{}
	var imports func(p *packages.Package) bool
	imports = func(p *packages.Package) bool {
		if v, ok := through[p]; ok {
			return v
		}
		through[p] = false
		for _, ip := range sortedImports(p) {
			if roots[ip.ID] || imports(ip) {
				through[p] = true
				break
			}
		}
		return through[p]
	}
	for _, n := range s.order {
		if n.initial {
			continue
		}
		c.Declared++
		if imports(n.pkg) {
			c.Through++
		}
	}
	return c
}

// keptServes reports whether a snapshot the loader keeps can check req warm (a
// long-lived process re-checking an edit): Check then re-checks the packages alone,
// cheaper than any stream. l.mu is held.
func (l *Loader) keptServes(req Request) bool {
	for _, snap := range l.mods[req.cacheKey()] {
		if _, _, ok := snap.reusable(req); ok {
			return true
		}
	}
	return false
}

// stream is one CheckEach.
type stream struct {
	ctx context.Context
	dir string
	env []string
	// flags are the build flags (-tags) of the configuration.
	flags []string
	// port is set for another build configuration: its packages outside the module come
	// from source, declarations only, for their export data may not be built (compiling
	// another port's standard library on a cold build cache takes minutes).
	port bool
	fset *token.FileSet
	mod  Module
	// depFacts is Request.DepFacts.
	depFacts bool
	// overlay is Request.Overlay, its absent files included: read instead of the disk.
	overlay map[string][]byte
	// declOnly type-checks the checked packages without their function bodies too
	// (Request.declOnly).
	declOnly bool
	// imports holds the imports of each checked package handed so far, by ID
	// (streamedImports).
	imports map[string]map[string]*Import

	nodes   map[*packages.Package]*node // the packages checked from source
	order   []*node                     // nodes, in the order `go list` gave them
	outside []*packages.Package         // packages read from export data

	mu     sync.Mutex                // guards view and the outside packages' Types
	view   map[string]*types.Package // outside packages by path, for gcexportdata
	export map[string]string         // export data file by package ID
	// fromSource holds the outside packages checked from source: those without export
	// data, and every package importing one of them (see decideSources).
	fromSource map[*packages.Package]bool
	parsed     map[string]*parsedFile // files by name, while a package needs them
	pmu        sync.Mutex             // guards parsed
	// sourced holds, for each outside package without export data, its one check from
	// source.
	sourced map[*packages.Package]*sync.Once
}

// node is a package type-checked from source.
type node struct {
	pkg        *packages.Package
	initial    bool
	pending    int     // imports not yet checked
	dependents []*node // source packages importing it
	crashed    error   // a panic while it was checked (crash.Error): the load fails with it
}

type parsedFile struct {
	once  sync.Once
	f     *ast.File
	err   error
	users int // packages that have not yet been checked
}

// list runs `go list` for the metadata of patterns and their dependencies, and returns
// the initial packages.
func (s *stream) list(patterns []string) ([]*packages.Package, error) {
	cfg := &packages.Config{Context: s.ctx, Mode: metaMode, Dir: s.dir, Env: s.env, BuildFlags: s.flags, Tests: true, Overlay: s.overlay}
	roots, err := packages.Load(cfg, patterns...)
	if err != nil {
		if s.ctx.Err() != nil {
			return nil, s.ctx.Err()
		}
		return nil, fmt.Errorf("go list in %s: %w", s.dir, err)
	}
	if fatal := listFailure(roots); fatal != nil {
		return nil, fatal
	}
	s.mod.Dir = s.dir
	for _, p := range roots {
		if p.Module != nil && s.mod.Path == "" && !isTestMain(p) {
			s.mod.Path, s.mod.GoVersion = p.Module.Path, p.Module.GoVersion
		}
	}
	s.graph(roots)
	return roots, nil
}

// graph decides which packages are checked from source: the initial ones, those of the
// main module, and those importing a package checked from source (test variants of
// dependencies); every other one comes from export data.
func (s *stream) graph(roots []*packages.Package) {
	s.nodes = map[*packages.Package]*node{}
	initial := map[*packages.Package]bool{}
	for _, r := range roots {
		initial[r] = true
	}
	var visit func(p *packages.Package) bool
	seen := map[*packages.Package]bool{}
	src := map[*packages.Package]bool{}
	visit = func(p *packages.Package) bool {
		if seen[p] {
			return src[p]
		}
		seen[p] = true
		srcImport := false
		for _, ip := range sortedImports(p) {
			if visit(ip) {
				srcImport = true
			}
		}
		src[p] = (initial[p] || srcImport || p.Module != nil && p.Module.Main) && p.PkgPath != "unsafe"
		if src[p] {
			n := &node{pkg: p, initial: initial[p]}
			s.nodes[p] = n
			s.order = append(s.order, n)
		} else {
			s.outside = append(s.outside, p)
		}
		return src[p]
	}
	for _, r := range roots {
		if !isTestMain(r) { // it imports the test variants; nothing imports it
			visit(r)
		}
	}
	s.link()
}

// link records, for each source package, the source packages it waits for and those
// that wait for it, and gives every outside package its (so far empty) types.Package.
func (s *stream) link() {
	for _, n := range s.order {
		for _, ip := range sortedImports(n.pkg) {
			if d := s.nodes[ip]; d != nil {
				n.pending++
				d.dependents = append(d.dependents, n)
			}
		}
	}
	for _, p := range s.outside { // as go/packages: a package for every node, complete or not
		p.Types = types.NewPackage(p.PkgPath, p.Name)
		s.view[p.PkgPath] = p.Types
	}
	if p := s.pkgByPath("unsafe"); p != nil {
		p.Types = types.Unsafe
	}
	s.view["unsafe"] = types.Unsafe
}

func (s *stream) pkgByPath(path string) *packages.Package {
	for _, p := range s.outside {
		if p.PkgPath == path {
			return p
		}
	}
	return nil
}

func sortedImports(p *packages.Package) []*packages.Package {
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	out := make([]*packages.Package, len(paths))
	for i, path := range paths {
		out[i] = p.Imports[path]
	}
	return out
}

// exportFiles finds the export data of every outside package (`go list -export` on just
// those: built by any earlier build, whatever the clone path), and decides which ones
// come from source instead.
//
// Every outside package is asked for, not only those source packages import: a package
// without export data is checked from source, and so are its imports; those must come
// from export data when they have it, or they would be checked from source into the very
// *types.Package that reading another package's export data fills in — a data race, and
// the nil dereference inside go/types that a cold build cache with a module missing
// from the module cache used to end in.
func (s *stream) exportFiles() error {
	s.export = map[string]string{}
	ids := make([]string, 0, len(s.outside))
	for _, p := range s.outside {
		if p.PkgPath != "unsafe" {
			ids = append(ids, p.ID)
		}
	}
	if len(ids) > 0 {
		export, err := listExports(s.ctx, s.dir, s.env, s.flags, ids)
		if err != nil {
			return err
		}
		s.export = export
	}
	s.decideSources()
	return nil
}

// decideSources marks the outside packages checked from source: those without export
// data, and those importing one (go list gives none to a package whose dependency does
// not compile, but that is go list's behaviour, not a promise). So no package read from
// export data depends on one checked from source, and reading export data never touches
// a package being checked from source.
func (s *stream) decideSources() {
	s.fromSource = map[*packages.Package]bool{}
	done := map[*packages.Package]bool{}
	var visit func(p *packages.Package) bool
	visit = func(p *packages.Package) bool {
		if done[p] {
			return s.fromSource[p]
		}
		done[p] = true
		src := p.PkgPath != "unsafe" && (s.port || s.export[p.ID] == "")
		for _, ip := range sortedImports(p) {
			if s.nodes[ip] == nil && visit(ip) {
				src = true
			}
		}
		s.fromSource[p] = src
		return src
	}
	for _, p := range s.outside {
		visit(p)
	}
}

// importOutside returns the types of an outside package, reading its export data on
// first use; the error is the one go/packages gives for export data it cannot read.
func (s *stream) importOutside(p *packages.Package) (*types.Package, error) {
	file := s.export[p.ID]
	if s.fromSource[p] || file == "" {
		return s.outsideFromSource(p), nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.Types != nil && p.Types.Complete() {
		return p.Types, nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", file, err)
	}
	tp, err := gcexportdata.Read(r, s.fset, s.view, p.PkgPath)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", file, err)
	}
	p.Types, s.view[p.PkgPath] = tp, tp
	return tp, nil
}

// outsideFromSource type-checks, declarations only, an outside package that has no
// export data (a package `go list` cannot find, one that does not compile), as
// go/packages does: a missing package becomes an empty one without a name, which its
// importers cannot import. Its own errors are not reported.
func (s *stream) outsideFromSource(p *packages.Package) *types.Package {
	s.mu.Lock()
	once := s.sourced[p]
	if once == nil {
		once = new(sync.Once)
		s.sourced[p] = once
	}
	s.mu.Unlock()
	once.Do(func() {
		var files []*ast.File
		for _, name := range p.CompiledGoFiles {
			if src, err := readFile(name, s.overlay); err == nil {
				if f, _ := parser.ParseFile(s.fset, name, src, parser.SkipObjectResolution); f != nil {
					dropBodies(f)
					files = append(files, f)
				}
			}
		}
		imp := importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if ip := p.Imports[path]; ip != nil {
				return s.importOutside(ip)
			}
			return nil, fmt.Errorf("no metadata for %s", path)
		})
		tc := &types.Config{Importer: imp, IgnoreFuncBodies: true, Error: func(error) {}, Sizes: p.TypesSizes}
		_ = types.NewChecker(tc, s.fset, p.Types, nil).Files(files)
	})
	return p.Types
}

// dropBodies drops the bodies of a file's functions, but those of generic functions: only
// declarations matter to importers.
func dropBodies(f *ast.File) {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Type.TypeParams.NumFields() == 0 {
			fd.Body = nil
		}
	}
}

// run type-checks the source packages in dependency order, GOMAXPROCS at a time, and
// gives each initial one to each as soon as it is done.
func (s *stream) run(roots []*packages.Package, each func(*Result) error) error {
	s.parsed = map[string]*parsedFile{}
	var ready []*node
	for _, n := range s.order {
		for _, f := range n.pkg.CompiledGoFiles {
			pf := s.parsed[f]
			if pf == nil {
				pf = &parsedFile{}
				s.parsed[f] = pf
			}
			pf.users++
		}
		if n.pending == 0 {
			ready = append(ready, n)
		}
	}
	done := make(chan *node)
	running, finished := 0, 0
	var firstErr error
	limit := runtime.GOMAXPROCS(0)
	for finished < len(s.order) {
		for firstErr == nil && running < limit && len(ready) > 0 {
			n := ready[0]
			ready = ready[1:]
			running++
			go func() {
				defer func() { done <- n }()
				defer crash.Recover(&n.crashed)
				s.check(n)
			}()
		}
		if running == 0 {
			break // stopped on an error
		}
		n := <-done
		running--
		finished++
		s.release(n)
		if firstErr == nil {
			firstErr = n.crashed
		}
		if firstErr == nil {
			firstErr = s.hand(n, each)
		}
		n.pkg.Syntax, n.pkg.TypesInfo = nil, nil // its *types.Package is all dependents need
		for _, d := range n.dependents {
			if d.pending--; d.pending == 0 {
				ready = append(ready, d)
			}
		}
	}
	return firstErr
}

// hand gives a checked package to each when it is wanted: an initial package, or one
// Request.DepFacts asks for.
func (s *stream) hand(n *node, each func(*Result) error) error {
	if err := s.ctx.Err(); err != nil || !n.initial && !s.forFacts(n) {
		return err
	}
	pkg := convert(n.pkg, s.dir)
	if n.initial {
		s.imports[pkg.ID] = pkg.Imports
	}
	return each(&Result{Module: s.mod, Fset: s.fset, Packages: []*Package{pkg}, Dependency: !n.initial})
}

// declarationsOnly reports whether n is type-checked without its function bodies: a
// package only imported, unless Request.DepFacts asks for it, or any package of a
// declarations-only stream.
func (s *stream) declarationsOnly(n *node) bool {
	return s.declOnly || !n.initial && !s.forFacts(n)
}

// forFacts reports whether n is a package of the module that the checked packages
// import and that Request.DepFacts asks for.
func (s *stream) forFacts(n *node) bool {
	return s.depFacts && !n.initial && n.pkg.Module != nil && n.pkg.Module.Main
}

// release forgets the parsed files of n that no other package still needs.
func (s *stream) release(n *node) {
	s.pmu.Lock()
	defer s.pmu.Unlock()
	for _, f := range n.pkg.CompiledGoFiles {
		if pf := s.parsed[f]; pf != nil {
			if pf.users--; pf.users == 0 {
				delete(s.parsed, f)
			}
		}
	}
}

// parse returns the syntax of a file, parsed once for all the packages that list it
// (a package and its in-package test variant), as go/packages does.
func (s *stream) parse(name string) (*ast.File, error) {
	s.pmu.Lock()
	pf := s.parsed[name]
	s.pmu.Unlock()
	pf.once.Do(func() {
		src, err := readFile(name, s.overlay)
		if err != nil {
			pf.err = err
			return
		}
		pf.f, pf.err = parser.ParseFile(s.fset, name, src, parser.AllErrors|parser.ParseComments)
	})
	return pf.f, pf.err
}

// check parses and type-checks one package the way go/packages does (loadPackage), its
// errors recorded in the same form.
func (s *stream) check(n *node) {
	p := n.pkg
	p.Fset = s.fset
	p.Types = types.NewPackage(p.PkgPath, p.Name)
	if s.ctx.Err() != nil {
		return
	}
	p.Syntax = make([]*ast.File, 0, len(p.CompiledGoFiles))
	for _, name := range p.CompiledGoFiles {
		f, err := s.parse(name)
		if f != nil {
			p.Syntax = append(p.Syntax, f)
		}
		p.Errors = append(p.Errors, parseErrors(err)...)
	}
	p.TypesInfo = newTypesInfo()
	tc := &types.Config{
		Importer:         importerFunc(func(path string) (*types.Package, error) { return s.importFor(n, path) }),
		IgnoreFuncBodies: s.declarationsOnly(n),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				p.TypeErrors = append(p.TypeErrors, te)
				p.Errors = append(p.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
			}
		},
		Sizes: p.TypesSizes,
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	typErr := types.NewChecker(tc, s.fset, p.Types, p.TypesInfo).Files(p.Syntax)
	if typErr != nil && len(p.Errors) == 0 && len(p.Syntax) > 0 {
		if msg := typErr.Error(); strings.HasPrefix(msg, "package requires newer Go version") {
			tc.Error(types.Error{Fset: s.fset, Pos: p.Syntax[0].Package, Msg: msg})
		}
	}
	if typErr != nil && len(p.Errors) == 0 {
		if _, ok := typErr.(types.Error); ok {
			tc.Error(typErr)
		} else {
			p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: typErr.Error(), Kind: packages.UnknownError})
		}
	}
}

// importFor resolves an import of n's package: source packages are checked before their
// importers; outside packages come from export data.
func (s *stream) importFor(n *node, path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	ip := n.pkg.Imports[path]
	if ip == nil {
		if cycle := s.cycle(n.pkg, path); cycle != nil {
			// go/packages took the edge that closes a cycle out of the graph; its own
			// importer says so in these words.
			return nil, fmt.Errorf("import cycle: %v", cycle)
		}
		return nil, fmt.Errorf("no metadata for %s", path)
	}
	if s.nodes[ip] != nil {
		return ip.Types, nil
	}
	return s.importOutside(ip)
}

// cycle returns the import stack from the source package at path back to from, as
// go/packages reports a cycle, or nil when path does not lead back to from.
func (s *stream) cycle(from *packages.Package, path string) []string {
	var start *packages.Package
	for p := range s.nodes {
		if p.PkgPath == path && !strings.HasSuffix(p.ID, ".test]") {
			start = p
		}
	}
	seen := map[*packages.Package]bool{}
	var walk func(p *packages.Package) []string
	walk = func(p *packages.Package) []string {
		if p == from {
			return []string{}
		}
		if p == nil || seen[p] {
			return nil
		}
		seen[p] = true
		for _, ip := range sortedImports(p) {
			if rest := walk(ip); rest != nil {
				return append([]string{p.PkgPath}, rest...)
			}
		}
		return nil
	}
	stack := walk(start)
	if stack == nil {
		return nil
	}
	return append(stack, from.PkgPath)
}

// parseErrors converts a parse error as go/packages does.
func parseErrors(err error) []packages.Error {
	switch err := err.(type) {
	case nil:
		return nil
	case *os.PathError:
		return []packages.Error{{Pos: err.Path + ":1", Msg: err.Err.Error(), Kind: packages.ParseError}}
	case scanner.ErrorList:
		out := make([]packages.Error, 0, len(err))
		for _, e := range err {
			out = append(out, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
		}
		return out
	}
	return []packages.Error{{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError}}
}

func newTypesInfo() *types.Info {
	return &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
}

// infoSize remembers how many entries the maps of a package's last types.Info held, so
// that the next re-check of the package (an edit of it, usually a small one) allocates
// them at about that size instead of growing them from empty: the map growth was a tenth
// of a served hook's CPU. It is safe for concurrent use.
type infoSize struct {
	types, defs, uses, selections atomic.Int64
}

// newInfo returns an empty types.Info with maps sized for the last check, or for a
// first check, by counting syntax's expressions: growing them from empty rehashed a
// third of a cold one-file diff's re-check.
func (s *infoSize) newInfo(syntax []*ast.File) *types.Info {
	info := newTypesInfo()
	exprs, defs, uses, sels := s.types.Load(), s.defs.Load(), s.uses.Load(), s.selections.Load()
	if exprs == 0 {
		exprs, defs, uses, sels = countExprs(syntax)
	}
	info.Types = make(map[ast.Expr]types.TypeAndValue, exprs)
	info.Defs = make(map[*ast.Ident]types.Object, defs)
	info.Uses = make(map[*ast.Ident]types.Object, uses)
	info.Selections = make(map[*ast.SelectorExpr]*types.Selection, sels)
	return info
}

// countExprs estimates the sizes of the types.Info maps of a check of files, a little
// above what go/types records (measured on cli/cli's api package and its test variant:
// types for 0.63–0.65 of the expressions, uses for 0.75–0.78 and definitions for
// 0.22–0.25 of the identifiers, selections for 0.60–0.71 of the selectors).
func countExprs(files []*ast.File) (exprs, defs, uses, sels int64) {
	var idents int64
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.Ident:
				idents++
			case *ast.SelectorExpr:
				sels++
			}
			if _, ok := n.(ast.Expr); ok {
				exprs++
			}
			return true
		})
	}
	return exprs * 7 / 10, idents * 3 / 10, idents * 4 / 5, sels * 3 / 4
}

// record notes the sizes of info's maps.
func (s *infoSize) record(info *types.Info) {
	s.types.Store(int64(len(info.Types)))
	s.defs.Store(int64(len(info.Defs)))
	s.uses.Store(int64(len(info.Uses)))
	s.selections.Store(int64(len(info.Selections)))
}

// CheckErrors checks req for the errors of its packages alone, as Check reports them,
// without their syntax or type information: for a caller that reads only the errors
// (the dependents of a changed API). When req's packages span more than one directory
// and the stream costs less (Cost.StreamCheaper), it streams, keeping each package's
// errors and dropping the rest; otherwise it is Check.
func (l *Loader) CheckErrors(ctx context.Context, req Request) (*Result, error) {
	if !spread(req) {
		return l.Check(ctx, req)
	}
	req.Choose = Cost.StreamCheaper
	res := &Result{}
	handled, err := l.CheckEach(ctx, req, func(r *Result) error {
		if r.Dependency {
			return nil // a package only imported (Request.DepFacts): not one of req's
		}
		res.Module, res.Fset = r.Module, r.Fset
		for _, p := range r.Packages {
			res.Packages = append(res.Packages, &Package{ID: p.ID, PkgPath: p.PkgPath, Name: p.Name, Files: p.Files, Errors: p.Errors})
		}
		return nil
	})
	if !handled {
		return l.Check(ctx, req)
	}
	sortPackages(res.Packages)
	return res, err
}

// spread reports whether req, in the default configuration, has files in more than one
// directory: a change spread over a module, which CheckErrors and Imports may stream
// when that costs less than Check.
func spread(req Request) bool {
	if req.Build.key() != (Build{}).key() {
		return false
	}
	dirs := map[string]bool{}
	for _, f := range req.Files {
		dirs[filepath.Dir(f)] = true
	}
	return len(dirs) > 1
}
