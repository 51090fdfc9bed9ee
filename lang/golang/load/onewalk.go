package load

import (
	"context"
	"go/build"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"

	"github.com/agentverify/agentverify/lang/golang/goenv"
)

// A one-file diff of a package whose dependencies are built costs what `go vet` of the
// package costs only if the go command walks the package graph once, as go vet does. A
// listed load asked go list twice: for the graph of the checked packages and their test
// variants, then for their dependencies' export data (exportFiles). walkOnce asks once:
// the checked packages' own files and imports come from go/build, which reads their
// directories as the go command does, and one `go list -deps -export` of their imports
// gives the rest of the graph with its export data. It declines whenever go/build could
// decide a file's membership differently from the go command (cgo, toolchain-version,
// experiment or CPU-level tags, a build environment it does not model), or go list's
// answer needs what only the graph of the checked packages shows (an import error, a
// dependency or another checked package importing a checked package, vendoring); the
// two-list load then runs.

// walkOnce returns the packages of patterns (directories of req's module) and their test
// variants, as `go list -deps -test` through go/packages would, their dependencies'
// export data files filled in; false when it declines.
func walkOnce(ctx context.Context, req Request, env []string, patterns []string) ([]*packages.Package, bool) {
	ctxt := oneWalkContext(req, env)
	if ctxt == nil {
		return nil, false
	}
	mod, ok := mainModule(req.Dir)
	if !ok {
		return nil, false
	}
	var dirs []*build.Package
	var imports []string
	own := map[string]bool{}
	for _, pat := range patterns {
		bp, ok := ownPackage(ctxt, req.Dir, pat)
		if !ok {
			return nil, false
		}
		bp.ImportPath = mod.Path
		if rel := filepath.ToSlash(filepath.Clean(pat)); rel != "." {
			bp.ImportPath += "/" + rel
		}
		own[bp.ImportPath] = true
		dirs = append(dirs, bp)
		imports = append(imports, bp.Imports...)
		imports = append(imports, bp.TestImports...)
		imports = append(imports, bp.XTestImports...)
	}
	if importsOwn(dirs, own) {
		return nil, false
	}
	imports = slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(imports))), func(p string) bool { return own[p] })
	sizes := types.SizesFor("gc", ctxt.GOARCH)
	deps, ok := listDeps(ctx, req.Dir, env, req.Build.flags(), imports, own, sizes)
	if !ok || !samePort(ctxt, deps) {
		return nil, false
	}
	var out []*packages.Package
	for _, bp := range dirs {
		out = append(out, variants(bp, mod, deps, sizes)...)
	}
	return out, true
}

// importsOwn reports whether a package of dirs, or one of its tests, imports another
// package of dirs (own): go list links the two, and recompiles the imported one for a
// test that it leads back to ("uses [through.test]"), which variants does not model.
// An external test importing its own package is modelled.
func importsOwn(dirs []*build.Package, own map[string]bool) bool {
	for _, bp := range dirs {
		for _, path := range slices.Concat(bp.Imports, bp.TestImports, bp.XTestImports) {
			if own[path] && path != bp.ImportPath {
				return true
			}
		}
	}
	return false
}

// oneWalkContext returns the go/build configuration the go command would use for req,
// nil when it cannot be sure of one: a cross build, GOFLAGS that may select other files
// or modules, a go env file or environment setting the port, cgo or experiments.
func oneWalkContext(req Request, env []string) *build.Context {
	if req.Build.GOOS != "" || req.Build.GOARCH != "" {
		return nil
	}
	for _, f := range strings.Fields(goenv.Last(env, "GOFLAGS")) {
		if !selectsNoFiles(f) {
			return nil
		}
	}
	file := goenv.Read(env)
	for _, k := range []string{"GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT", "GOAMD64", "GOARM64", "GO386", "GOARM"} {
		if goenv.Last(env, k) != "" || file[k] != "" {
			return nil
		}
	}
	return buildContext(env, req.Build.Tags)
}

// selectsNoFiles reports whether the go command flag f (from GOFLAGS) leaves the files
// of a package and the modules as go/build sees them: -race, -tags, -modfile, -overlay,
// -mod=vendor and the like do not.
func selectsNoFiles(f string) bool {
	if v, ok := cutModFlag(f); ok {
		return v == "readonly" || v == "mod"
	}
	name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
	switch name {
	case "buildvcs", "trimpath", "ldflags", "gcflags", "asmflags", "p", "pgo", "v", "x", "json", "modcacherw",
		// test flags a CI sets for every go command (go list ignores them)
		"timeout", "count", "short", "failfast", "vet", "parallel", "cpu":
		return true
	}
	return false
}

