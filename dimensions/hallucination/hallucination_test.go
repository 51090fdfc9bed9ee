package hallucination

import (
	"os/exec"
	"strings"
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

// TestCgoCases runs the cases that need cgo on the host (a C compiler, CGO_ENABLED unset
// or 1), skipping where it is off.
func TestCgoCases(t *testing.T) {
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	if err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is off here (go env CGO_ENABLED): install a C compiler (apt-get install gcc) to run the cgo cases")
	}
	checktest.Run(t, "testdata/cgo", Dimension, languages)
}
