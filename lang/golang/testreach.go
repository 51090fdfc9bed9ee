package golang

import (
	"io/fs"
	"path"

	"github.com/agentverify/agentverify/change"
)

// StillRuns implements lang.TestReach: a Go test file's tests still run after a move
// when its head module (the directory of the nearest go.mod) is the one it was in, or
// when its module moved with it (the base module's go.mod is gone and the file keeps its
// place within the module). A move into a nested module, which `go test ./...` of the
// outer one skips, removes them.
func (frontend) StillRuns(changes *change.Set, from, to string) bool {
	if changes == nil || changes.BaseFS == nil || changes.HeadFS == nil {
		return true
	}
	headTo, okTo := moduleDir(changes.HeadFS, path.Dir(to))
	if headFrom, ok := moduleDir(changes.HeadFS, path.Dir(from)); ok == okTo && headFrom == headTo {
		return true
	}
	baseFrom, okFrom := moduleDir(changes.BaseFS, path.Dir(from))
	if !okFrom || !okTo {
		return okFrom == okTo // outside any module on both sides: as before
	}
	if hasGoMod(changes.HeadFS, baseFrom) {
		return false // its module stays where it was; the file left it
	}
	return within(baseFrom, from) == within(headTo, to)
}

// hasGoMod reports whether dir of fsys holds a go.mod file.
func hasGoMod(fsys fs.FS, dir string) bool {
	st, err := fs.Stat(fsys, path.Join(dir, "go.mod"))
	return err == nil && st.Mode().IsRegular()
}

// moduleDir returns the directory of the nearest go.mod at or above dir in fsys.
func moduleDir(fsys fs.FS, dir string) (string, bool) {
	for {
		if hasGoMod(fsys, dir) {
			return dir, true
		}
		if dir == "." || dir == "/" || dir == "" {
			return "", false
		}
		dir = path.Dir(dir)
	}
}

// within returns file's path relative to the module directory mod.
func within(mod, file string) string {
	if mod == "." {
		return file
	}
	return file[len(mod)+1:]
}
