package hallucination

import (
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/internal/testkit/tsctest"
)

// TestCases runs every testdata case through the shared harness with the real Go
// toolchain: each case's expectations are its "// want" comments.
func TestCases(t *testing.T) {
	checktest.Run(t, "testdata", Dimension, languages)
}

// TestPythonCases runs the Python cases with the real pyright (skipping, with install
// advice, where it is not installed).
func TestPythonCases(t *testing.T) {
	pyrighttest.Require(t)
	checktest.Run(t, "testdata/python", Dimension, languages)
}

// TestTypeScriptCases runs the TypeScript cases with the real compiler (skipping, with
// the install line, when it is missing).
func TestTypeScriptCases(t *testing.T) {
	tsctest.Require(t)
	checktest.Run(t, "testdata/typescript", Dimension, languages)
}
