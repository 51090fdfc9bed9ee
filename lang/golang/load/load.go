package load

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/agentverify/agentverify/lazyregexp"
)

// ErrorKind says where an error comes from.
type ErrorKind int

// Error kinds, in the order the toolchain finds them.
const (
	ListError  ErrorKind = iota // `go list` could not resolve something (an import, a file)
	ParseError                  // the file does not parse
	TypeError                   // the type checker rejected the code
)

// Error is one problem found while loading a package.
type Error struct {
	Kind ErrorKind
	// Pos is where the error is; Filename is absolute, or empty when the error has no
	// position (then it concerns the whole package).
	Pos  token.Position
	Msg  string
	Soft bool // a type error that does not prevent type information (unused variable, …)
}

// Error formats the error as the go command does: position, then message.
func (e Error) Error() string {
	if e.Pos.Filename == "" {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// Module describes the module of a check.
type Module struct {
	Path      string // module path; empty for files outside any module
	Dir       string // absolute root directory
	GoVersion string // the go directive, e.g. "1.22"; empty when there is none
}

// Import is one import of a package, resolved.
type Import struct {
	ID    string
	Path  string         // package path
	Types *types.Package // possibly incomplete when Errors is not empty
	// Errors says why the import resolves to no package (from `go list`); it is empty when
	// the package was found, even if that package has errors of its own.
	Errors []Error
	// export is the export data file go list named for the package (persist.go), and
	// exportSize its size when a Store saved it (0: not known).
	export     string
	exportSize int64
}

// Package is one type-checked package. A package with test files comes in up to three
// variants, as `go list -test` reports them: the package, the package with its in-package
// tests ("p [p.test]"), and the external test package ("p_test [p.test]").
type Package struct {
	ID, PkgPath, Name string
	// Files are the absolute paths of the Go files, parallel to Syntax.
	Files      []string
	Syntax     []*ast.File
	Types      *types.Package
	Info       *types.Info
	TypesSizes types.Sizes
	// Imports maps each import path as written in the source to what it resolves to.
	Imports map[string]*Import
	// Errors lists every list, parse and type error of the package, in that order.
	Errors []Error
	// OtherFiles are the package's non-Go source files (assembly, C) and IgnoredFiles the
	// files its build configuration excludes, as go list reports them: for analyzers that
	// read them (go vet's asmdecl, buildtag, directive, framepointer).
	OtherFiles, IgnoredFiles []string
}

// Result is what one check produced.
type Result struct {
	Module   Module
	Fset     *token.FileSet
	Packages []*Package
	// Warm is set when the check reused cached dependency information and ran no `go list`.
	Warm bool
	// Dependency marks a package CheckEach gives only for its facts (Request.DepFacts):
	// the checked packages import it, and its findings are not wanted.
	Dependency bool
}

// Request names what to check.
type Request struct {
	// Dir is the absolute module root (the directory of the nearest go.mod). For files
	// outside any module it is their directory, and they are checked as one package.
	Dir string
	// Files are absolute paths of Go files; the packages containing them are checked.
	Files []string
	// Overlay maps absolute paths to the content to check instead of the disk's; a path
	// not on disk adds a file.
	Overlay map[string][]byte
	// Absent lists absolute paths of files that are on disk but not in the tree checked:
	// files a change created, when its base is checked; untracked or ignored files, when
	// the index is. For `go list` they are overlaid with a file its build constraint
	// excludes (absentFile), which is as good as no file at all: it is in no package,
	// whatever its name or package clause.
	Absent []string
	// Build is the build configuration; the zero value is the host's.
	Build Build
	// DepFacts makes CheckEach type-check the module's other packages that the checked
	// ones import with their function bodies, and give them to each too, marked
	// Dependency: an analysis that learns facts from the packages a package imports (go
	// vet's printf wrappers) then sees the same facts whichever packages a check covers.
	DepFacts bool
	// Choose, when set, is asked by CheckEach, once it has the package graph, whether to
	// stream the check at the cost it estimates; false declines the request (handled
	// false), for Check.
	Choose func(Cost) bool
	// StandIns lets a package's in-package test variant stand for the package in a warm
	// re-check when it says all a check of the package's own files would (standsFor):
	// the package is then left out of the result, and its files are checked once, in
	// the variant. For a caller that reports the variants' errors and go vet's findings
	// (which go vet takes from the variant), not one that needs each variant's types.
	StandIns bool
	// declOnly makes CheckEach type-check the checked packages without their function
	// bodies as well: for the types of what they import (Loader.Imports).
	declOnly bool
}

// absentFile is the overlay content that stands for "no such file" (see Request.Absent).
var absentFile = []byte("//go:build ignore\n\n// This file does not exist in the tree being verified.\npackage ignore\n")

// isAbsent reports whether overlay content stands for a missing file.
func isAbsent(content []byte) bool { return string(content) == string(absentFile) }

// withAbsent returns req with its Absent files folded into a copy of its Overlay.
func withAbsent(req Request) Request {
	if len(req.Absent) == 0 {
		return req
	}
	over := make(map[string][]byte, len(req.Overlay)+len(req.Absent))
	for p, b := range req.Overlay {
		over[p] = b
	}
	gone := map[string]bool{}
	for _, p := range req.Absent {
		if _, set := over[p]; !set && strings.HasSuffix(p, ".go") {
			over[p], gone[p] = absentFile, true
		}
	}
	files := make([]string, 0, len(req.Files))
	for _, f := range req.Files {
		if !gone[f] {
			files = append(files, f)
		}
	}
	req.Files, req.Overlay, req.Absent = files, over, nil
	return req
}

// Build is a build configuration other than the host's, for files the host build
// excludes (x_windows.go, //go:build darwin, custom tags).
type Build struct {
	GOOS, GOARCH string   // empty: the host's
	Tags         []string // build tags, for -tags
}

// key identifies the configuration in the loader's cache.
func (b Build) key() string {
	return b.GOOS + "/" + b.GOARCH + "/" + strings.Join(b.Tags, ",")
}

// env returns the environment settings of the configuration. Cross builds run without
// cgo, which would need a C cross-compiler; a configuration naming the host's own GOOS
// and GOARCH is no cross build, and keeps cgo as the user has it (a file built only with
// cgo and a custom tag is checked with both).
func (b Build) env() []string {
	var env []string
	if b.GOOS != "" {
		env = append(env, "GOOS="+b.GOOS)
	}
	if b.GOARCH != "" {
		env = append(env, "GOARCH="+b.GOARCH)
	}
	if b.GOOS != "" && b.GOOS != runtime.GOOS || b.GOARCH != "" && b.GOARCH != runtime.GOARCH {
		env = append(env, "CGO_ENABLED=0")
	}
	return env
}

func (b Build) flags() []string {
	if len(b.Tags) == 0 {
		return nil
	}
	return []string{"-tags=" + strings.Join(b.Tags, ",")}
}

func (r Request) cacheKey() string { return r.Dir + "\x00" + r.Build.key() }

// Options configure a Loader.
type Options struct {
	// Env is appended to the process environment for `go list` (later entries win), and
	// its GOFLAGS are kept; GOPROXY=off, GOTOOLCHAIN=local and the -mod flag are always
	// the loader's (see Loader.Env).
	Env []string
	// Forget keeps nothing between checks: for a loader that serves one verification with
	// no base view (check mode), whose snapshots would only hold the type information of
	// the whole module until the end of the run, next to the loads of other ports.
	Forget bool
	// Store, when set, keeps the snapshots of cold loads on the disk for later processes,
	// and starts checks from those earlier processes kept (persist.go, design.md §9).
	Store *Store
}

// Loader type-checks packages, caching dependency type information per module. It is safe
// for concurrent use; checks run one at a time.
type Loader struct {
	env    []string
	forget bool
	store  *Store

	mu sync.Mutex
	// mods holds the last snapshots of each module and configuration, the most recently
	// used first: an agent moving between a few packages finds each warm.
	mods map[string][]*snapshot
	// stamps keeps the content hashes of dependency files between snapshots.
	stamps *stampCache
	// colds and warms count the checks by path taken, for tests and diagnostics.
	colds, warms int
	// restored counts the warm checks made on a snapshot a Store kept; fromList the
	// disk loads made from go list's answer alone (listed.go).
	restored, fromList int
	// walkedOnce counts the listed loads that asked go list once (walkOnce).
	walkedOnce int
	// declined remembers the requests a Choose turned down (by module, configuration and
	// package directories), so that the other passes over the same packages (the base
	// view, the API comparison's imports) do not list the graph again to hear the same
	// answer. A stale entry only keeps a request on Check.
	declined map[string]bool
	// streamed is what the last full CheckEach's packages import, until a
	// declarations-only stream of the same packages takes it (streamedImports).
	streamed *streamedImports
}

// New returns a Loader.
func New(opts Options) *Loader {
	return &Loader{env: opts.Env, forget: opts.Forget, store: opts.Store, mods: map[string][]*snapshot{}, stamps: newStampCache(), declined: map[string]bool{}}
}

// Stats returns how many checks were cold (ran `go list`) and warm (reused the cache).
func (l *Loader) Stats() (cold, warm int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.colds, l.warms
}

// Check type-checks the packages containing req.Files. It returns an error only when the
// packages could not be loaded at all (no Go toolchain, a go.mod `go list` rejects, a
// cancelled context); problems in the code are in the packages' Errors.
func (l *Loader) Check(ctx context.Context, req Request) (*Result, error) {
	req = withAbsent(req)
	if len(req.Files) == 0 {
		return &Result{Module: Module{Dir: req.Dir}, Fset: token.NewFileSet()}, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.forget {
		defer clear(l.mods) // an overlaid check still reuses, within the call, the disk load it made
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	key := req.cacheKey()
	if res, ok, err := l.warmOrKept(ctx, key, req); err != nil || ok {
		return res, err
	}
	if res, ok, err := l.fromDisk(ctx, key, req); err != nil || ok {
		return res, err
	}
	res, snap, err := l.cold(ctx, req)
	if err != nil {
		return nil, err
	}
	l.colds++
	if snap != nil {
		l.remember(key, snap)
		l.save(req, snap)
	}
	return res, nil
}

// fromDisk checks req on a snapshot of the disk's packages loaded from go list's answer
// (listed.go) — for a check of the disk as it is, or an overlay that keeps go.mod — and
// keeps it; ok is false when that load declines and the full load must run. l.mu is held.
func (l *Loader) fromDisk(ctx context.Context, key string, req Request) (*Result, bool, error) {
	// go/packages type-checks every dependency from source as soon as there is an
	// overlay (seconds and hundreds of megabytes on a large module), and without one
	// has go list compile the packages themselves for export data it never reads.
	// Load the disk state instead, from go list's graph and the dependencies' export
	// data, and check the packages on the warm path. (With go.mod changed in the
	// overlay, the full load runs.)
	if len(req.Overlay) > 0 && modHash(req.Dir, req.Overlay) != modHash(req.Dir, nil) {
		return nil, false, nil
	}
	disk := req
	disk.Overlay = nil
	snap, err := l.diskSnapshot(ctx, disk)
	if err != nil || snap == nil {
		return nil, false, nil
	}
	l.colds++
	l.remember(key, snap)
	l.save(disk, snap)
	if len(req.Overlay) > 0 {
		return l.warm(ctx, key, req)
	}
	// the disk's own packages, loaded this call: a cold check, on the warm path
	res, ok, err := snap.warm(ctx, req)
	if res != nil {
		res.Warm = false
	}
	return res, ok, err
}

// maxSnapshots bounds the snapshots kept per module and configuration (each holds the
// syntax and types of its packages and the export data of their dependencies).
const maxSnapshots = 4

// warm checks req on the first of key's snapshots that can serve it, and moves that one
// to the front; ok is false when none can. l.mu is held.
func (l *Loader) warm(ctx context.Context, key string, req Request) (*Result, bool, error) {
	snaps := l.mods[key]
	for i, snap := range snaps {
		res, ok, err := snap.warm(ctx, req)
		if err != nil {
			return nil, false, err
		}
		if ok {
			l.warms++
			copy(snaps[1:i+1], snaps[:i])
			snaps[0] = snap
			return res, true, nil
		}
	}
	return nil, false, nil
}

// remember puts snap first among key's snapshots, dropping the least recently used one
// beyond maxSnapshots. l.mu is held.
func (l *Loader) remember(key string, snap *snapshot) {
	snaps := append([]*snapshot{snap}, l.mods[key]...)
	if len(snaps) > maxSnapshots {
		snaps[maxSnapshots] = nil
		snaps = snaps[:maxSnapshots]
	}
	l.mods[key] = snaps
}

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax |
	packages.NeedTypesInfo | packages.NeedModule

// cold loads the packages of req with go list; the snapshot it returns (nil outside a
// module, or when a package cannot be re-checked alone) serves later warm checks.
func (l *Loader) cold(ctx context.Context, req Request) (*Result, *snapshot, error) {
	inModule := fileExists(filepath.Join(req.Dir, "go.mod"), req.Overlay)
	patterns, err := loadPatterns(req, inModule)
	if err != nil {
		return nil, nil, err
	}
	mode := loadMode
	if req.Build.GOOS != "" || req.Build.GOARCH != "" {
		// Dependencies from source: export data for another port means compiling the
		// standard library for it first (a minute on a cold build cache).
		mode |= packages.NeedDeps
	} else {
		mode |= packages.NeedExportFile // go list -export runs anyway; a Store keeps the files
	}
	cfg := &packages.Config{
		Context:    ctx,
		Mode:       mode,
		Dir:        req.Dir,
		Env:        l.loadEnv(req),
		BuildFlags: req.Build.flags(),
		Tests:      true,
		Overlay:    req.Overlay,
		Fset:       token.NewFileSet(),
	}
	if mode&packages.NeedDeps != 0 {
		cfg.ParseFile = bodiesOnlyIn(req)
	}
	start := time.Now() // files changed from here on may be in the load either way
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, fmt.Errorf("go list in %s: %w", req.Dir, err)
	}
	if fatal := listFailure(pkgs); fatal != nil {
		return nil, nil, fatal
	}
	res := &Result{Module: Module{Dir: req.Dir}, Fset: cfg.Fset}
	if !inModule {
		for _, p := range pkgs {
			if !isTestMain(p) {
				res.Packages = append(res.Packages, convert(p, req.Dir))
			}
		}
		return res, nil, nil
	}
	snap := moduleResult(res, pkgs, req, cfg.Env, l.stamps, start)
	return res, snap, nil
}

// moduleResult adds the packages of a module load to res and returns the snapshot for
// the warm path, or nil when a package cannot be re-checked alone.
func moduleResult(res *Result, pkgs []*packages.Package, req Request, env []string, stamps *stampCache, start time.Time) *snapshot {
	snap := &snapshot{dir: req.Dir, fset: res.Fset, modHash: modHash(req.Dir, req.Overlay), byDir: map[string][]*pkgState{},
		build: buildContext(env, req.Build.Tags), env: env, stamps: stamps, loaded: start}
	for _, p := range pkgs {
		if isTestMain(p) {
			continue
		}
		if p.Module != nil && res.Module.Path == "" {
			res.Module.Path, res.Module.GoVersion = p.Module.Path, p.Module.GoVersion
		}
		pkg := convert(p, req.Dir)
		res.Packages = append(res.Packages, pkg)
		if err := addState(snap, p, pkg, req.Overlay); err != nil {
			snap = nil
		}
	}
	if snap != nil {
		snap.module = res.Module
	}
	sortPackages(res.Packages)
	return snap
}

// loadPatterns returns the go list patterns for req: the package directories of its
// files in a module ("./app"), else the files themselves.
func loadPatterns(req Request, inModule bool) ([]string, error) {
	if !inModule {
		patterns := append([]string(nil), req.Files...)
		sort.Strings(patterns)
		return patterns, nil
	}
	dirs := map[string]bool{}
	for _, f := range req.Files {
		rel, err := filepath.Rel(req.Dir, filepath.Dir(f))
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("%s: not inside module %s", f, req.Dir)
		}
		if rel == "." {
			dirs["."] = true
		} else {
			dirs["./"+filepath.ToSlash(rel)] = true
		}
	}
	patterns := make([]string, 0, len(dirs))
	for d := range dirs {
		patterns = append(patterns, d)
	}
	sort.Strings(patterns)
	return patterns, nil
}

// listFailure returns an error when `go list` failed for the module as a whole (a go.mod
// it rejects, a missing toolchain version): every package then carries the same error
// without position, and nothing was type-checked.
func listFailure(pkgs []*packages.Package) error {
	if len(pkgs) == 0 {
		return errors.New("go list returned no package")
	}
	for _, p := range pkgs {
		if len(p.Syntax) > 0 || len(p.CompiledGoFiles) > 0 {
			return nil
		}
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			if e.Kind == packages.ListError || e.Kind == packages.UnknownError {
				return fmt.Errorf("go list: %s", strings.TrimSpace(e.Msg))
			}
		}
	}
	return nil
}

// isTestMain reports whether p is the synthesised test main package "p.test".
func isTestMain(p *packages.Package) bool {
	return strings.HasSuffix(p.ID, ".test") && p.Name == "main" && strings.HasSuffix(p.PkgPath, ".test")
}

// sortPackages orders packages so that each comes after those it may import: plain
// packages, then in-package test variants, then external test packages.
func sortPackages(ps []*Package) {
	rank := func(p *Package) int {
		switch {
		case !strings.Contains(p.ID, " ["):
			return 0
		case strings.HasSuffix(p.Name, "_test") || strings.HasSuffix(p.PkgPath, "_test"):
			return 2
		}
		return 1
	}
	sort.SliceStable(ps, func(i, j int) bool {
		if ri, rj := rank(ps[i]), rank(ps[j]); ri != rj {
			return ri < rj
		}
		return ps[i].ID < ps[j].ID
	})
}

func convert(p *packages.Package, dir string) *Package {
	pkg := &Package{
		ID: p.ID, PkgPath: p.PkgPath, Name: p.Name,
		Files: p.CompiledGoFiles, Syntax: p.Syntax, Types: p.Types, Info: p.TypesInfo,
		TypesSizes: p.TypesSizes, Imports: map[string]*Import{},
		OtherFiles: p.OtherFiles, IgnoredFiles: p.IgnoredFiles,
	}
	if len(pkg.Files) != len(pkg.Syntax) { // files that did not parse at all
		pkg.Files = nil
		for _, f := range p.Syntax {
			pkg.Files = append(pkg.Files, p.Fset.Position(f.FileStart).Filename)
		}
	}
	for path, ip := range p.Imports {
		im := &Import{ID: ip.ID, Path: ip.PkgPath, Types: ip.Types, export: ip.ExportFile}
		if len(ip.GoFiles) > 0 || len(ip.CompiledGoFiles) > 0 {
			pkg.Imports[path] = im // resolved; its own errors are its own
			continue
		}
		for _, e := range ip.Errors {
			im.Errors = append(im.Errors, listErr(e, dir))
		}
		pkg.Imports[path] = im
	}
	for _, e := range p.Errors {
		// "# pkg" errors are the compiler's report of the type errors below, from the
		// export data build of `go list -export`.
		if e.Kind != packages.TypeError && !strings.HasPrefix(e.Msg, "# ") {
			pkg.Errors = append(pkg.Errors, listErr(e, dir))
		}
	}
	for _, e := range p.TypeErrors {
		pkg.Errors = append(pkg.Errors, Error{Kind: TypeError, Pos: e.Fset.Position(e.Pos), Msg: e.Msg, Soft: e.Soft})
	}
	return pkg
}

// listErr converts a go/packages error, whose position is a "file:line:col" string that
// may be relative to dir.
func listErr(e packages.Error, dir string) Error {
	kind := ListError
	if e.Kind == packages.ParseError {
		kind = ParseError
	}
	msg := strings.TrimSpace(e.Msg)
	if e.Pos == "" || e.Pos == "-" {
		// go list puts some positions in the message ("a.go:15:2: invalid import path")
		if m := posInMsg.FindStringSubmatch(msg); m != nil {
			return Error{Kind: kind, Pos: parsePos(m[1], dir), Msg: m[2]}
		}
	}
	return Error{Kind: kind, Pos: parsePos(e.Pos, dir), Msg: msg}
}

var posInMsg = lazyregexp.New(`(?s)^(\S+\.go:\d+:\d+): (.*)$`)

func parsePos(s, dir string) token.Position {
	if s == "" || s == "-" {
		return token.Position{}
	}
	var p token.Position
	rest := s
	for range 2 {
		i := strings.LastIndexByte(rest, ':')
		if i < 0 {
			break
		}
		n, err := strconv.Atoi(rest[i+1:])
		if err != nil || n < 0 {
			break
		}
		p.Column, p.Line = p.Line, n
		rest = rest[:i]
	}
	if p.Line == 0 && p.Column != 0 {
		p.Line, p.Column = p.Column, 0
	}
	p.Filename = rest
	if !filepath.IsAbs(rest) {
		p.Filename = filepath.Join(dir, rest)
	}
	return p
}

func fileExists(path string, overlay map[string][]byte) bool {
	if _, ok := overlay[path]; ok {
		return true
	}
	_, err := os.Stat(path)
	return err == nil
}

func readFile(path string, overlay map[string][]byte) ([]byte, error) {
	if b, ok := overlay[path]; ok {
		return b, nil
	}
	return os.ReadFile(path)
}

// modHash fingerprints go.mod and go.sum as the check sees them, the go.work of the
// workspace the module is in (which may be in a parent directory), the go.mod files of
// the workspace's other modules and of directory replacements, and vendor/modules.txt.
func modHash(dir string, overlay map[string][]byte) [32]byte {
	h := sha256.New()
	files := []string{filepath.Join(dir, "go.mod"), filepath.Join(dir, "go.sum")}
	if work := workFile(dir, os.Getenv("GOWORK")); work != "" {
		files = append(files, work, work+".sum")
	}
	for _, m := range localModules(dir, overlay) { // what they require changes their types
		files = append(files, m.gomod)
	}
	files = append(files, filepath.Join(dir, "vendor", "modules.txt"))
	for _, name := range files {
		b, err := readFile(name, overlay)
		fmt.Fprintf(h, "%s %t %d\n", name, err == nil, len(b))
		h.Write(b)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// parseFiles parses the files of a package for the warm path, recording syntax errors.
func parseFiles(fset *token.FileSet, files []string, overlay map[string][]byte, cache *parseCache) ([]*ast.File, []Error, error) {
	syntax := make([]*ast.File, 0, len(files))
	var errs []Error
	for _, name := range files {
		src, err := readFile(name, overlay)
		if err != nil {
			return nil, nil, err
		}
		var f *ast.File
		var ferrs []Error
		if cache != nil {
			f, ferrs = cache.parse(fset, name, src)
		} else {
			f, ferrs = parseOne(fset, name, src)
		}
		errs = append(errs, ferrs...)
		if f != nil {
			syntax = append(syntax, f)
		}
	}
	return syntax, errs, nil
}

// parseOne parses one file with its comments, reporting every syntax error. Objects are
// resolved, as go/packages and go vet parse: some analyzers still read ast.Ident.Obj
// (sigchanyzer finds the channel's declaration through it), and would find nothing in a
// warm re-check that a cold load finds.
func parseOne(fset *token.FileSet, name string, src []byte) (*ast.File, []Error) {
	f, err := parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments)
	var errs []Error
	var list scanner.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			errs = append(errs, Error{Kind: ParseError, Pos: e.Pos, Msg: e.Msg})
		}
	}
	return f, errs
}

// MemoKey is the key under which the dimensions of one verification share a Loader in
// check.Memo, so hallucination and semantics load each package once.
const MemoKey = "golang/load.Loader"

// bodiesOnlyIn returns a ParseFile that keeps function bodies only in the files of req's
// package directories. With NeedDeps, go/packages type-checks every dependency from
// source, bodies included (it sets types.Config.IgnoreFuncBodies only without NeedDeps),
// though only their declarations can matter to the checked packages: for another port's
// standard library and module dependencies the bodies were most of a whole-repository
// check's time and memory. Generic functions keep theirs (go/types wants one). Errors the
// trimmed dependencies then have (an import only a body used) are theirs, never reported.
func bodiesOnlyIn(req Request) func(*token.FileSet, string, []byte) (*ast.File, error) {
	dirs := map[string]bool{}
	for _, f := range req.Files {
		dirs[filepath.Dir(f)] = true
	}
	return func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		if dirs[filepath.Dir(filename)] {
			return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments)
		}
		f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
		if f != nil {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Type.TypeParams.NumFields() == 0 {
					fd.Body = nil
				}
			}
		}
		return f, err
	}
}