// samePort reports whether the go command built deps for the port go/build selected the
// checked packages' files for: they differ when agentverify runs as another port than the
// toolchain (an amd64 binary emulated on arm64). The standard library names the go
// command's port in the files it picked for internal/goos and internal/goarch, which
// every package depends on; without them there is nothing to compare.
func samePort(ctxt *build.Context, deps map[string]*packages.Package) bool {
	for pkg, file := range map[string]string{"internal/goos": "zgoos_" + ctxt.GOOS + ".go", "internal/goarch": "zgoarch_" + ctxt.GOARCH + ".go"} {
		p := deps[pkg]
		if p != nil && !slices.ContainsFunc(p.GoFiles, func(f string) bool { return filepath.Base(f) == file }) {
			return false
		}
	}
	return true
}

// mainModule returns the module whose go.mod is in dir, false when there is none, or the
// module vendors its dependencies or is part of a workspace (import paths the go
// command maps, which go/build does not).
func mainModule(dir string) (*packages.Module, bool) {
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil || fileExists(filepath.Join(dir, "vendor", "modules.txt"), nil) || workFile(dir, os.Getenv("GOWORK")) != "" {
		return nil, false
	}
	f, err := modfile.ParseLax(gomod, data, nil)
	if err != nil || f.Module == nil || f.Go == nil { // without a go line, go list names a default version
		return nil, false
	}
	return &packages.Module{Path: f.Module.Mod.Path, Main: true, Dir: dir, GoMod: gomod, GoVersion: f.Go.Version}, true
}

// ownPackage reads the package in directory pat of the module at dir as the go command
// would select its files, false when go/build might select them differently, the
// directory is in a nested module, or the package is one a listed load declines anyway
// (cgo, no non-test files).
func ownPackage(ctxt *build.Context, dir, pat string) (*build.Package, bool) {
	pkgDir := filepath.Join(dir, filepath.FromSlash(pat))
	if inNestedModule(dir, pkgDir) {
		return nil, false
	}
	bp, err := ctxt.ImportDir(pkgDir, 0)
	if err != nil || len(bp.GoFiles) == 0 || len(bp.CgoFiles) > 0 || len(bp.InvalidGoFiles) > 0 || !tagsAgree(bp.AllTags) {
		return nil, false
	}
	for _, path := range slices.Concat(bp.Imports, bp.TestImports, bp.XTestImports) {
		if path == "C" || build.IsLocalImport(path) {
			return nil, false
		}
	}
	return bp, true
}

// inNestedModule reports whether pkgDir, under the module root dir, is in a nested
// module, which go list would not count as the module's.
func inNestedModule(dir, pkgDir string) bool {
	for d := pkgDir; d != dir && strings.HasPrefix(d, dir); d = filepath.Dir(d) {
		if fileExists(filepath.Join(d, "go.mod"), nil) {
			return true
		}
	}
	return false
}

// tagsAgree reports whether go/build decides the build constraints naming tags as the
// go command does: not those that depend on the toolchain (its release, experiments, CPU
// levels such as amd64.v3, the compiler) or on whether cgo finds a C compiler.
func tagsAgree(tags []string) bool {
	for _, tag := range tags {
		if tag == "cgo" || tag == "gccgo" || strings.Contains(tag, ".") {
			return false // go1.N, goexperiment.X and amd64.v3 all have a dot
		}
	}
	return true
}

// listedPkg is one package of `go list -deps -export -json`.
type listedPkg struct {
	ImportPath, Name, Dir, Export string
	GoFiles, CompiledGoFiles      []string
	Imports                       []string
	ImportMap                     map[string]string
	Module                        *packages.Module
	Error                         *struct{ Err string }
	DepsErrors                    []*struct{ Err string }
}

// depsArgs are listDeps' go list flags: the graph under the packages named, with their
// files and export data.
var depsArgs = []string{"-e", "-json=ImportPath,Name,Dir,Export,GoFiles,CompiledGoFiles,Imports,ImportMap,Module,Error,DepsErrors",
	"-export=true", "-deps=true", "-test=false", "-compiled=true", "-find=false", "-buildvcs=false", "-pgo=off"}

