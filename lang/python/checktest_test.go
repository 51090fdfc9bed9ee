package python_test

import (
	"testing"

	"github.com/agentverify/agentverify/dimensions/complexity"
	"github.com/agentverify/agentverify/dimensions/style"
	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python"
)

// The dimensions' own testdata is Go; these cases run the same dimensions, unchanged,
// over Python through this frontend.

func TestStyleCases(t *testing.T) {
	checktest.Run(t, "testdata/style", style.Dimension, lang.Registry{python.New()})
}

func TestComplexityCases(t *testing.T) {
	checktest.Run(t, "testdata/complexity", complexity.Dimension, lang.Registry{python.New()})
}
