// Package pathenv hides programs from PATH for a test. A test that needs a tool to be
// missing must hide that one program, not a directory: Debian's npm installs pyright in
// /usr/bin beside git, so dropping the directory drops git too (issue #22).
package pathenv

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Hide makes the programs named unfindable on PATH for the rest of the test: each PATH
// directory holding one of them is replaced by a temporary directory of symbolic links
// to everything else it holds. Every other program stays where the test finds it.
func Hide(t testing.TB, names ...string) {
	t.Helper()
	var dirs []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if holdsAny(dir, names) {
			dir = shadow(t, dir, names)
		}
		dirs = append(dirs, dir)
	}
	t.Setenv("PATH", strings.Join(dirs, string(filepath.ListSeparator)))
}

func holdsAny(dir string, names []string) bool {
	for _, name := range names {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}

// shadow returns a directory with links to every entry of dir but names.
func shadow(t testing.TB, dir string, names []string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("hiding %v: %v", names, err)
	}
	out := t.TempDir()
	for _, e := range entries {
		if slices.Contains(names, e.Name()) {
			continue
		}
		if err := os.Symlink(filepath.Join(dir, e.Name()), filepath.Join(out, e.Name())); err != nil {
			t.Fatalf("hiding %v: %v", names, err)
		}
	}
	return out
}
