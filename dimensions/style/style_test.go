package style_test

import (
	"testing"

	"github.com/agentverify/agentverify/dimensions/style"
	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/lang/python"
	"github.com/agentverify/agentverify/lang/typescript"
)

func TestDimension(t *testing.T) {
	checktest.Run(t, "testdata", style.Dimension, lang.Registry{golang.New(), python.New(), commonlisp.New(), typescript.New()})
}
