package resolve

import (
	"errors"
	"fmt"
	"go/types"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lang/golang/modfetch"
)

// Kinds of problem only Go has; the hallucination dimension declares their rules.
const (
	MissingImport     lang.Kind = "missing-import"
	UnverifiedFile    lang.Kind = "unverified-file"
	OutsideRepository lang.Kind = "outside-repository"
)

// Resolver resolves the Go code of a change with the Go toolchain. With a nil loader each
// verification gets a fresh one (kept in the request's Memo, so the base-view passes reuse
// its cache); long-lived processes give it a shared loader to re-check edits warm. The
// Fetcher brings modules into the module cache before anything is loaded (PrepareModules);
// nil means one per verification.
type Resolver struct {
	Loader  *load.Loader
	Fetcher *modfetch.Fetcher
	// Notes keeps the deprecation notes read from files outside the repository between
	// verifications (a long-lived process); nil reads them for each.
	Notes *Notes
	// way forces how a diff checks its host builds (tests compare the two); the zero
	// value chooses by cost (streamWay).
	way way
}

// Resolve reports every Go reference of the change that does not resolve, the module
// files' problems, and the Go files that could not be verified.
func (r Resolver) Resolve(req *lang.Request) ([]lang.Problem, error) {
	loader := r.Loader
	switch {
	case loader == nil && req.Memo == nil:
		loader = load.New(load.Options{})
	case loader == nil:
		loader = req.Memo.Get(load.MemoKey, func() any { return load.New(load.Options{}) }).(*load.Loader)
	}
	fetcher := r.Fetcher
	if fetcher == nil {
		fetcher = modfetch.New(nil)
	}
	mods, err := PrepareModules(req, fetcher, loader)
	if err != nil {
		return nil, err
	}
	return run(req, loader, fetcher, mods, r.Notes, r.way)
}

// unit is one group of changed files checked together: a module, or a directory outside
// any module.
type unit struct {
	dir      string // repository-relative directory
	inModule bool
	goFiles  []*change.File
	// asmFiles are the changed assembly files, which go vet's asmdecl and framepointer
	// check against their package.
	asmFiles []*change.File
	goMod    *change.File // set when the change touches this module's go.mod
	goSum    *change.File
	// goneDirs are the directories of the Go files the change deleted or renamed away:
	// they are checked too, for the code those files leave broken.
	goneDirs map[string]bool
	// workspace holds the changed Go files of the other modules of the go.work workspace
	// the unit is in: the unit's packages see them as the change has them.
	workspace []*change.File
	// fetch asks the module proxies about imports no requirement provides; mods is what
	// was fetched for the unit's module (nil outside a module, or for a base-view pass).
	fetch *modfetch.Fetcher
	mods  *modState
	notes *Notes // the long-lived process's deprecation notes, or nil
	way   way    // Resolver.way
	// ignored lists the git-ignored Go files the head leaves out (ignoredGo).
	ignored []string
}

// noteGone records the package directory of a Go file the change deletes or renames away.
func noteGone(f *change.File, get func(string) *unit) {
	if f.Op != change.Delete && f.Op != change.Rename {
		return
	}
	if old := f.OldPath; strings.HasSuffix(old, ".go") && !outsideBuild(old) {
		if u := get(old); u.inModule {
			u.goneDirs[path.Dir(old)] = true
		}
	}
}

// addToUnit files f with its module's unit: go.mod, go.sum, Go and assembly files.
func addToUnit(f *change.File, get func(string) *unit) {
	switch base := path.Base(f.Path); {
	case base == "go.mod":
		get(f.Path).goMod = f
	case base == "go.sum":
		get(f.Path).goSum = f
	case strings.HasSuffix(f.Path, ".go") && !outsideBuild(f.Path):
		u := get(f.Path)
		u.goFiles = append(u.goFiles, f)
	case strings.HasSuffix(f.Path, ".s") && f.Head != nil:
		if u := get(f.Path); u.inModule {
			u.asmFiles = append(u.asmFiles, f)
		}
	}
}

