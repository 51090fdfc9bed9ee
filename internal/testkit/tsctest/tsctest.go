// Package tsctest finds the TypeScript compiler for tests that verify TypeScript: the
// one .ci/run installs into the module's .cache/typescript, or the one $AGENTVERIFY_TSC
// or PATH names; a test skips, saying how to install it, when there is none.
package tsctest

import (
	"os"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/modroot"
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
	return modroot.File(".cache", "typescript", "node_modules", "typescript", "bin", "tsc")
}