// listDeps lists the dependency graph under imports with export data, as go/packages
// packages by import path; false when the answer has an error or a package of own (a
// dependency importing a checked package).
func listDeps(ctx context.Context, dir string, env, flags, imports []string, own map[string]bool, sizes types.Sizes) (map[string]*packages.Package, bool) {
	deps := map[string]*packages.Package{}
	if len(imports) == 0 {
		return nil, false // the two-list load runs the go command, which must be there (fail closed)
	}
	out, err := goList(ctx, dir, env, depsArgs, flags, imports)
	if err != nil {
		return nil, false
	}
	listed, ok := decodeListed(out, own)
	if !ok {
		return nil, false
	}
	for _, p := range listed {
		deps[p.ImportPath] = &packages.Package{ID: p.ImportPath, PkgPath: p.ImportPath, Name: p.Name, Module: p.Module,
			GoFiles: absAll(p.Dir, p.GoFiles), CompiledGoFiles: absAll(p.Dir, p.CompiledGoFiles),
			ExportFile: p.Export, TypesSizes: sizes, Imports: map[string]*packages.Package{}}
	}
	for _, p := range listed {
		if !linkImports(p, deps) {
			return nil, false
		}
	}
	for _, path := range imports {
		if deps[path] == nil {
			return nil, false
		}
	}
	return deps, true
}

// decodeListed decodes go list's answer, false when a package has an error or no export
// data, or is one of own.
func decodeListed(out []byte, own map[string]bool) ([]*listedPkg, bool) {
	var listed []*listedPkg
	ok := true
	err := decodeEach(out, func(p *listedPkg) bool {
		ok = p.Error == nil && len(p.DepsErrors) == 0 && !own[p.ImportPath] && (p.Export != "" || p.ImportPath == "unsafe")
		listed = append(listed, p)
		return ok
	})
	return listed, ok && err == nil
}

// linkImports fills in the Imports of p's package in deps, by the import paths as its
// files write them (ImportMap: the standard library's vendored packages); false when an
// import is not in deps.
func linkImports(p *listedPkg, deps map[string]*packages.Package) bool {
	written := make(map[string]string, len(p.ImportMap))
	for src, resolved := range p.ImportMap {
		written[resolved] = src
	}
	for _, path := range p.Imports {
		if path == "C" {
			continue // cgo's pseudo-package, which go/packages leaves out too
		}
		ip := deps[path]
		if ip == nil {
			return false
		}
		if src, ok := written[path]; ok {
			path = src
		}
		deps[p.ImportPath].Imports[path] = ip
	}
	return true
}

// variants returns the package bp and its test variants as go list -test names them: the
// package, the package with its in-package tests "p [p.test]", and the external test
// package "p_test [p.test]", which imports the test variant when there is one.
func variants(bp *build.Package, mod *packages.Module, deps map[string]*packages.Package, sizes types.Sizes) []*packages.Package {
	mk := func(id, path, name string, files []string, imports ...[]string) *packages.Package {
		p := &packages.Package{ID: id, PkgPath: path, Name: name, GoFiles: absAll(bp.Dir, files), Module: mod,
			TypesSizes: sizes, Imports: map[string]*packages.Package{}}
		p.CompiledGoFiles = p.GoFiles
		for _, list := range imports {
			for _, ip := range list {
				if deps[ip] != nil {
					p.Imports[ip] = deps[ip]
				}
			}
		}
		return p
	}
	other := absAll(bp.Dir, slices.Concat(bp.CFiles, bp.CXXFiles, bp.MFiles, bp.HFiles, bp.FFiles, bp.SFiles, bp.SwigFiles, bp.SwigCXXFiles, bp.SysoFiles))
	ignored := absAll(bp.Dir, slices.Concat(bp.IgnoredGoFiles, bp.IgnoredOtherFiles))
	p := mk(bp.ImportPath, bp.ImportPath, bp.Name, bp.GoFiles, bp.Imports)
	p.OtherFiles, p.IgnoredFiles = other, ignored
	out := []*packages.Package{p}
	under := p
	if len(bp.TestGoFiles) > 0 {
		test := bp.ImportPath + ".test"
		under = mk(bp.ImportPath+" ["+test+"]", bp.ImportPath, bp.Name, slices.Concat(bp.GoFiles, bp.TestGoFiles), bp.Imports, bp.TestImports)
		under.OtherFiles, under.IgnoredFiles = other, ignored
		out = append(out, under)
	}
	if len(bp.XTestGoFiles) > 0 {
		test := bp.ImportPath + ".test"
		x := mk(bp.ImportPath+"_test ["+test+"]", bp.ImportPath+"_test", bp.Name+"_test", bp.XTestGoFiles, bp.XTestImports)
		if slices.Contains(bp.XTestImports, bp.ImportPath) {
			x.Imports[bp.ImportPath] = under
		}
		out = append(out, x)
	}
	return out
}

// absAll joins each name to dir.
func absAll(dir string, names []string) []string {
	if len(names) == 0 {
		return nil
	}
	out := make([]string, len(names))
	for i, n := range names {
		if filepath.IsAbs(n) {
			out[i] = n
		} else {
			out[i] = filepath.Join(dir, n)
		}
	}
	return out
}
