package load

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/build"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/tools/go/gcexportdata"

	"github.com/agentverify/agentverify/lang/golang/goenv"
	"github.com/agentverify/agentverify/resultcache"
)

// A process that checks one edit and exits (the Claude Code hook) would run go list on
// every edit: its answer is most of a cold check. A Store keeps on the disk what a cold
// load of the disk's packages learnt — per package variant its files, the directory
// listing, the fingerprints of its mutable dependencies, and per import the export data
// file go list named — so that a later process rebuilds the snapshot (warm.go) without
// go list, validates it exactly as an in-memory one (snapshot.reusable), imports the
// dependencies' types from their export data and re-checks the packages warm. An entry
// is named by everything go list's answer depends on that the snapshot does not
// validate itself: the module directory, the build configuration, the packages'
// directories, the toolchain and its environment (toolchainKey) and the agentverify
// build. Anything that does not validate is a miss, and the check is cold
// (design.md §9).

// Store persists snapshots of cold loads in a result cache (agentverify cache dir), so
// that `agentverify cache clean` removes them with the results. It is safe for
// concurrent use by many processes: entries are written by atomic rename, and a torn,
// corrupt or foreign entry is a miss.
type Store struct {
	cache *resultcache.Cache
}

// NewStore returns a Store keeping its entries in c.
func NewStore(c *resultcache.Cache) *Store { return &Store{cache: c} }

// entryVersion changes with the format or meaning of an entry, turning old ones into
// misses.
const entryVersion = 2

// entry is what a Store keeps of one snapshot.
type entry struct {
	Version  int
	Dir      string
	Module   Module
	ModHash  string
	Packages []savedPackage
}

type savedPackage struct {
	ID, PkgPath, Name, Dir string
	Files                  []string
	OtherFiles             []string `json:",omitempty"`
	IgnoredFiles           []string `json:",omitempty"`
	Listing                string
	GoVersion              string
	Compiler, Arch         string            // the types.SizesFor arguments
	Deps                   map[string]string // mutable dependency directory → fingerprint
	Imports                map[string]savedImport
}

type savedImport struct {
	ID, Path string
	// Export is the export data file go list named, Size its size then; empty for
	// unsafe, and when Errors says why the import resolves to nothing. An import that is
	// a package of the snapshot itself (the package its external test imports) has its
	// export data too, for callers of Imports; the re-check uses the package it re-checked.
	Export string  `json:",omitempty"`
	Size   int64   `json:",omitempty"`
	Errors []Error `json:",omitempty"`
}

// loadEnv is the environment of go list for req (Loader.cold).
func (l *Loader) loadEnv(req Request) []string {
	return append(l.Env(req.Dir), req.Build.env()...)
}

// entryKey names the entry of the packages in dirs of req's module and configuration
// loaded with env; false when the toolchain or the agentverify build cannot be named, or
// GOFLAGS names a go.mod or an overlay of its own, whose content no snapshot checks.
func entryKey(req Request, env []string, dirs []string) (resultcache.Key, bool) {
	if flags := goenv.Last(env, "GOFLAGS"); strings.Contains(flags, "-modfile") || strings.Contains(flags, "-overlay") {
		return resultcache.Key{}, false // files the snapshot does not fingerprint
	}
	tool, ok := toolchainKey(env)
	if !ok {
		return resultcache.Key{}, false
	}
	self, ok := executableID()
	if !ok {
		return resultcache.Key{}, false
	}
	h := sha256.New()
	fmt.Fprintf(h, "agentverify go load %d\x00%s\x00%s\x00%s\x00%s", entryVersion, self, req.Dir, req.Build.key(), tool)
	for _, d := range dirs {
		fmt.Fprintf(h, "\x00%s", d)
	}
	var k resultcache.Key
	h.Sum(k[:0])
	return k, true
}

