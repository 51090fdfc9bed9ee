package hallucination

import (
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/checktest"
)

// TestCases runs every testdata case through the shared harness with the real Go
// toolchain: each case's expectations are its "// want" comments.
func TestCases(t *testing.T) {
	checktest.Run(t, "testdata", Dimension, languages)
}
