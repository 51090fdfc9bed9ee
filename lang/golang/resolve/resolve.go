package resolve

import (
	"fmt"
	"go/types"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// Kinds of problem only Go has; the hallucination dimension declares their rules.
const (
	MissingImport     lang.Kind = "missing-import"
	UnverifiedFile    lang.Kind = "unverified-file"
	OutsideRepository lang.Kind = "outside-repository"
)

// Resolver resolves the Go code of a change with the Go toolchain. With a nil loader each
// verification gets a fresh one (kept in the request's Memo, so the base-view passes reuse
// its cache); long-lived processes give it a shared loader to re-check edits warm.
type Resolver struct {
	Loader *load.Loader
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
	return run(req, loader)
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
}

// units groups the Go files and module files of the change by module.
func units(set *change.Set, head fs.FS) map[string]*unit {
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
		if f.Op == change.Delete || f.Op == change.Rename {
			if old := f.OldPath; strings.HasSuffix(old, ".go") {
				if u := get(old); u.inModule {
					u.goneDirs[path.Dir(old)] = true
				}
			}
		}
		if !f.Analyzable() {
			continue
		}
		switch base := path.Base(f.Path); {
		case base == "go.mod":
			get(f.Path).goMod = f
		case base == "go.sum":
			get(f.Path).goSum = f
		case strings.HasSuffix(f.Path, ".go"):
			u := get(f.Path)
			u.goFiles = append(u.goFiles, f)
		case strings.HasSuffix(f.Path, ".s") && f.Head != nil:
			if u := get(f.Path); u.inModule {
				u.asmFiles = append(u.asmFiles, f)
			}
		}
	}
	return units
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

func run(p *lang.Request, loader *load.Loader) ([]lang.Problem, error) {
	set := p.Changes
	head := set.HeadFS
	if head == nil {
		head = os.DirFS(set.Root)
	}
	units := units(set, head)
	linkWorkspaces(head, units)
	dirs := make([]string, 0, len(units))
	for d, u := range units {
		if inFocus(p, u) {
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
	}
	if len(u.goFiles) == 0 && len(u.goneDirs) == 0 && len(u.asmFiles) == 0 {
		return out, nil
	}
	req := newRequest(p.Changes.Root, head, u)
	hostReq, excl := splitExcluded(p.Changes.Root, req, u)
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
	more, err := checkExcluded(p, loader, req, u, excl)
	if err != nil {
		return nil, err
	}
	return append(out, more...), nil
}

// checkHost reports the problems of the host build of u. A check of the disk with no
// base view streams the packages through the converter one by one, each dropped when
// converted (load.Loader.CheckEach, design.md §9). failed is set when the module could
// not be loaded at all (the one finding says why).
func checkHost(p *lang.Request, loader *load.Loader, head fs.FS, u *unit, hostReq load.Request) (_ []lang.Problem, failed bool, _ error) {
	if p.Changes.NoBase && p.Changes.OnDisk {
		c := newConverter(p, nil, u)
		hostReq.DepFacts = true
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
			return c.out, false, nil
		}
	}
	res, err := loadView(p, loader, head, u, hostReq)
	if err != nil {
		f, err := loadFailure(p, u, err)
		return []lang.Problem{f}, true, err
	}
	c := newConverter(p, res, u)
	out := c.findings()
	return out, false, c.err
}

// newRequest builds the loader request that shows the packages of u as the head tree of
// the change has them, whatever the disk holds: changed files and the other files of the
// checked packages that differ from the disk are overlaid, and files on the disk that the
// head tree does not have (created files, for a base view; untracked or ignored ones, for
// the index) are absent.
func newRequest(root string, head fs.FS, u *unit) load.Request {
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	req := load.Request{Dir: abs(u.dir), Overlay: map[string][]byte{}}
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
	for dir := range pkgDirs {
		viewDir(&req, root, head, dir, u.inModule, overlay)
	}
	req.Files = uniq(req.Files)
	req.Absent = uniq(req.Absent)
	return req
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
// make a staged caller compile.
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
		if err != nil || p.Changes.OnDisk {
			return res, err
		}
		more := false
		for _, dir := range importedDirs(res, u.dir) {
			if !seen[dir] {
				seen[dir] = true
				more = viewDir(&req, root, head, dir, false, overlay) || more
			}
		}
		if !more {
			return res, nil
		}
	}
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
// may leave it broken); outside one only the changed files are. It reports whether it
// added anything to the request.
func viewDir(req *load.Request, root string, head fs.FS, dir string, inModule bool, overlay func(string, []byte)) bool {
	before := len(req.Overlay) + len(req.Absent)
	inHead := map[string]bool{}
	ents, _ := fs.ReadDir(head, dir) // a directory the head does not have holds nothing
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		rel := path.Join(dir, e.Name())
		abs := filepath.Join(root, filepath.FromSlash(rel))
		inHead[e.Name()] = true
		if _, done := req.Overlay[abs]; done {
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
	f := u.goMod
	if f == nil {
		f = u.goSum
	}
	if f == nil {
		return lang.Problem{}, fmt.Errorf("type-checking %s: %w", displayDir(u.dir), err)
	}
	return lang.Problem{
		Kind: lang.TypeError, Location: lang.Location{File: f.Path, Line: 1},
		Message:    fmt.Sprintf("the Go toolchain rejects the changed %s: %s", path.Base(f.Path), oneLine(err.Error())),
		Symbol:     f.Path,
		Introduced: true,
	}, nil
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
