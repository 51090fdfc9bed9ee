package complexity_test

import (
	"testing"

	"github.com/agentverify/agentverify/dimensions/complexity"
	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/lang/python"
	"github.com/agentverify/agentverify/lang/typescript"
)

func TestDimension(t *testing.T) {
	checktest.Run(t, "testdata", complexity.Dimension, lang.Registry{golang.New(), python.New(), typescript.New()})
}
