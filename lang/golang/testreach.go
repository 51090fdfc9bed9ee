package golang

import (
	"io/fs"
	"path"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang/golang/load"
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
	headTo, okTo := load.ModuleRoot(changes.HeadFS, to)
	if headFrom, ok := load.ModuleRoot(changes.HeadFS, from); ok == okTo && headFrom == headTo {
		return true
	}
	baseFrom, okFrom := load.ModuleRoot(changes.BaseFS, from)
	if !okFrom || !okTo {
		return okFrom == okTo // outside any module on both sides: as before
	}
	if _, err := fs.Stat(changes.HeadFS, path.Join(baseFrom, "go.mod")); err == nil {
		return false // its module stays where it was; the file left it
	}
	return within(baseFrom, from) == within(headTo, to)
}

// within returns file's path relative to the module directory mod.
func within(mod, file string) string {
	if mod == "." {
		return file
	}
	return file[len(mod)+1:]
}