// units groups the Go files and module files of the change by module.
func units(set *change.Set, head fs.FS) (map[string]*unit, []lang.Problem) {
	units := map[string]*unit{}
	get := func(file string) *unit {
		dir, inModule := load.ModuleRoot(head, file)
		if !inModule {
			dir = path.Dir(file)
		}
		u := units[dir]
		if u == nil {
			u = &unit{dir: dir, inModule: inModule, goneDirs: map[string]bool{}}
			units[dir] = u
		}
		return u
	}
	for _, f := range set.Files {
		noteGone(f, get)
		if f.Analyzable() {
			addToUnit(f, get)
		}
	}
	moduleGone := recheckModules(set, head, get)
	return units, moduleGone
}

// outsideBuild reports whether the go command never builds the Go file at p: under a
// testdata directory (fixtures, often not meant to compile: go list of such a directory
// fails with "build constraints exclude all Go files"), or named _x.go or .x.go. Such a
// file is data, like any other file the toolchain does not read; it is not loaded.
func outsideBuild(p string) bool {
	if base := path.Base(p); strings.HasPrefix(base, "_") || strings.HasPrefix(base, ".") {
		return true
	}
	return slices.Contains(strings.Split(path.Dir(p), "/"), "testdata")
}

// inFocus reports whether a base-view pass needs u: some focus file is inside it.
func inFocus(p *lang.Request, u *unit) bool {
	if p.Focus == nil {
		return true
	}
	for f := range p.Focus {
		if u.dir == "." || strings.HasPrefix(f, u.dir+"/") {
			return true
		}
	}
	return false
}

