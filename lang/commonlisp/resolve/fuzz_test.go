package resolve

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/asdf"
)

// FuzzResolve resolves arbitrary text as a Lisp file of a system: the resolver never
// panics, and every problem is in that file at a real position.
func FuzzResolve(f *testing.F) {
	for _, seed := range []string{
		"(defun f (x) (string-upcasee x))",
		"(loop for (a . b) in x collect (foo a))",
		"(defpackage #:p (:use #:cl #:q) (:local-nicknames (#:a #:q)))\n(in-package #:p)\n(a:b (c::d))",
		"(flet ((g (&optional (x (h))) x)) (g))",
		"`(a ,@(b ,(c)))",
		"(setf (f) 1 (g x) 2 y)",
		"(defstruct (s (:include t) (:conc-name nil)) a)",
		"#'(lambda (&key ((:k v) (w))) v)",
		"(handler-case (f) (error (e) (g e)) (:no-error (&rest r) r))",
		"(position 1 '(1) :test)",
		"(",
	} {
		f.Add(seed)
	}
	deps := NewDeps([]asdf.Root{}, nil)
	f.Fuzz(func(t *testing.T, src string) {
		head := fstest.MapFS{
			"s.asd":    {Data: []byte(`(defsystem "s" :depends-on ("not-installed") :components ((:file "a")))`)},
			"a.lisp":   {Data: []byte(src)},
			"b/c.lisp": {Data: []byte("(defmacro m (x) x)\n(defun helper (a &key b) (list a b))\n")},
		}
		set := &change.Set{Root: "/nonexistent", HeadFS: head, NoBase: true,
			Files: []*change.File{change.NewFile("a.lisp", "", nil, []byte(src))}}
		ps, err := Resolver{Deps: deps}.Resolve(&lang.Request{Context: context.Background(), Changes: set})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if p.Location.File != "a.lisp" || p.Location.Line < 1 || p.Message == "" {
				t.Fatalf("bad problem %+v", p)
			}
		}
	})
}
