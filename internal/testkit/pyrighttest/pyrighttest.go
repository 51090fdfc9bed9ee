// Package pyrighttest finds pyright for tests that verify Python: the one .ci/run
// installs into the module's .cache/pyright, or the one $AGENTVERIFY_PYRIGHT or PATH
// names; a test skips, saying how to install it, when there is none.
package pyrighttest

import (
	"os"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/modroot"
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
func Local() string { return modroot.File(".cache", "pyright", "node_modules", ".bin", "pyright") }
