package agentverify_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/agentverify/agentverify"
)

// TestLispProject checks a small Common Lisp system end to end: style (lisp-case naming),
// complexity and syntax errors run on .lisp files through the Lisp frontend, at the forms'
// positions; idiomatic code (defstruct-generated functions, macros, reader conditionals,
// local functions, quoted data) draws nothing.
func TestLispProject(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".agentverify.yaml": "version: 1\nname: lisp\nhallucination: {}\nstyle:\n  naming: detect\ncomplexity:\n  max_nesting_depth: 5\n",
		"shapes.asd":        "(defsystem \"shapes\" :components ((:file \"package\") (:file \"shapes\")))\n",
		"package.lisp":      "(defpackage #:shapes (:use #:cl) (:export #:area #:scaled))\n",
		"shapes.lisp": `(in-package #:shapes)

(defstruct square (side 1 :type real))

(defmacro with-square ((var side) &body body)
  "Bind VAR to a new square of SIDE around BODY."
  ` + "`" + `(let ((,var (make-square :side ,side))) ,@body))

(defun area (sq)
  "The area of SQ."
  #+sbcl (* (square-side sq) (square-side sq))
  #-sbcl (error "unsupported"))

(defun scaled (factor)
  "A square scaled by FACTOR."
  (flet ((scale (x) (* x factor)))
    (with-square (s (scale 2)) (list s '(if a (if b c))))))

(defun makeBigSquare (n)
  (when n (when n (when n (when n (when n (when n (make-square :side n))))))))
`,
		"broken.lisp": "(in-package #:shapes)\n\n(defun half (x)\n  (/ x 2)\n",
	})
	rep, err := agentverify.Check(context.Background(), agentverify.Request{Dir: dir, Source: agentverify.Paths})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range rep.Violations {
		got = append(got, fmt.Sprintf("%s:%d %s", v.Location.File, v.Location.Line, v.Rule))
	}
	want := []string{
		"broken.lisp:3 hallucination/syntax-error",
		"shapes.lisp:19 complexity/nesting-depth",
		"shapes.lisp:19 style/naming",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n got %q\nwant %q", got, want)
	}
	for _, v := range rep.Violations {
		if v.Rule == "style/naming" && v.Suggestion != "rename to make-big-square" {
			t.Errorf("naming suggestion %q, want rename to make-big-square", v.Suggestion)
		}
	}
}
