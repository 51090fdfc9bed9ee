package cltable

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

func TestTable(t *testing.T) {
	if Len() != 978 {
		t.Errorf("Len() = %d, want the 978 external symbols of COMMON-LISP", Len())
	}
	tests := []struct {
		name string
		kind Kind
		ll   string
	}{
		{"CAR", Function, "(list)"},
		{"DEFUN", Macro, "(name lambda-list &body body)"},
		{"IF", SpecialOperator, ""},
		{"LIST", Function | Type | Class, "(&rest args)"},
		{"*PRINT-BASE*", Variable, ""},
		{"PI", Constant, ""},
		{"FIXNUM", Type | Class, ""},
		{"OPTIMIZE", Declaration, ""},
		{"&KEY", LambdaListKeyword, ""},
		{"CALL-NEXT-METHOD", Local, ""},
		{"STRING-UPCASE", Function, "(string &key (start 0) end)"},
	}
	for _, tt := range tests {
		s, ok := Lookup(tt.name)
		if !ok || s.Kind != tt.kind || s.LambdaList != tt.ll {
			t.Errorf("Lookup(%s) = %+v %v, want kind %v lambda list %q", tt.name, s, ok, tt.kind, tt.ll)
		}
	}
	for _, missing := range []string{"STRING-SPLIT", "car", "FLATTEN", ""} {
		if _, ok := Lookup(missing); ok {
			t.Errorf("Lookup(%q) found a symbol COMMON-LISP does not have", missing)
		}
	}
}

// TestLambdaListsParse: every generated lambda list reads and parses, so call checks
// can use all of them.
func TestLambdaListsParse(t *testing.T) {
	n := 0
	All(func(s Symbol) bool {
		if s.Kind&(Function|Macro) != 0 && s.Kind&SpecialOperator == 0 {
			if _, ok := s.Params(); !ok {
				t.Errorf("%s: lambda list %q does not parse", s.Name, s.LambdaList)
			}
			n++
		}
		return true
	})
	if n < 700 {
		t.Errorf("only %d functions and macros", n)
	}
	s, _ := Lookup("STRING-UPCASE")
	l, _ := s.Params()
	if l.Min() != 1 || !l.HasKeyword("START") || l.HasKeyword("TEST") || !s.Callable() {
		t.Errorf("STRING-UPCASE params %s", l)
	}
	if k := Function | Type; k.String() != "function|type" || Kind(0).String() != "symbol" {
		t.Errorf("Kind.String: %q %q", k, Kind(0))
	}
}

// TestTableMatchesSBCL regenerates the table with the installed SBCL and compares.
func TestTableMatchesSBCL(t *testing.T) {
	if _, err := exec.LookPath("sbcl"); err != nil {
		t.Skip("sbcl is not on PATH; install sbcl: apt-get install sbcl")
	}
	if testing.Short() {
		t.Skip("regenerating with SBCL takes a second; skipped in -short")
	}
	out, err := exec.Command("sbcl", "--script", "gen.lisp").Output()
	if err != nil {
		t.Fatalf("sbcl --script gen.lisp: %v", err)
	}
	committed, err := os.ReadFile("table_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, committed) {
		t.Errorf("table_gen.go differs from what %s generates (the committed table is from SBCL %s); run go generate ./lang/commonlisp/cltable and review the diff",
			firstLine(out), SBCLVersion())
	}
}

func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}
