package resolve

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// A change to go.mod, go.sum or go.work changes what every package of the module compiles
// against — the go line (the language version and the standard library the code may use),
// the required modules — so every package of the module is checked again, not only those
// whose files changed: a go line lowered below what unchanged code uses must be found. A
// deleted go.mod leaves its packages to the enclosing module, checked again as its
// packages, or to none.

// isModuleFile reports whether p is a file the go command reads to define a module or a
// workspace.
func isModuleFile(p string) bool {
	switch path.Base(p) {
	case "go.mod", "go.sum", "go.work", "go.work.sum":
		return true
	}
	return false
}

// recheckModules marks, in the units get returns, every package directory of each module
// (or workspace) whose module files the change touches, and reports the deleted go.mod
// files whose Go files are left in no module.
func recheckModules(set *change.Set, head fs.FS, get func(string) *unit) []lang.Problem {
	if set.NoBase {
		return nil // check mode: every file is verified as it is already
	}
	var out []lang.Problem
	done := map[string]bool{}
	for _, f := range set.Files {
		for _, p := range []string{f.Path, f.OldPath} {
			if p == "" || !isModuleFile(p) || done[p] {
				continue
			}
			done[p] = true
			dir := path.Dir(p)
			dirs := packageDirs(head, dir, strings.HasPrefix(path.Base(p), "go.work"))
			for _, d := range dirs {
				if u := get(path.Join(d, "x.go")); u.inModule {
					u.goneDirs[d] = true
				}
			}
			if _, err := fs.Stat(head, p); err == nil || path.Base(p) != "go.mod" || len(dirs) == 0 {
				continue
			}
			if _, inModule := load.ModuleRoot(head, path.Join(dir, "x.go")); !inModule {
				out = append(out, lang.Problem{
					Kind: lang.TypeError, Location: lang.Location{File: p, Line: 1}, Symbol: p, Introduced: true,
					Message: fmt.Sprintf("%s is deleted: the Go packages under %s (%s first) belong to no module any more and do not build", p, displayDir(dir), dirs[0]),
				})
			}
		}
	}
	return out
}

// packageDirs lists the directories under dir (dir included) that hold Go files in the
// head tree, as the go command would walk a module: not testdata, vendor or directories
// starting with '.' or '_', and not nested modules unless all is set (a workspace).
func packageDirs(head fs.FS, dir string, all bool) []string {
	var dirs []string
	fs.WalkDir(head, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			name := d.Name()
			if p != dir && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return fs.SkipDir
			}
			if _, err := fs.Stat(head, path.Join(p, "go.mod")); err == nil && p != dir && !all {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && (len(dirs) == 0 || dirs[len(dirs)-1] != path.Dir(p)) {
			dirs = append(dirs, path.Dir(p))
		}
		return nil
	})
	return dirs
}
