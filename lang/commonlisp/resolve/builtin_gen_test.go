package resolve

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

// TestBuiltinTableMatchesSBCL regenerates builtin_gen.go (the listed packages' external
// symbols and the deprecations SBCL and ASDF declare) with the installed SBCL and
// compares: an edit to gen.lisp without `go generate`, or to the generated file by hand,
// fails here, as cltable's TestTableMatchesSBCL does for COMMON-LISP's table.
func TestBuiltinTableMatchesSBCL(t *testing.T) {
	if _, err := exec.LookPath("sbcl"); err != nil {
		t.Skip("sbcl is not on PATH; install sbcl: apt-get install sbcl")
	}
	if testing.Short() {
		t.Skip("regenerating with SBCL takes seconds; skipped in -short")
	}
	out, err := exec.Command("sbcl", "--script", "gen.lisp").Output()
	if err != nil {
		t.Fatalf("sbcl --script gen.lisp: %v", err)
	}
	committed, err := os.ReadFile("builtin_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, committed) {
		first, _, _ := bytes.Cut(out, []byte("\n"))
		was, _, _ := bytes.Cut(committed, []byte("\n"))
		t.Errorf("builtin_gen.go differs from what gen.lisp generates here (%s; committed: %s); run go generate ./lang/commonlisp/resolve and review the diff", first, was)
	}
}
