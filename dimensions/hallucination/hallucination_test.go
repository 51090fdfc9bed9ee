package hallucination

import (
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
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

// TestPythonRealCommits replays, in small fixtures, the shapes of real merged commits of
// well-kept projects on which the Python resolver once raised false hallucination errors
// (docs/precision.md, "## Python"); each case is named after its project and commit.
func TestPythonRealCommits(t *testing.T) {
	pyrighttest.Require(t)
	checktest.Run(t, "testdata/python_real", Dimension, languages)
}
