package resolve

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// requirement is one module the checked module can import from: a requirement of its
// go.mod, or the module itself.
type requirement struct {
	path, version string
	dir           string // where its source is (replacement, vendor or module cache), or ""
	indirect      bool   // marked // indirect in go.mod
}

// modInfo is what an import classification needs to know of the checked module.
type modInfo struct {
	self     requirement
	requires []requirement
}

// readModInfo reads the go.mod of the module at dir as the change has it (head, when the
// change edits it); cache is the module cache ("" when unknown). It returns nil when there
// is none or it does not parse.
func readModInfo(dir string, headGoMod []byte, cache string) *modInfo {
	data := headGoMod
	if data == nil {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err != nil {
			return nil
		}
		data = b
	}
	// Parse, not ParseLax: ParseLax drops the replace directives.
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil || mf.Module == nil {
		return nil
	}
	info := &modInfo{self: requirement{path: mf.Module.Mod.Path, dir: dir}}
	vendored := fileExists(filepath.Join(dir, "vendor", "modules.txt"))
	for _, r := range mf.Require {
		req := requirement{path: r.Mod.Path, version: r.Mod.Version, indirect: r.Indirect}
		req.dir = sourceDir(dir, mf, r.Mod, vendored, cache)
		info.requires = append(info.requires, req)
	}
	return info
}

// sourceDir returns the directory holding the source of required module m: its local
// replacement, its vendored copy, or its directory in the module cache.
func sourceDir(modDir string, mf *modfile.File, m module.Version, vendored bool, cache string) string {
	for _, r := range mf.Replace {
		if r.Old.Path != m.Path || (r.Old.Version != "" && r.Old.Version != m.Version) {
			continue
		}
		if r.New.Version == "" { // a local directory
			if filepath.IsAbs(r.New.Path) {
				return r.New.Path
			}
			return filepath.Join(modDir, filepath.FromSlash(r.New.Path))
		}
		m = r.New
	}
	if vendored {
		return filepath.Join(modDir, "vendor", filepath.FromSlash(m.Path))
	}
	esc, err1 := module.EscapePath(m.Path)
	ver, err2 := module.EscapeVersion(m.Version)
	if cache != "" && err1 == nil && err2 == nil {
		return filepath.Join(cache, filepath.FromSlash(esc)+"@"+ver)
	}
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// providing returns the requirement (or the module itself) whose path is the longest
// prefix of ipath, or nil.
func (m *modInfo) providing(ipath string) *requirement {
	var best *requirement
	for _, r := range append([]requirement{m.self}, m.requires...) {
		first, _, _ := strings.Cut(subPath(ipath, r.path), "/")
		if (ipath == r.path || strings.HasPrefix(ipath, r.path+"/")) && !isMajorElem(first) {
			if best == nil || len(r.path) > len(best.path) {
				best = &r
			}
		}
	}
	return best
}

// otherMajor returns the requirement that is the same module as ipath names at another
// major version ("example.com/lib/v2/x" when go.mod requires example.com/lib, or
// "example.com/lib/x" when it requires example.com/lib/v3), and ipath rewritten to it.
func (m *modInfo) otherMajor(ipath string) (*requirement, string) {
	for _, r := range m.requires {
		prefix, _, ok := module.SplitPathVersion(r.path)
		if !ok || !(ipath == prefix || strings.HasPrefix(ipath, prefix+"/")) {
			continue
		}
		rest := strings.TrimPrefix(strings.TrimPrefix(ipath, prefix), "/")
		if first, after, _ := strings.Cut(rest, "/"); isMajorElem(first) {
			rest = after // ipath names another major version of the module
		} else if prefix == r.path {
			continue // same major version, and providing already failed
		}
		return &r, path.Join(r.path, rest)
	}
	return nil, ""
}

// isMajorElem reports whether a path element is a major-version suffix "v2", "v3", ….
func isMajorElem(e string) bool {
	if len(e) < 2 || e[0] != 'v' || e[1] == '0' || strings.Trim(e[1:], "0123456789") != "" {
		return false
	}
	return e != "v1"
}

// maxPackages bounds the walk of a module's directory tree.
const maxPackages = 5000

// packagesOf lists the import paths of the packages of module r (directories with
// non-test Go files), skipping testdata, vendor, hidden directories and nested modules.
func packagesOf(r *requirement) []string {
	if r.dir == "" {
		return nil
	}
	var out []string
	_ = filepath.WalkDir(r.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= maxPackages {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != r.dir && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || fileExists(filepath.Join(p, "go.mod"))) {
			return filepath.SkipDir
		}
		if hasGoFiles(p) {
			rel, _ := filepath.Rel(r.dir, p)
			out = append(out, path.Join(r.path, filepath.ToSlash(rel)))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func hasGoFiles(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			return true
		}
	}
	return false
}
