package load

import (
	"io/fs"
	"path"

	"golang.org/x/mod/modfile"
)

// ModuleRoot returns the directory of the nearest go.mod above the repository-relative
// file path in fsys (the head tree of a change), as a relative path ("." for the root),
// and false when the file is in no module.
func ModuleRoot(fsys fs.FS, file string) (string, bool) {
	dir := path.Dir(file)
	for {
		if _, err := fs.Stat(fsys, path.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		if dir == "." || dir == "/" || dir == "" {
			return "", false
		}
		dir = path.Dir(dir)
	}
}

// ModulePath returns the module path the go.mod in dir of fsys declares, "" when there is
// none or it declares none.
func ModulePath(fsys fs.FS, dir string) string {
	data, err := fs.ReadFile(fsys, path.Join(dir, "go.mod"))
	if err != nil {
		return ""
	}
	return modfile.ModulePath(data)
}
