package golang_test

import (
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang/golang"
)

// TestDeepNestingIsASyntaxError checks that input nested deeper than go/parser's fixed
// limit is reported as a syntax error, never a crash: the parser's nesting depth is a
// limit of the toolchain, not of the policy.
func TestDeepNestingIsASyntaxError(t *testing.T) {
	depth := 200000
	src := "package p\n\nvar x = " + strings.Repeat("(", depth) + "1" + strings.Repeat(")", depth) + "\n"
	lf, err := golang.New().Parse("deep.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(lf.SyntaxErrors) == 0 || !strings.Contains(lf.SyntaxErrors[0].Message, "nesting") {
		t.Errorf("syntax errors %v, want the parser's nesting limit", lf.SyntaxErrors)
	}
}
