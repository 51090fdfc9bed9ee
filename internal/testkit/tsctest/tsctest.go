// Package tsctest finds the TypeScript compiler for tests that verify TypeScript: the
// one .ci/run installs into the module's .cache/typescript, or the one $AGENTVERIFY_TSC
// or PATH names; a test skips, saying how to install it, when there is none.
package tsctest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentverify/agentverify/lang/typescript/tsc"
)

// Require makes the compiler findable for the rest of the test (setting
// $AGENTVERIFY_TSC to the project-local install when there is one) and returns it, or
// skips the test.
func Require(t testing.TB) *tsc.Tool {
	t.Helper()
	if os.Getenv(tsc.EnvVar) == "" {
		if cmd := Local(); cmd != "" {
			t.Setenv(tsc.EnvVar, cmd)
		}
	}
	tool, err := tsc.Find("")
	if err != nil {
		t.Skipf("%v (or run .ci/run, which installs it into .cache/typescript)", err)
	}
	return tool
}

// Local returns the tsc command of the module's project-local install, "" when there
// is none.
func Local() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			cmd := filepath.Join(dir, ".cache", "typescript", "node_modules", "typescript", "bin", "tsc")
			if _, err := os.Stat(cmd); err == nil {
				return cmd
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
