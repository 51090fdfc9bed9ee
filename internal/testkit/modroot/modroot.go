// Package modroot finds files under the root of the module the tests run in: the
// project-local installs of the tools tests need (.cache/pyright, .cache/typescript),
// which .ci/run makes and .gitignore leaves out.
package modroot

import (
	"os"
	"path/filepath"
)

// File returns the path of rel (slash-separated parts) under the module root above the
// working directory when it exists, "" otherwise.
func File(rel ...string) string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(append([]string{dir}, rel...)...)
			if _, err := os.Stat(p); err == nil {
				return p
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
