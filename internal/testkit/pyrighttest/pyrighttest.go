// Package pyrighttest finds pyright for tests that verify Python: the one .ci/run
// installs into the module's .cache/pyright, or the one $AGENTVERIFY_PYRIGHT or PATH
// names; a test skips, saying how to install it, when there is none.
package pyrighttest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentverify/agentverify/lang/python/pyright"
)

// Require makes pyright findable for the rest of the test (setting
// $AGENTVERIFY_PYRIGHT to the project-local install when there is one) and returns it,
// or skips the test.
func Require(t testing.TB) *pyright.Tool {
	t.Helper()
	if os.Getenv(pyright.EnvVar) == "" {
		if cli := Local(); cli != "" {
			t.Setenv(pyright.EnvVar, cli)
		}
	}
	tool, err := pyright.Find("")
	if err != nil {
		t.Skipf("%v (or run .ci/run, which installs it into .cache/pyright)", err)
	}
	return tool
}

// Local returns the pyright command of the module's project-local install, "" when
// there is none.
func Local() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			cli := filepath.Join(dir, ".cache", "pyright", "node_modules", ".bin", "pyright")
			if _, err := os.Stat(cli); err == nil {
				return cli
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
