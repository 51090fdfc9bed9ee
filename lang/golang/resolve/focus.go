package resolve

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// narrowToFocus keeps, for a base-view pass (design.md §5: it learns which findings of
// the focus files the base already had), only the changed packages that can produce
// them: the packages of the focus files, and the changed packages of the module they
// import, directly or not, whose facts (a printf wrapper) their analyzers learn. A
// hundred-file change with findings in three packages re-checks those, not the
// hundred: the other changed files still enter the check as the base has them, through
// the overlay of what the packages kept import. Outside a module, or when the module
// path cannot be read, u is left whole.
func narrowToFocus(p *lang.Request, head fs.FS, u *unit) {
	if p.Focus == nil || !u.inModule {
		return
	}
	modPath := load.ModulePath(head, u.dir)
	if modPath == "" {
		return
	}
	changed := map[string]bool{}
	for _, f := range u.goFiles {
		changed[path.Dir(f.Path)] = true
	}
	for d := range u.goneDirs {
		changed[d] = true
	}
	need := focusDirs(head, p.Focus, changed, func(imp string) string {
		rel, ok := strings.CutPrefix(imp, modPath)
		if !ok || rel != "" && !strings.HasPrefix(rel, "/") {
			return ""
		}
		return path.Join(u.dir, strings.TrimPrefix(rel, "/"))
	})
	u.goFiles = keepIn(u.goFiles, need)
	u.asmFiles = keepIn(u.asmFiles, need)
	for d := range u.goneDirs {
		if !need[d] {
			delete(u.goneDirs, d)
		}
	}
}

// focusDirs returns the changed directories of the focus files and those their packages
// import through changed directories; dirOf maps an import path to its directory in the
// module, or "".
func focusDirs(head fs.FS, focus, changed map[string]bool, dirOf func(string) string) map[string]bool {
	need := map[string]bool{}
	var queue []string
	add := func(d string) {
		if d != "" && changed[d] && !need[d] {
			need[d] = true
			queue = append(queue, d)
		}
	}
	for f := range focus {
		add(path.Dir(f))
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		for _, imp := range dirImports(head, d) {
			add(dirOf(imp))
		}
	}
	return need
}

// keepIn returns the files of fs whose directory is in dirs.
func keepIn(files []*change.File, dirs map[string]bool) []*change.File {
	var out []*change.File
	for _, f := range files {
		if dirs[path.Dir(f.Path)] {
			out = append(out, f)
		}
	}
	return out
}

// dirImports returns the import paths of the Go files of dir in the tree, tests
// included; a file that does not parse gives what it could.
func dirImports(tree fs.FS, dir string) []string {
	ents, err := fs.ReadDir(tree, dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		src, err := fs.ReadFile(tree, path.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		f, _ := parser.ParseFile(token.NewFileSet(), e.Name(), src, parser.ImportsOnly)
		if f == nil {
			continue
		}
		for _, spec := range f.Imports {
			if ip, err := strconv.Unquote(spec.Path.Value); err == nil {
				out = append(out, ip)
			}
		}
	}
	return out
}