func run(p *lang.Request, loader *load.Loader, fetcher *modfetch.Fetcher, mods *Modules, notes *Notes, w way) ([]lang.Problem, error) {
	set := p.Changes
	head := set.HeadFS
	if head == nil {
		head = os.DirFS(set.Root)
	}
	units, moduleGone := units(set, head)
	linkWorkspaces(head, units)
	dirs := make([]string, 0, len(units))
	for d, u := range units {
		u.fetch, u.mods, u.notes, u.way = fetcher, mods.state(set, d), notes, w
		if inFocus(p, u) {
			narrowToFocus(p, head, u)
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	var out []lang.Problem
	for _, d := range dirs {
		if err := p.Context.Err(); err != nil {
			return nil, err
		}
		fs, err := checkUnit(p, loader, head, units[d])
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	out = append(out, moduleGone...)
	out = append(out, unverifiedFiles(set, p.Policy.Limits.FileSize())...)
	for _, f := range set.Files {
		if base := path.Base(f.Path); (base == "go.mod" || base == "go.work") && f.Analyzable() {
			out = append(out, outsideFindings(f)...)
		}
	}
	lang.SortProblems(out)
	return out, nil
}

// linkWorkspaces gives each module unit inside a go.work workspace the changed Go files
// of the workspace's other modules.
func linkWorkspaces(head fs.FS, units map[string]*unit) {
	for _, u := range units {
		work, ok := workspaceRoot(head, u.dir)
		if !ok || !u.inModule {
			continue
		}
		for _, o := range units {
			if o != u && o.inModule && (work == "." || o.dir == work || strings.HasPrefix(o.dir, work+"/")) {
				u.workspace = append(u.workspace, o.goFiles...)
			}
		}
	}
}

// workspaceRoot returns the directory of the go.work file at or above dir in the head
// tree.
func workspaceRoot(head fs.FS, dir string) (string, bool) {
	for {
		if _, err := fs.Stat(head, path.Join(dir, "go.work")); err == nil {
			return dir, true
		}
		if dir == "." || dir == "/" || dir == "" {
			return "", false
		}
		dir = path.Dir(dir)
	}
}

func checkUnit(p *lang.Request, loader *load.Loader, head fs.FS, u *unit) ([]lang.Problem, error) {
	var out []lang.Problem
	if u.goMod != nil {
		fs, ok := goModFindings(u.goMod, p.Changes.NoBase)
		out = append(out, fs...)
		if !ok {
			return out, nil // the loader would only repeat the syntax error
		}
		out = append(out, moduleFindings(u, u.mods)...)
	}
	if len(u.goFiles) == 0 && len(u.goneDirs) == 0 && len(u.asmFiles) == 0 {
		return out, nil
	}
	req, err := newRequest(p, head, u)
	if err != nil {
		return nil, err
	}
	cgo := hostCgo(p, loader, req.Dir, u)
	hostReq, excl := splitExcluded(p.Changes.Root, req, u, cgo)
	if len(hostReq.Files) > 0 {
		fs, failed, err := checkHost(p, loader, head, u, hostReq)
		if err != nil {
			return nil, err
		}
		if failed {
			return append(out, fs...), nil
		}
		out = append(out, fs...)
	}
	more, err := checkExcluded(p, loader, req, u, excl, cgo)
	if err != nil {
		return nil, err
	}
	return append(out, more...), nil
}

// checkHost reports the problems of the host build of u. A check of the disk with no
// base view, and a diff of many packages whose head is the disk but for the change,
// stream the packages through the converter one by one, each dropped when converted
// (load.Loader.CheckEach, streamWay, design.md §9). failed is set when the module could
// not be loaded at all (the one finding says why).
func checkHost(p *lang.Request, loader *load.Loader, head fs.FS, u *unit, hostReq load.Request) (_ []lang.Problem, failed bool, _ error) {
	if stream, choose := streamWay(p, u, hostReq); stream {
		c := newConverter(p, nil, u)
		// A check learns go vet's facts from every package of the module the checked ones
		// import; a diff, from the checked packages alone, as its per-package load does,
		// so that either load of a diff reports the same.
		hostReq.DepFacts, hostReq.Choose = p.Changes.NoBase, choose
		handled, err := loader.CheckEach(p.Context, hostReq, func(res *load.Result) error {
			c.res = res
			if res.Dependency {
				c.vet(res.Packages[0], true)
			} else {
				c.pkg(res.Packages[0])
			}
			return c.err
		})
		if c.err != nil {
			return nil, false, c.err
		}
		if handled && err != nil {
			f, err := loadFailure(p, u, err)
			return []lang.Problem{f}, true, err
		}
		if handled {
			return c.out, false, c.setup
		}
	}
	res, err := loadView(p, loader, head, u, hostReq)
	if err != nil {
		f, err := loadFailure(p, u, err)
		return []lang.Problem{f}, true, err
	}
	out, err := newConverter(p, res, u).findings()
	return out, false, err
}

// newRequest builds the loader request that shows the packages of u as the head tree of
// the change has them, whatever the disk holds: changed files and the other files of the
// checked packages that differ from the disk are overlaid, and files on the disk that the
// head tree does not have (created files, for a base view; untracked or ignored ones, for
// the index; git-ignored ones, for a head on the disk, design.md §3) are absent. Test
// variants stand in for their packages where they can (load.Request.StandIns): the
// converter reports a package's files through its variant either way.
func newRequest(p *lang.Request, head fs.FS, u *unit) (load.Request, error) {
	root := p.Changes.Root
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	req := load.Request{Dir: abs(u.dir), Overlay: map[string][]byte{}, StandIns: true}
	// Only content that differs from the disk goes into the overlay: go/packages
	// type-checks every dependency from source as soon as there is any overlay, which on a
	// large module costs seconds and hundreds of megabytes. For a working-tree diff the
	// head is the disk and the dependencies come from export data.
	overlay := func(abs string, content []byte) {
		if disk, err := os.ReadFile(abs); err != nil || string(disk) != string(content) {
			req.Overlay[abs] = content
		}
	}
	for _, f := range []*change.File{u.goMod, u.goSum} {
		if f != nil {
			overlay(abs(f.Path), f.Head)
		}
	}
	for _, f := range u.workspace {
		overlay(abs(f.Path), f.Head)
	}
	pkgDirs := map[string]bool{}
	for _, f := range u.goFiles {
		req.Files = append(req.Files, abs(f.Path))
		overlay(abs(f.Path), f.Head)
		pkgDirs[path.Dir(f.Path)] = true
	}
	for dir := range u.goneDirs {
		pkgDirs[dir] = true
	}
	for _, f := range u.asmFiles {
		pkgDirs[path.Dir(f.Path)] = true
	}
	dirs := slices.Sorted(maps.Keys(pkgDirs))
	ignored, err := ignoredGo(p, u, dirs)
	if err != nil {
		return load.Request{}, err
	}
	for _, dir := range dirs {
		viewDir(&req, root, head, dir, u.inModule, overlay, ignored, p.Changes.SameOnDisk)
	}
	req.Files = uniq(req.Files)
	req.Absent = uniq(req.Absent)
	return req, nil
}

// uniq sorts ss and drops repeats.
func uniq(ss []string) []string {
	sort.Strings(ss)
	return slices.Compact(ss)
}

// loadView type-checks req. When the disk may hold another tree than the head beyond the
// changed files (the index, a patch), the in-module packages the checked ones import are
// compared with the head tree as well, and the check is made again with them as the head
// has them, until nothing more differs: an untracked helper in another package must not
// make a staged caller compile. When the head is the disk, only the git-ignored files of
// those packages differ from it (they are on the disk, never in a commit).
func loadView(p *lang.Request, loader *load.Loader, head fs.FS, u *unit, req load.Request) (*load.Result, error) {
	root := p.Changes.Root
	seen := map[string]bool{}
	for _, f := range req.Files {
		rel, _ := filepath.Rel(root, filepath.Dir(f))
		seen[filepath.ToSlash(rel)] = true
	}
	overlay := func(abs string, content []byte) {
		if disk, err := os.ReadFile(abs); err != nil || string(disk) != string(content) {
			req.Overlay[abs] = content
		}
	}
	for {
		res, err := loader.Check(p.Context, req)
		if err != nil || p.Changes.OnDisk && p.Changes.Ignored == nil {
			return res, err
		}
		dirs := unseen(importedDirs(res, u.dir), seen)
		var ignored map[string]bool
		if p.Changes.OnDisk {
			if ignored, err = ignoredGo(p, u, dirs); err != nil || len(ignored) == 0 {
				return res, err
			}
		}
		more := false
		for _, dir := range dirs {
			more = viewDir(&req, root, head, dir, false, overlay, ignored, p.Changes.SameOnDisk) || more
		}
		if !more {
			return res, nil
		}
	}
}

// unseen returns the directories not in seen, and marks them seen.
func unseen(dirs []string, seen map[string]bool) []string {
	var out []string
	for _, dir := range dirs {
		if !seen[dir] {
			seen[dir] = true
			out = append(out, dir)
		}
	}
	return out
}

// importedDirs returns the repository-relative directories of the module's packages that
// the checked packages import, directly or not; modDir is the module's directory.
func importedDirs(res *load.Result, modDir string) []string {
	mod := res.Module.Path
	seen := map[string]bool{}
	var dirs []string
	var walk func(*types.Package)
	walk = func(tp *types.Package) {
		for _, ip := range tp.Imports() {
			ipath := ip.Path()
			if seen[ipath] || mod == "" || (ipath != mod && !strings.HasPrefix(ipath, mod+"/")) {
				continue
			}
			seen[ipath] = true
			dirs = append(dirs, path.Join(modDir, strings.TrimPrefix(strings.TrimPrefix(ipath, mod), "/")))
			walk(ip)
		}
	}
	for _, pkg := range res.Packages {
		if pkg.Types != nil {
			walk(pkg.Types)
		}
	}
	sort.Strings(dirs)
	return dirs
}

// viewDir makes the loader see directory dir as the head tree has it: its Go files are
// overlaid where they differ from the disk, and Go files only the disk has are absent. In
// a module the package is checked even when none of its files changed (a deleted file
// may leave it broken); outside one only the changed files are. The ignored files are not
// in the head. A file same says the disk holds as the head does is neither read nor
// overlaid. It reports whether it added anything to the request.
func viewDir(req *load.Request, root string, head fs.FS, dir string, inModule bool, overlay func(string, []byte), ignored map[string]bool, same func(rel string) bool) bool {
	before := len(req.Overlay) + len(req.Absent)
	inHead := map[string]bool{}
	ents, _ := fs.ReadDir(head, dir) // a directory the head does not have holds nothing
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		rel := path.Join(dir, e.Name())
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if ignored[abs] {
			continue
		}
		inHead[e.Name()] = true
		if _, done := req.Overlay[abs]; done {
			continue
		}
		if same(rel) {
			if inModule {
				req.Files = append(req.Files, abs)
			}
			continue
		}
		if b, err := fs.ReadFile(head, rel); err == nil {
			overlay(abs, b)
			if inModule {
				req.Files = append(req.Files, abs)
			}
		}
	}
	disk, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	for _, e := range disk {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") && !inHead[e.Name()] {
			req.Absent = append(req.Absent, filepath.Join(root, filepath.FromSlash(dir), e.Name()))
		}
	}
	return len(req.Overlay)+len(req.Absent) != before
}

// loadFailure turns a loader error into a finding when the change touched go.mod or
// go.sum and the toolchain now rejects the module; any other failure is the run's error.
func loadFailure(p *lang.Request, u *unit, err error) (lang.Problem, error) {
	if p.Context.Err() != nil {
		return lang.Problem{}, p.Context.Err()
	}
	if crashed(err) {
		return lang.Problem{}, fmt.Errorf("type-checking %s: %w", displayDir(u.dir), err)
	}
	f := u.goMod
	if f == nil {
		f = u.goSum
	}
	if f == nil {
		if fix := setupFix(err.Error()); fix != "" {
			dir := filepath.Join(p.Changes.Root, filepath.FromSlash(u.dir))
			return lang.Problem{}, &lang.SetupError{Err: fmt.Errorf("the Go packages in %s could not be loaded (%s): %s", dir, oneLine(err.Error()), strings.ReplaceAll(fix, "DIR", dir))}
		}
		return lang.Problem{}, fmt.Errorf("type-checking %s: %w", displayDir(u.dir), err)
	}
	return lang.Problem{
		Kind: lang.TypeError, Location: lang.Location{File: f.Path, Line: 1},
		Message:    fmt.Sprintf("the Go toolchain rejects the changed %s: %s", path.Base(f.Path), oneLine(err.Error())),
		Symbol:     f.Path,
		Introduced: true,
	}, nil
}

// crashed reports whether err is a panic the loader recovered (crash.Error): a failure
// of the verification, never the change's, whatever files it touched.
func crashed(err error) bool {
	var ce *crash.Error
	return errors.As(err, &ce)
}

// setupFix returns what the user runs when go list fails for a reason that lies in the
// environment, not in a change that left the module files alone ("DIR" stands for the
// module's directory), or "".
func setupFix(msg string) string {
	switch {
	case strings.Contains(msg, "inconsistent vendoring"):
		return "run `go mod vendor` in DIR"
	case strings.Contains(msg, "module lookup disabled"):
		return "run `go mod download` in DIR"
	case strings.Contains(msg, "requires go >="):
		return "install the Go release go.mod names (agentverify runs the local toolchain, GOTOOLCHAIN=local)"
	}
	return ""
}

func displayDir(d string) string {
	if d == "." {
		return "the repository root"
	}
	return d
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
