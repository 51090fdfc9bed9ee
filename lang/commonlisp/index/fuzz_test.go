package index

import (
	"testing"

	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// FuzzBuild: indexing whatever the reader returns never panics, and every definition
// and problem lies inside the source.
func FuzzBuild(f *testing.F) {
	f.Add(defsSrc)
	for _, s := range []string{"(defun)", "(defstruct (s (:constructor)))", "(defclass c () ((s :accessor)))",
		"(defmethod m :before)", "(flet ((f)) (labels (g) 1))", "(defpackage)", "(defsetf a (x) ())",
		"(defstruct (s (:conc-name) (:constructor make (a &key b)) (:include p)) (a 1 :read-only t))",
		"(in-package)", "(defgeneric g (x) (:method))", "(define-modify-macro m)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		rf := reader.Read([]byte(src), reader.Options{})
		ix := Build(rf)
		for _, d := range ix.Definitions {
			if d.Form == nil || d.Form.Span.End.Offset > len(src) || d.Name == "" {
				t.Fatalf("definition %+v out of the source of %d bytes", d, len(src))
			}
		}
		for _, p := range ix.Problems {
			if p.Span.End.Offset > len(src) {
				t.Fatalf("problem %+v out of the source", p)
			}
		}
	})
}
