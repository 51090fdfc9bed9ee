package commonlisp

import (
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang"
)

const sample = `(defpackage :shapes
  (:use :cl)
  (:export #:area #:make-square))
(in-package :shapes)

;; Squares.
(defstruct square side)

(defun area (sq)
  "The area of SQ."
  (* (square-side sq) (square-side sq)))

(defun classify (x &optional (scale 1) &key verbose)
  (cond ((null x) :none)
        ((and (numberp x) (> x 10)) (if verbose :big-verbose :big))
        (t (when (> scale 1) :scaled))))

(defun deepNest (x)
  (when x (when x (when x (when x (when x (when x :deep)))))))

(defun quoted ()
  '(if a (if b (if c d))))
`

func parse(t *testing.T, src string) *lang.File {
	t.Helper()
	f, err := New().Parse("shapes.lisp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestDecls(t *testing.T) {
	f := parse(t, sample)
	if f.Package != "COMMON-LISP-USER" || len(f.SyntaxErrors) != 0 {
		t.Fatalf("package %q, syntax errors %v", f.Package, f.SyntaxErrors)
	}
	byName := map[string]lang.Decl{}
	for _, d := range f.Decls {
		byName[d.Name] = d
	}
	for _, c := range []struct {
		name                 string
		kind                 lang.DeclKind
		exported, documented bool
		cyclo, nesting       int
	}{
		{"area", lang.Func, true, true, 1, 0},
		{"classify", lang.Func, false, false, 1 + 3 + 1 + 1 + 1, 2},
		{"deepNest", lang.Func, false, false, 7, 6},
		{"quoted", lang.Func, false, false, 1, 0}, // quoted data is not code
		{"square", lang.Type, false, false, 0, 0},
	} {
		d, ok := byName[c.name]
		if !ok {
			t.Errorf("%s: not declared; decls %v", c.name, f.Decls)
			continue
		}
		if d.Kind != c.kind || d.Exported != c.exported || d.Documented != c.documented {
			t.Errorf("%s: kind %s exported %v documented %v, want %s %v %v", c.name, d.Kind, d.Exported, d.Documented, c.kind, c.exported, c.documented)
		}
		if c.kind == lang.Func && (d.Metrics == nil || d.Metrics.Cyclomatic != c.cyclo || d.Metrics.Nesting != c.nesting) {
			t.Errorf("%s: metrics %+v, want cyclomatic %d nesting %d", c.name, d.Metrics, c.cyclo, c.nesting)
		}
	}
	if m := byName["area"].Metrics; m == nil || m.Lines != 2 {
		t.Errorf("area: %+v, want 2 code lines (the docstring line and the body; the defun line is the header)", m)
	}
	if byName["classify"].Signature == "" || byName["area"].NamePos != (lang.Pos{Line: 9, Column: 8}) {
		t.Errorf("signature %q, area at %v", byName["classify"].Signature, byName["area"].NamePos)
	}
}

func TestIdentsAsWritten(t *testing.T) {
	f := parse(t, sample)
	var got []string
	for _, id := range f.Idents {
		got = append(got, string(id.Kind)+":"+id.Name)
	}
	for _, want := range []string{"func:deepNest", "param:scale", "param:verbose", "param:sq", "type:square"} {
		if !strings.Contains(" "+strings.Join(got, " ")+" ", " "+want+" ") {
			t.Errorf("idents lack %s: %v", want, got)
		}
	}
}

func TestSyntaxErrorsAndComments(t *testing.T) {
	f := parse(t, sample+"\n(defun broken (x)\n  (+ x 1)\n")
	if len(f.SyntaxErrors) == 0 || f.SyntaxErrors[0].Pos.Line < 24 {
		t.Fatalf("syntax errors %v, want one at the unclosed form", f.SyntaxErrors)
	}
	if len(f.Comments) != 1 || f.Comments[0].Text != ";; Squares." || f.Comments[0].Pos.Line != 6 {
		t.Errorf("comments %+v", f.Comments)
	}
	if !New().Match("src/a.LISP") || !New().Match("x.asd") || New().Match("a.go") {
		t.Error("Match")
	}
}
