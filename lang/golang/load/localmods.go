package load

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/agentverify/agentverify/lang/golang/goenv"
)

// sources says where the packages a module imports come from on the disk, for those
// whose files can change: the main module, the other modules of its go.work workspace,
// its directory replacements (replace m => ../m), and the vendor directory when the build
// uses it. Everything else comes from the module cache or GOROOT, which do not change
// under a given go.mod, go.sum and toolchain.
type sources struct {
	mods   map[string]string // module path → directory
	vendor string            // the vendor directory in -mod=vendor builds, else ""
}

// newSources returns the sources of the module modPath at dir, built with env.
func newSources(dir, modPath string, env []string) *sources {
	s := &sources{mods: map[string]string{modPath: dir}}
	for _, m := range localModules(dir, nil) {
		s.mods[m.path] = m.dir
	}
	if strings.Contains(goenv.Last(env, "GOFLAGS"), "-mod=vendor") {
		s.vendor = filepath.Join(dir, "vendor")
		if work := workFile(dir, goenv.Last(env, "GOWORK")); work != "" {
			s.vendor = filepath.Join(filepath.Dir(work), "vendor")
		}
	}
	return s
}

// dirOf returns the directory of the package at pkgPath, and false when it is not one of
// the sources that can change.
func (s *sources) dirOf(pkgPath string) (string, bool) {
	best, dir := "", ""
	for mod, d := range s.mods {
		if (pkgPath == mod || strings.HasPrefix(pkgPath, mod+"/")) && len(mod) > len(best) {
			best, dir = mod, d
		}
	}
	if dir != "" {
		return filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(pkgPath, best))), true
	}
	if s.vendor != "" && strings.Contains(strings.Split(pkgPath, "/")[0], ".") {
		d := filepath.Join(s.vendor, filepath.FromSlash(pkgPath))
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d, true
		}
	}
	return "", false
}

type localModule struct{ path, dir, gomod string }

// localModules returns the modules on the disk that the module at dir builds with: the
// other modules of its go.work workspace and the directory replacements of its go.mod
// (or of the go.work). overlay gives the content of go.mod files to read instead of the
// disk's.
func localModules(dir string, overlay map[string][]byte) []localModule {
	var out []localModule
	add := func(base, rel, path string) {
		d := rel
		if !filepath.IsAbs(d) {
			d = filepath.Join(base, rel)
		}
		gomod := filepath.Join(d, "go.mod")
		if path == "" {
			data, err := readFile(gomod, overlay)
			if err != nil {
				return
			}
			path = modfile.ModulePath(data)
		}
		if path != "" && d != dir {
			out = append(out, localModule{path: path, dir: d, gomod: gomod})
		}
	}
	if work := workFile(dir, os.Getenv("GOWORK")); work != "" {
		if wf := parseWork(work, overlay); wf != nil {
			for _, u := range wf.Use {
				add(filepath.Dir(work), u.Path, "")
			}
			dirReplacements(wf.Replace, func(r *modfile.Replace) { add(filepath.Dir(work), r.New.Path, r.Old.Path) })
		}
	}
	gomod := filepath.Join(dir, "go.mod")
	if data, err := readFile(gomod, overlay); err == nil {
		if mf, err := modfile.Parse(gomod, data, nil); err == nil { // ParseLax skips replace
			dirReplacements(mf.Replace, func(r *modfile.Replace) { add(dir, r.New.Path, r.Old.Path) })
		}
	}
	return out
}

func parseWork(path string, overlay map[string][]byte) *modfile.WorkFile {
	data, err := readFile(path, overlay)
	if err != nil {
		return nil
	}
	wf, err := modfile.ParseWork(path, data, nil)
	if err != nil {
		return nil
	}
	return wf
}

// dirReplacements calls f for each replacement by a directory.
func dirReplacements(rs []*modfile.Replace, f func(*modfile.Replace)) {
	for _, r := range rs {
		if modfile.IsDirectoryPath(r.New.Path) {
			f(r)
		}
	}
}
