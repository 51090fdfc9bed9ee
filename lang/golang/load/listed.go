package load

import (
	"context"
	"go/token"
	"path/filepath"
	"time"

	"golang.org/x/tools/go/packages"
)

// An overlaid check of packages no snapshot holds loads the disk's packages and re-checks
// the overlaid ones warm (Loader.Check). The disk load needs go list's answer and the
// imports' types, not the disk's packages type-checked: that check would be thrown away
// by the warm one. So it asks go list for the package graph and the export data files,
// and reads the imports' types from those as a snapshot a Store kept is rebuilt
// (persist.go): the packages are type-checked once, on the warm path. Anything this
// cannot settle (cgo, a dependency without export data) falls back to a cold load.

const listMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedExportFile | packages.NeedModule | packages.NeedTypesSizes

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
// data is missing or unreadable); it is true with a nil snapshot when the packages
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
	cfg := &packages.Config{Context: ctx, Mode: listMode, Dir: req.Dir, Env: env, BuildFlags: req.Build.flags(), Tests: true}
	start := time.Now()
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil || listFailure(pkgs) != nil {
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
	if err := snap.importExportData(); err != nil {
		return nil, false
	}
	return snap, true
}

// listedState returns the state of package p of a listed snapshot: its files and imports
// from go list, and the fingerprints of every dependency whose files can change, found
// through the package graph.
func listedState(snap *snapshot, p *packages.Package) *pkgState {
	st := &pkgState{
		id: p.ID, pkgPath: p.PkgPath, name: p.Name,
		dir: filepath.Dir(p.CompiledGoFiles[0]), files: p.CompiledGoFiles,
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
