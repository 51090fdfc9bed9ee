package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
)

// An overlaid check of packages no snapshot holds loads the disk's packages and re-checks
// the overlaid ones warm (Loader.Check). The disk load needs go list's answer and the
// imports' types, not the disk's packages type-checked: that check would be thrown away
// by the warm one. So it asks go list for the package graph and the export data files,
// and reads the imports' types from those as a snapshot a Store kept is rebuilt
// (persist.go): the packages are type-checked once, on the warm path. A dependency that
// does not compile, and so has no export data, is type-checked from source; anything
// else this cannot settle falls back to a cold load.

const listMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedModule | packages.NeedTypesSizes

// errThrough declines a listed load whose roots a dependency imports: the warm re-check
// of the roots would leave that dependency's types naming the old ones (staleThrough).
var errThrough = errors.New("a dependency imports a package of the load")

// exportFiles fills in the export data files of the dependencies of roots, asking go list
// for them alone (`go list -export` of the dependencies): asked together with the graph,
// go list would compile the roots and their test variants too — a second or more of a
// one-file diff on a fresh edit, for export data nobody reads, since the roots are
// type-checked from source on the warm path. It declines (errThrough) when a dependency
// imports a root, directly or not, or is recompiled for a test (typesLoader.load): the
// warm path could not use such a load, so its export data is not asked for.
func exportFiles(ctx context.Context, cfg *packages.Config, roots []*packages.Package) error {
	own := map[string]bool{}
	for _, p := range roots {
		own[p.ID] = true
	}
	deps := map[string]*packages.Package{}
	through := false
	var visit func(*packages.Package)
	visit = func(p *packages.Package) {
		for _, ip := range p.Imports {
			switch {
			case own[ip.ID]:
				through = through || !own[p.ID]
			case deps[ip.ID] == nil:
				deps[ip.ID] = ip
				visit(ip)
			}
		}
	}
	for _, p := range roots {
		visit(p)
	}
	ids := make([]string, 0, len(deps))
	for id, p := range deps {
		through = through || strings.Contains(id, " [")
		if p.PkgPath != "unsafe" {
			ids = append(ids, id)
		}
	}
	if through {
		return errThrough
	}
	if len(ids) == 0 {
		return nil
	}
	export, err := listExports(ctx, cfg.Dir, cfg.Env, cfg.BuildFlags, ids)
	if err != nil {
		return err
	}
	for id, file := range export {
		if d := deps[id]; d != nil {
			d.ExportFile = file
		}
	}
	return nil
}

// listExports asks `go list -export` for the export data files of the packages ids
// alone (no graph: their dependencies' are not asked for), by package ID. It runs go
// list itself rather than through go/packages, which first asks the go command for its
// version (one more go process on a one-file diff's path). A package that does not
// compile has no file: it is type-checked from source.
func listExports(ctx context.Context, dir string, env, flags, ids []string) (map[string]string, error) {
	return listExportsIn(ctx, dir, env, flags, ids, exportArgMax)
}

// listExportsIn is listExports with at most argMax bytes of package paths per go list.
func listExportsIn(ctx context.Context, dir string, env, flags, ids []string, argMax int) (map[string]string, error) {
	ids = slices.Sorted(slices.Values(ids))
	export := make(map[string]string, len(ids))
	for len(ids) > 0 {
		n, size := 0, 0
		for n < len(ids) && (n == 0 || size+len(ids[n]) < argMax) {
			size += len(ids[n]) + 1
			n++
		}
		if err := listExportChunk(ctx, dir, env, flags, ids[:n], export); err != nil {
			return nil, err
		}
		ids = ids[n:]
	}
	return export, nil
}

// exportArgMax bounds the bytes of package paths on one go list command line, below
// Windows' 32 KiB limit with room for the environment, as go/packages does.
const exportArgMax = 16 << 10

func listExportChunk(ctx context.Context, dir string, env, flags, ids []string, export map[string]string) error {
	out, err := goList(ctx, dir, env, exportArgs, flags, ids)
	if err != nil {
		return fmt.Errorf("go list -export in %s: %w", dir, err)
	}
	err = decodeEach(out, func(p *struct{ ImportPath, Export string }) bool {
		export[p.ImportPath] = p.Export
		return true
	})
	if err != nil {
		return fmt.Errorf("go list -export in %s: %w", dir, err)
	}
	return nil
}

// exportArgs are listExportChunk's go list flags: the export data of the packages named,
// nothing else.
var exportArgs = []string{"-e", "-json=ImportPath,Export", "-export=true", "-deps=false", "-test=false",
	"-compiled=false", "-find=false", "-buildvcs=false", "-pgo=off"}

