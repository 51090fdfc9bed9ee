package python

import (
	"io/fs"
	"path"
	"strings"

	"github.com/agentverify/agentverify/lang/python/pydeps"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// maxPackageDepth bounds how deep a namespace package's code is looked for.
const maxPackageDepth = 8

// holdsPython reports whether the directory dir of fsys holds Python code at any depth
// (a PEP 420 namespace package need not have one __init__.py: app/models/user.py makes
// app a package), skipping hidden directories, virtual environments and caches.
func holdsPython(fsys fs.FS, dir string) bool {
	found := false
	fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			if p == dir {
				return err
			}
			return nil
		case found:
			return fs.SkipAll
		case d.IsDir() && p != dir && (pyright.SkipDir(fsys, p) || strings.Count(p[len(dir):], "/") > maxPackageDepth):
			return fs.SkipDir
		case !d.IsDir() && (strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")):
			found = true
			return fs.SkipAll
		}
		return nil
	})
	return found
}

// codeRoots are the directories of the project at projDir whose packages an import may
// name besides those beside the importer: the project's directory and its direct
// subdirectories (src/, lib/, python/: setuptools' where, Poetry's from, pytest's
// pythonpath put them on sys.path). pyright still checks that what is imported
// resolves; this only says the name is not a distribution to look for.
func codeRoots(fsys fs.FS, projDir string) []string {
	out := []string{projDir}
	ents, err := fs.ReadDir(fsys, projDir)
	if err != nil {
		return out
	}
	for _, e := range ents {
		p := path.Join(projDir, e.Name())
		if e.IsDir() && !pyright.SkipDir(fsys, p) {
			out = append(out, p)
		}
	}
	return out
}

// typeCheckerModules are modules only type checkers have (typeshed's private stdlib
// module _typeshed, which no Python installs): imported where only a checker reads
// (if TYPE_CHECKING:, a stub), they are no distribution to look for.
var typeCheckerModules = map[string]bool{"_typeshed": true}

// noDistribution reports whether an import of file names no distribution to look for:
// relative, the standard library, the project's own module, the build backend of a
// setup.py, or a module only type checkers have where only they read it (pyright has
// it, and checks what is imported from it).
func (st *depState) noDistribution(file string, r syntax.ImportRef, proj *pydeps.Project) bool {
	name := syntax.TopLevel(r.Module)
	return r.Level > 0 || r.Module == "" || pydeps.IsStdlib(name) || st.isLocal(file, proj, name) ||
		buildBackend(file, name) || r.TypeOnly && typeCheckerModules[name]
}
