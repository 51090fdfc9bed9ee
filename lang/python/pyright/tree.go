package pyright

import (
	"io/fs"
	"path"
	"strings"
)

// SkipDir reports whether the directory at p of fsys holds none of the project's own
// code: hidden directories, node_modules, caches, site-packages and virtual environments
// (pyright finds installed packages through the interpreter, not the tree).
func SkipDir(fsys fs.FS, p string) bool {
	name := path.Base(p)
	if strings.HasPrefix(name, ".") || name == "node_modules" || name == "__pycache__" || name == "site-packages" {
		return true
	}
	_, err := fs.Stat(fsys, path.Join(p, "pyvenv.cfg"))
	return err == nil
}

// Mirrored reports whether pyright needs the file at p (slash-separated, relative to the
// project's root): Python sources and stubs, py.typed markers, and the configuration at
// the root.
func Mirrored(p string) bool {
	name := path.Base(p)
	return strings.HasSuffix(name, ".py") || strings.HasSuffix(name, ".pyi") || name == "py.typed" ||
		p == "pyproject.toml" || p == "pyrightconfig.json"
}