// goList runs `go list` in dir with args, the build flags and pkgs, and returns its
// JSON answer; the error carries go list's standard error, or is ctx's.
func goList(ctx context.Context, dir string, env, args, flags, pkgs []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", slices.Concat([]string{"list"}, args, flags, []string{"--"}, pkgs)...)
	cmd.Dir = dir
	cmd.Env = append(slices.Clip(env), "PWD="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// decodeEach decodes go list's stream of JSON objects in turn, handing each to f until
// f returns false.
func decodeEach[T any](out []byte, f func(*T) bool) error {
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		p := new(T)
		if err := dec.Decode(p); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		if !f(p) {
			return nil
		}
	}
}

// diskSnapshot returns the snapshot of the disk's packages of req (which has no
// overlay) for the warm path, nil when they cannot be re-checked alone.
func (l *Loader) diskSnapshot(ctx context.Context, req Request) (*snapshot, error) {
	if !l.forget && req.Build.GOOS == "" && req.Build.GOARCH == "" {
		snap, decided := l.listed(ctx, req)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if decided {
			if snap != nil {
				l.fromList++
			}
			return snap, nil
		}
	}
	_, snap, err := l.cold(ctx, req)
	return snap, err
}

// listed builds the snapshot of the disk's packages of req from go list's answer alone.
// decided is false when that cannot be done but a cold load may (go list failed, export
// data is unreadable); it is true with a nil snapshot when the packages
// cannot be re-checked alone either way (cgo, no Go files, outside a module).
func (l *Loader) listed(ctx context.Context, req Request) (snap *snapshot, decided bool) {
	if !fileExists(filepath.Join(req.Dir, "go.mod"), nil) {
		return nil, false
	}
	patterns, err := loadPatterns(req, true)
	if err != nil {
		return nil, false
	}
	env := l.loadEnv(req)
	start := time.Now()
	pkgs, once := walkOnce(ctx, req, env, patterns)
	if once {
		l.walkedOnce++
	} else if pkgs, err = l.listTwice(ctx, req, env, patterns); err != nil {
		return nil, false
	}
	snap = &snapshot{dir: req.Dir, fset: token.NewFileSet(), modHash: modHash(req.Dir, nil), byDir: map[string][]*pkgState{},
		build: buildContext(env, req.Build.Tags), env: env, stamps: l.stamps, loaded: start}
	for _, p := range pkgs {
		if isTestMain(p) {
			continue
		}
		if p.Module == nil || p.TypesSizes == nil || len(p.CompiledGoFiles) == 0 || len(p.CompiledGoFiles) != len(p.GoFiles) {
			return nil, true
		}
		if snap.src == nil {
			snap.module = Module{Path: p.Module.Path, Dir: req.Dir, GoVersion: p.Module.GoVersion}
			snap.src = newSources(req.Dir, p.Module.Path, env)
		}
		st := listedState(snap, p)
		snap.byDir[st.dir] = append(snap.byDir[st.dir], st)
	}
	if err := listedTypes(snap, pkgs); err != nil {
		return nil, false
	}
	return snap, true
}

// listTwice lists the graph of patterns through go/packages, then its dependencies'
// export data (exportFiles).
func (l *Loader) listTwice(ctx context.Context, req Request, env, patterns []string) ([]*packages.Package, error) {
	cfg := &packages.Config{Context: ctx, Mode: listMode, Dir: req.Dir, Env: env, BuildFlags: req.Build.flags(), Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err == nil {
		err = listFailure(pkgs)
	}
	if err == nil {
		err = exportFiles(ctx, cfg, pkgs)
	}
	return pkgs, err
}

// listedTypes gives the imports of snap's packages their types: from the export data go
// list named, into one map by package path (see importExportData), or, for a dependency
// with none because it does not compile (a state an agent's multi-package edit passes
// through), type-checked from source without function bodies, as go/packages does — a
// cold load would run go list again, and the compiler's failures are not cached.
func listedTypes(snap *snapshot, roots []*packages.Package) error {
	byID := map[string]*packages.Package{}
	var index func(*packages.Package)
	index = func(p *packages.Package) {
		if byID[p.ID] == nil {
			byID[p.ID] = p
			for _, ip := range p.Imports {
				index(ip)
			}
		}
	}
	for _, p := range roots {
		index(p)
	}
	var imps []*Import
	ld := &typesLoader{fset: snap.fset, view: map[string]*types.Package{}, done: map[string]*types.Package{}, own: map[string]bool{}}
	for _, sts := range snap.byDir {
		for _, st := range sts {
			ld.own[st.id] = true
			for _, im := range st.imports {
				imps = append(imps, im)
			}
		}
	}
	sort.Slice(imps, func(i, j int) bool { return imps[i].ID < imps[j].ID })
	for _, im := range imps {
		if len(im.Errors) > 0 || ld.own[im.ID] {
			continue // a package of the snapshot is re-checked from source before its importers
		}
		p := byID[im.ID]
		if p == nil {
			return fmt.Errorf("%s: not in go list's answer", im.ID)
		}
		t, err := ld.load(p)
		if err != nil {
			return err
		}
		im.Types = t
	}
	return nil
}

// typesLoader loads the types of listed packages, each once.
type typesLoader struct {
	fset *token.FileSet
	view map[string]*types.Package // by package path, for gcexportdata
	done map[string]*types.Package // by package ID
	own  map[string]bool           // the IDs of the snapshot's packages
}

func (ld *typesLoader) load(p *packages.Package) (*types.Package, error) {
	if t := ld.done[p.ID]; t != nil {
		return t, nil
	}
	var t *types.Package
	var err error
	switch {
	case p.PkgPath == "unsafe":
		t = types.Unsafe
	case strings.Contains(p.ID, " [") && !ld.own[p.ID]:
		// A dependency recompiled for a test: export data of others refers to it by path,
		// which one map by path cannot tell from the package itself.
		err = fmt.Errorf("%s: a test variant of a dependency", p.ID)
	case p.ExportFile != "":
		t, err = readExportData(ld.fset, ld.view, &Import{ID: p.ID, Path: p.PkgPath, export: p.ExportFile})
	default:
		t, err = ld.fromSource(p)
	}
	if err != nil {
		return nil, err
	}
	ld.done[p.ID] = t
	return t, nil
}

// fromSource type-checks p from its files, without function bodies, ignoring its errors:
// they are its own, never the checked packages'.
func (ld *typesLoader) fromSource(p *packages.Package) (*types.Package, error) {
	if len(p.CompiledGoFiles) == 0 {
		return nil, fmt.Errorf("%s: no export data and no files", p.ID)
	}
	var files []*ast.File
	for _, name := range p.CompiledGoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if f, _ := parser.ParseFile(ld.fset, name, src, parser.SkipObjectResolution); f != nil {
			files = append(files, f)
		}
	}
	cfg := &types.Config{
		IgnoreFuncBodies: true,
		Importer: importerFunc(func(path string) (*types.Package, error) {
			ip := p.Imports[path]
			if ip == nil {
				return nil, fmt.Errorf("%s: import %q not in go list's answer", p.ID, path)
			}
			return ld.load(ip)
		}),
		Sizes: p.TypesSizes,
		Error: func(error) {},
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		cfg.GoVersion = "go" + p.Module.GoVersion
	}
	t, _ := cfg.Check(p.PkgPath, ld.fset, files, nil)
	if ld.view[p.PkgPath] == nil && !ld.own[p.ID] {
		ld.view[p.PkgPath] = t
	}
	return t, nil
}

// listedState returns the state of package p of a listed snapshot: its files and imports
// from go list, and the fingerprints of every dependency whose files can change, found
// through the package graph.
func listedState(snap *snapshot, p *packages.Package) *pkgState {
	st := &pkgState{
		id: p.ID, pkgPath: p.PkgPath, name: p.Name,
		dir: filepath.Dir(p.CompiledGoFiles[0]), files: p.CompiledGoFiles,
		other: p.OtherFiles, ignored: p.IgnoredFiles,
		imports: map[string]*Import{}, sizes: p.TypesSizes, goVersion: p.Module.GoVersion,
		deps: map[string]string{}, stamps: snap.stamps,
	}
	st.listing = listing(st.dir, nil)
	for path, ip := range p.Imports {
		im := &Import{ID: ip.ID, Path: ip.PkgPath, export: ip.ExportFile}
		if len(ip.GoFiles) == 0 && len(ip.CompiledGoFiles) == 0 {
			for _, e := range ip.Errors {
				im.Errors = append(im.Errors, listErr(e, snap.dir))
			}
		}
		st.imports[path] = im
	}
	seen := map[string]bool{}
	var walk func(*packages.Package)
	walk = func(q *packages.Package) {
		for _, ip := range q.Imports {
			if seen[ip.PkgPath] {
				continue
			}
			seen[ip.PkgPath] = true
			if dir, mutable := snap.src.dirOf(ip.PkgPath); mutable {
				st.deps[dir] = snap.stamps.fingerprint(dir, nil, snap.loaded)
				walk(ip)
			}
		}
	}
	walk(p)
	return st
}