// targetDirs returns the sorted directories of files.
func targetDirs(files []string) []string {
	seen := map[string]bool{}
	var dirs []string
	for _, f := range files {
		if d := filepath.Dir(f); !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	return dirs
}

// executableID names the running agentverify build, so a rebuilt binary never reads an
// entry an older one wrote.
func executableID() (string, bool) {
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("%s %d %d", exe, fi.Size(), fi.ModTime().UnixNano()), true
}

// toolchainKey identifies the go command a load runs and everything in its environment
// that can change go list's answer or the export data it names: the resolved go binary
// (path, size, modification time), its GOROOT's VERSION and go.env, the user's go env
// file (go env -w), the C compilers it would run (cCompilers), and every GO*, CGO_* and
// C toolchain setting and the home directories that locate the go env file and caches.
func toolchainKey(env []string) (string, bool) {
	goBin, err := exec.LookPath("go") // as go/packages finds it: in this process's PATH
	if err != nil {
		return "", false
	}
	if goBin, err = filepath.Abs(goBin); err != nil {
		return "", false
	}
	if goBin, err = filepath.EvalSymlinks(goBin); err != nil {
		return "", false
	}
	fi, err := os.Stat(goBin)
	if err != nil {
		return "", false
	}
	h := sha256.New()
	fmt.Fprintf(h, "go %s %d %d\n", goBin, fi.Size(), fi.ModTime().UnixNano())
	root := goenv.Last(env, "GOROOT")
	if root == "" {
		root = filepath.Dir(filepath.Dir(goBin))
	}
	for _, name := range []string{filepath.Join(root, "VERSION"), filepath.Join(root, "go.env"), goenv.File(env)} {
		b, err := os.ReadFile(name)
		fmt.Fprintf(h, "%s %t %d\n", name, err == nil, len(b))
		h.Write(b)
	}
	for _, cc := range cCompilers(env) {
		fmt.Fprintf(h, "cc %s\n", cc)
	}
	vars := map[string]string{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && keyVar(k) {
			vars[k] = v
		}
	}
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Fprintf(h, "%s=%q\n", k, vars[k])
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// cCompilers identifies the C compilers cgo would run, as this process's search path
// resolves them: $CC, or the go command's defaults. (The search path itself is not part
// of the key: it differs between shells, virtual environments and version managers
// without changing which go and C compiler it finds.)
func cCompilers(env []string) []string {
	names := []string{"gcc", "clang"}
	if f := strings.Fields(goenv.Last(env, "CC")); len(f) > 0 {
		names = f[:1]
	}
	var out []string
	for _, name := range names {
		id := name + " none"
		if p, err := exec.LookPath(name); err == nil {
			if p, err = filepath.EvalSymlinks(p); err == nil {
				if fi, err := os.Stat(p); err == nil {
					id = fmt.Sprintf("%s %s %d %d", name, p, fi.Size(), fi.ModTime().UnixNano())
				}
			}
		}
		out = append(out, id)
	}
	return out
}

// keyVar reports whether the environment variable k can change what go list answers.
func keyVar(k string) bool {
	switch k {
	case "CC", "CXX", "FC", "AR", "PKG_CONFIG", "HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME":
		return true
	case "GOGC", "GOMAXPROCS", "GOMEMLIMIT", "GOTRACEBACK": // the runtime's, not the build's
		return false
	}
	return strings.HasPrefix(k, "GO") || strings.HasPrefix(k, "CGO_")
}

// save stores snap, the snapshot of a load of the disk's packages for req, when l has a
// store and the snapshot can be rebuilt from an entry. A snapshot that cannot is simply
// not stored: a later process loads cold, as without a store. l.mu is held.
func (l *Loader) save(req Request, snap *snapshot) {
	if l.store == nil || l.forget || snap == nil || len(req.Overlay) > 0 {
		return
	}
	e, ok := snap.entry()
	if !ok {
		return
	}
	dirs := make([]string, 0, len(snap.byDir))
	for d := range snap.byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	key, ok := entryKey(req, snap.env, dirs)
	if !ok {
		return
	}
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	_ = l.store.cache.Put(key, data) // a store that cannot be written only costs time
}

// entry returns what a Store keeps of s; false when s cannot be rebuilt from it: an
// import with no export data file (dependencies type-checked from source), a test
// variant of a dependency (whose types the export data of others refer to by path), a
// dependency fingerprint or directory listing taken while its files changed.
func (s *snapshot) entry() (entry, bool) {
	e := entry{Version: entryVersion, Dir: s.dir, Module: s.module, ModHash: hex.EncodeToString(s.modHash[:])}
	own := map[string]bool{}
	for _, sts := range s.byDir {
		for _, st := range sts {
			own[st.id] = true
		}
	}
	for dir, sts := range s.byDir {
		if fi, err := os.Stat(dir); err != nil || !statKeyOf(fi).lastChange().Before(s.loaded) {
			return entry{}, false // a file may have come or gone during the load
		}
		for _, st := range sts {
			sp, ok := s.savedPackage(st, own)
			if !ok {
				return entry{}, false
			}
			e.Packages = append(e.Packages, sp)
		}
	}
	sort.Slice(e.Packages, func(i, j int) bool { return e.Packages[i].ID < e.Packages[j].ID })
	return e, true
}

func (s *snapshot) savedPackage(st *pkgState, own map[string]bool) (savedPackage, bool) {
	compiler, arch, ok := sizesName(st.sizes, s.env)
	if !ok {
		return savedPackage{}, false
	}
	sp := savedPackage{
		ID: st.id, PkgPath: st.pkgPath, Name: st.name, Dir: st.dir, Files: st.files,
		OtherFiles: st.other, IgnoredFiles: st.ignored, Listing: st.listing, GoVersion: st.goVersion, Compiler: compiler, Arch: arch,
		Deps: st.deps, Imports: map[string]savedImport{},
	}
	for _, fp := range st.deps {
		if fp == "" {
			return savedPackage{}, false
		}
	}
	for path, im := range st.imports {
		si := savedImport{ID: im.ID, Path: im.Path, Errors: im.Errors}
		switch {
		case len(im.Errors) > 0 || im.Path == "unsafe":
		case own[im.ID]:
			// a package of the snapshot: re-checked before its importers, from source
		case im.export == "" || strings.Contains(im.ID, " [") && !own[im.ID]:
			return savedPackage{}, false
		default:
			fi, err := os.Stat(im.export)
			if err != nil {
				return savedPackage{}, false
			}
			si.Export, si.Size = im.export, fi.Size()
		}
		sp.Imports[path] = si
	}
	return sp, true
}

// sizesName returns the types.SizesFor arguments that give s, the sizes go/packages
// found for the configuration of env.
func sizesName(s types.Sizes, env []string) (compiler, arch string, ok bool) {
	if s == nil || !reflect.TypeOf(s).Comparable() {
		return "", "", false
	}
	for _, arch := range []string{goenv.Last(env, "GOARCH"), runtime.GOARCH, build.Default.GOARCH} {
		for _, compiler := range []string{"gc", "gccgo"} {
			if arch != "" && types.SizesFor(compiler, arch) == s {
				return compiler, arch, true
			}
		}
	}
	return "", "", false
}

// warmOrKept checks req warm on one of the loader's snapshots, or else on one a Store
// kept; ok is false when neither can serve it. l.mu is held.
func (l *Loader) warmOrKept(ctx context.Context, key string, req Request) (*Result, bool, error) {
	if res, ok, err := l.warm(ctx, key, req); err != nil || ok {
		return res, ok, err
	}
	return l.warmFromStore(ctx, key, req)
}

// warmFromStore checks req on a snapshot a Store kept, when there is one for req's
// packages and it validates; ok is false otherwise. l.mu is held.
func (l *Loader) warmFromStore(ctx context.Context, key string, req Request) (*Result, bool, error) {
	if l.store == nil || l.forget {
		return nil, false, nil
	}
	env := l.loadEnv(req)
	k, ok := entryKey(req, env, targetDirs(req.Files))
	if !ok {
		return nil, false, nil
	}
	data, ok := l.store.cache.Get(k)
	if !ok {
		return nil, false, nil
	}
	snap, ok := l.restore(data, req, env)
	if !ok {
		return nil, false, nil
	}
	res, ok, err := snap.warm(ctx, req)
	if err != nil || !ok {
		return nil, false, err
	}
	l.warms++
	l.restored++
	l.remember(key, snap)
	return res, true, nil
}

// restore rebuilds the snapshot an entry describes, for req, loaded with env: false
// when the entry does not decode, is not for req's module, or is no longer valid for
// req (snapshot.reusable), or an export data file is gone or cannot be read.
func (l *Loader) restore(data []byte, req Request, env []string) (*snapshot, bool) {
	var e entry
	if err := json.Unmarshal(data, &e); err != nil || e.Version != entryVersion || e.Dir != req.Dir || len(e.Packages) == 0 {
		return nil, false
	}
	sum, err := hex.DecodeString(e.ModHash)
	if err != nil || len(sum) != sha256.Size {
		return nil, false
	}
	snap := &snapshot{dir: e.Dir, module: e.Module, fset: token.NewFileSet(), byDir: map[string][]*pkgState{},
		build: buildContext(env, req.Build.Tags), env: env, stamps: l.stamps, src: newSources(e.Dir, e.Module.Path, env)}
	copy(snap.modHash[:], sum)
	for _, sp := range e.Packages {
		st, ok := restoreState(sp, l.stamps)
		if !ok {
			return nil, false
		}
		snap.byDir[st.dir] = append(snap.byDir[st.dir], st)
	}
	if _, _, ok := snap.reusable(req); !ok {
		return nil, false
	}
	if err := snap.importExportData(); err != nil {
		return nil, false
	}
	return snap, true
}

// restoreState rebuilds one package variant of an entry, its imports' types not yet
// loaded.
func restoreState(sp savedPackage, stamps *stampCache) (*pkgState, bool) {
	sizes := types.SizesFor(sp.Compiler, sp.Arch)
	if sizes == nil || sp.Dir == "" || len(sp.Files) == 0 {
		return nil, false
	}
	for _, f := range sp.Files {
		if filepath.Dir(f) != sp.Dir {
			return nil, false
		}
	}
	st := &pkgState{
		id: sp.ID, pkgPath: sp.PkgPath, name: sp.Name, dir: sp.Dir, files: sp.Files,
		other: sp.OtherFiles, ignored: sp.IgnoredFiles, listing: sp.Listing, sizes: sizes, goVersion: sp.GoVersion, deps: sp.Deps,
		stamps: stamps, imports: map[string]*Import{},
	}
	if st.deps == nil {
		st.deps = map[string]string{}
	}
	for path, si := range sp.Imports {
		if si.Export != "" && si.Size <= 0 {
			return nil, false
		}
		st.imports[path] = &Import{ID: si.ID, Path: si.Path, Errors: si.Errors, export: si.Export, exportSize: si.Size}
	}
	return st, true
}

// importExportData gives the imports of s's packages their types, from the export data
// files go list named, into one map by package path so that a package imported by
// several variants, or referred to by the export data of several imports, is one
// *types.Package. Only the imports of s's packages are read; what they refer to of
// their own dependencies is in their export data. (Test variants of dependencies, which
// would need a map of their own, are never saved.)
func (s *snapshot) importExportData() error {
	var imps []*Import
	own := map[string]bool{}
	for _, sts := range s.byDir {
		for _, st := range sts {
			own[st.id] = true
			for _, im := range st.imports {
				imps = append(imps, im)
			}
		}
	}
	sort.Slice(imps, func(i, j int) bool { return imps[i].ID < imps[j].ID })
	view := map[string]*types.Package{}
	done := map[string]*types.Package{}
	for _, im := range imps {
		switch {
		case len(im.Errors) > 0 || im.export == "" && own[im.ID]:
			continue // an error, or a package of the snapshot (re-checked from source)
		case im.Path == "unsafe":
			im.Types = types.Unsafe
			continue
		case done[im.ID] != nil:
			im.Types = done[im.ID]
			continue
		}
		tp, err := readExportData(s.fset, view, im)
		if err != nil {
			return err
		}
		im.Types, done[im.ID] = tp, tp
	}
	return nil
}

// readExportData reads the types of the package im from its export data file.
func readExportData(fset *token.FileSet, view map[string]*types.Package, im *Import) (tp *types.Package, err error) {
	if im.export == "" {
		return nil, fmt.Errorf("%s: no export data", im.ID)
	}
	f, err := os.Open(im.export)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || im.exportSize != 0 && fi.Size() != im.exportSize {
		return nil, fmt.Errorf("%s: export data changed", im.export)
	}
	defer func() {
		if r := recover(); r != nil { // a file that is not export data
			tp, err = nil, fmt.Errorf("%s: %v", im.export, r)
		}
	}()
	r, err := gcexportdata.NewReader(bufio.NewReader(io.LimitReader(f, fi.Size())))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", im.export, err)
	}
	tp, err = gcexportdata.Read(r, fset, view, im.Path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", im.export, err)
	}
	return tp, nil
}
