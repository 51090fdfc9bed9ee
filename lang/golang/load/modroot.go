package load

import (
	"io/fs"
	"path"
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
