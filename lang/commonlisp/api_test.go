package commonlisp

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/lambdalist"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

func lambda(t testing.TB, src string) *lambdalist.List {
	t.Helper()
	rf := reader.Read([]byte(src), reader.Options{})
	if len(rf.Forms) != 1 {
		t.Fatalf("%s: %d forms", src, len(rf.Forms))
	}
	l, err := lambdalist.Parse(rf.Forms[0], lambdalist.Ordinary)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return l
}

// TestIncompatible: P14 (arity) and P15 (&key) on the lambda-list changes the issue
// lists, and the compatible ones that must not be reported.
func TestIncompatible(t *testing.T) {
	for _, c := range []struct{ base, head, want string }{
		{"(a)", "(a b)", "required parameter b added"},
		{"(a b)", "(a)", "required parameter b removed"},
		{"(a &optional b)", "(a b)", "&optional b made required"},
		{"(a &optional b)", "(a)", "&optional b removed"},
		{"(a &rest r)", "(a)", "&rest r removed"},
		{"(a &key k j)", "(a &key k)", "&key j removed"},
		{"(a &optional o &key)", "(a &optional o)", "&key removed"},
		{"(a &key k &allow-other-keys)", "(a &key k)", "&allow-other-keys removed"},
		{"(a &key k)", "(a &optional o &key k)", "&optional o added before &key (a keyword argument would bind to it)"},
		{"(a b)", "(b a)", ""}, // renamed parameters: the same calls work
		{"(a)", "(a &optional b)", ""},
		{"(a)", "(a &key k)", ""},
		{"(a &key k)", "(a &key k j)", ""},
		{"(a b)", "(a &optional b)", ""},
		{"(a b)", "(a &rest more)", ""},
		{"(a &key k)", "(a &key ((:k kk)) j)", ""},
		{"(a &key k)", "(a &rest r &key k)", ""},
		{"(a &key k)", "(a &key &allow-other-keys)", ""},
	} {
		got := strings.Join(incompatible(lambda(t, c.base), lambda(t, c.head)), ", ")
		if got != c.want {
			t.Errorf("%s → %s: %q, want %q", c.base, c.head, got, c.want)
		}
	}
}

// genLambdaList draws an ordinary lambda list of r, o, &rest, &key x y z and
// &allow-other-keys parts.
func genLambdaList(t *rapid.T, label string) string {
	var b strings.Builder
	b.WriteString("(")
	for i := rapid.IntRange(0, 3).Draw(t, label+" required"); i > 0; i-- {
		fmt.Fprintf(&b, "r%d ", i)
	}
	if n := rapid.IntRange(0, 2).Draw(t, label+" optional"); n > 0 {
		b.WriteString("&optional ")
		for ; n > 0; n-- {
			fmt.Fprintf(&b, "o%d ", n)
		}
	}
	if rapid.Bool().Draw(t, label+" rest") {
		b.WriteString("&rest more ")
	}
	if rapid.Bool().Draw(t, label+" key") {
		b.WriteString("&key ")
		for _, k := range []string{"x", "y", "z"} {
			if rapid.Bool().Draw(t, label+" key "+k) {
				b.WriteString(k + " ")
			}
		}
		if rapid.Bool().Draw(t, label+" allow") {
			b.WriteString("&allow-other-keys")
		}
	}
	return strings.TrimSpace(b.String()) + ")"
}

// TestP14P15Soundness: over random pairs of lambda lists, when
// incompatible reports nothing, every argument count and every keyword the base accepts
// the head accepts too.
func TestP14P15Soundness(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		bs, hs := genLambdaList(rt, "base"), genLambdaList(rt, "head")
		base, head := lambda(t, bs), lambda(t, hs)
		if len(incompatible(base, head)) > 0 {
			return
		}
		for n := 0; n < 12; n++ {
			if base.Accepts(n) && !head.Accepts(n) {
				rt.Fatalf("%s → %s judged compatible, but a call with %d arguments breaks", bs, hs, n)
			}
		}
		for _, k := range []string{"X", "Y", "Z", "OTHER"} {
			if base.HasKeyword(k) && !head.HasKeyword(k) {
				rt.Fatalf("%s → %s judged compatible, but keyword :%s breaks", bs, hs, k)
			}
		}
	})
}

// TestP15AddedParametersNeverReported: adding &optional parameters (to a lambda list
// without &key) or &key parameters to a random lambda list is never reported.
func TestP15AddedParametersNeverReported(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		req := rapid.IntRange(0, 3).Draw(rt, "required")
		opt := rapid.IntRange(0, 2).Draw(rt, "optional")
		keys := rapid.IntRange(0, 2).Draw(rt, "keys")
		hasKey := keys > 0 || rapid.Bool().Draw(rt, "empty &key")
		addOpt, addKey := rapid.IntRange(0, 2).Draw(rt, "added optional"), rapid.IntRange(0, 2).Draw(rt, "added keys")
		if hasKey {
			addOpt = 0 // an &optional before &key would take keyword arguments
		}
		render := func(opts, ks int, key bool) string {
			var b strings.Builder
			b.WriteString("(")
			for i := 0; i < req; i++ {
				fmt.Fprintf(&b, "r%d ", i)
			}
			if opts > 0 {
				b.WriteString("&optional ")
			}
			for i := 0; i < opts; i++ {
				fmt.Fprintf(&b, "o%d ", i)
			}
			if key || ks > 0 {
				b.WriteString("&key ")
			}
			for i := 0; i < ks; i++ {
				fmt.Fprintf(&b, "k%d ", i)
			}
			return strings.TrimSpace(b.String()) + ")"
		}
		bs, hs := render(opt, keys, hasKey), render(opt+addOpt, keys+addKey, hasKey)
		if got := incompatible(lambda(t, bs), lambda(t, hs)); len(got) > 0 {
			rt.Fatalf("%s → %s reported: %v", bs, hs, got)
		}
	})
}

// set builds a change of the given files over a head tree of the others.
func set(base, head map[string]string, unchanged map[string]string) *change.Set {
	s := &change.Set{HeadFS: fstest.MapFS{}, BaseFS: fstest.MapFS{}}
	for p, src := range unchanged {
		s.HeadFS.(fstest.MapFS)[p] = &fstest.MapFile{Data: []byte(src)}
		s.BaseFS.(fstest.MapFS)[p] = &fstest.MapFile{Data: []byte(src)}
	}
	for p := range base {
		s.BaseFS.(fstest.MapFS)[p] = &fstest.MapFile{Data: []byte(base[p])}
	}
	for p := range head {
		s.HeadFS.(fstest.MapFS)[p] = &fstest.MapFile{Data: []byte(head[p])}
	}
	seen := map[string]bool{}
	for _, m := range []map[string]string{base, head} {
		for p := range m {
			if seen[p] {
				continue
			}
			seen[p] = true
			var b, h []byte
			if v, ok := base[p]; ok {
				b = []byte(v)
			}
			if v, ok := head[p]; ok {
				h = []byte(v)
			}
			s.Files = append(s.Files, change.NewFile(p, p, b, h))
		}
	}
	s.Sort()
	return s
}

// memo is a lang.Memo for tests.
type memo map[string]any

func (m memo) Get(k string, f func() any) any {
	if v, ok := m[k]; ok {
		return v
	}
	m[k] = f()
	return m[k]
}

// TestRemovedPackage: a deleted defpackage is one removal, and pkg:sym in an unchanged
// file breaks.
func TestRemovedPackage(t *testing.T) {
	s := set(map[string]string{"gone.lisp": "(defpackage :gone (:nicknames :g) (:export #:f))\n(in-package :gone)\n(defun f () \"F.\" 1)\n"}, nil,
		map[string]string{"user.lisp": "(in-package :cl-user)\n(defun u () (g:f))\n"})
	req := &lang.Request{Context: context.Background(), Changes: s, Memo: memo{}}
	fe := New()
	changes, err := fe.CompareAPI(req)
	if err != nil || len(changes) != 1 || changes[0].Subject != "package gone" || !changes[0].Removed {
		t.Fatalf("changes %+v, %v", changes, err)
	}
	uses, err := fe.BrokenUses(req, changes)
	if err != nil || len(uses) != 1 || uses[0].At != (lang.Place{File: "user.lisp", Pos: lang.Pos{Line: 2, Column: 14}}) ||
		uses[0].Message != "g:f: package g does not exist any more" {
		t.Fatalf("uses %+v, %v", uses, err)
	}
}

// TestPackageInSeveralFiles: a package defined in two files exports what either
// exports, so a symbol one of them still exports is not removed, and a symbol both stop
// exporting is removed once.
func TestPackageInSeveralFiles(t *testing.T) {
	s := set(map[string]string{"src/package.lisp": "(defpackage :p (:export #:a #:b))\n"},
		map[string]string{"src/package.lisp": "(defpackage :p (:export))\n"},
		map[string]string{"build/package.lisp": "(defpackage :p (:export #:a #:b))\n"})
	s.HeadFS.(fstest.MapFS)["build/package.lisp"] = &fstest.MapFile{Data: []byte("(defpackage :p (:export #:a))\n")}
	changes, err := New().CompareAPI(&lang.Request{Changes: s, Memo: memo{}})
	if err != nil || len(changes) != 1 || changes[0].Subject != "b" {
		t.Fatalf("changes %+v, %v; want b removed once", changes, err)
	}
}

// TestLinkExportsAcrossFiles: Decl.Exported comes from a defpackage in another file,
// through nicknames; a file's own parse only sees its own.
func TestLinkExportsAcrossFiles(t *testing.T) {
	src := "(in-package :s)\n(defun area () 1)\n(defun helper () 2)\n(defun s2:other () 3)\n(defstruct square side)\n"
	s := set(nil, map[string]string{"shapes.lisp": src}, map[string]string{"package.lisp": "(defpackage :shapes (:nicknames :s) (:export #:area #:make-square))\n(defpackage :s2 (:use :cl) (:export #:other))\n"})
	fe := New()
	lf, err := fe.Parse("shapes.lisp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	linked, err := fe.Link(&lang.Request{Changes: s, Memo: memo{}}, lf)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for i, d := range linked.Decls {
		got[d.Name] = d.Exported
		if lf.Decls[i].Exported {
			t.Errorf("%s: the shared parse was modified", d.Name)
		}
	}
	if !got["area"] || got["helper"] || !got["other"] || !got["make-square"] || got["square"] || got["square-side"] {
		t.Errorf("exported %v, want area, other and make-square", got)
	}
}

// BenchmarkCompareAPIOneFile measures CompareAPI and BrokenUses of a one-file change in
// a repository of alexandria's size (18 files, 6000 lines), cold: the project index of
// both sides is built each time.
func BenchmarkCompareAPIOneFile(b *testing.B) {
	unchanged := map[string]string{}
	for i := 0; i < 18; i++ {
		var sb strings.Builder
		fmt.Fprintf(&sb, "(in-package :p%d)\n", i)
		for j := 0; j < 60; j++ {
			fmt.Fprintf(&sb, "(defun f%d-%d (a &optional b &key c)\n  \"Doc.\"\n  (when a (if b (list a b c) (p:api 1 2))))\n\n", i, j)
		}
		unchanged[fmt.Sprintf("src/f%d.lisp", i)] = sb.String()
	}
	pkg := "(defpackage :p (:use :cl) (:export #:api #:other))\n"
	for i := 0; i < 18; i++ {
		pkg += fmt.Sprintf("(defpackage :p%d (:use :cl :p))\n", i)
	}
	unchanged["src/package.lisp"] = pkg
	base := "(in-package :p)\n(defun api (a b) \"API.\" (+ a b))\n(defun other () \"O.\" 1)\n"
	head := "(in-package :p)\n(defun api (a) \"API.\" a)\n(defun other () \"O.\" 1)\n"
	s := set(map[string]string{"src/api.lisp": base}, map[string]string{"src/api.lisp": head}, unchanged)
	fe := New()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := &lang.Request{Context: context.Background(), Changes: s, Memo: memo{}}
		changes, err := fe.CompareAPI(req)
		if err != nil || len(changes) != 1 {
			b.Fatalf("%v %v", changes, err)
		}
		uses, err := fe.BrokenUses(req, changes)
		if err != nil || len(uses) != 18*60 {
			b.Fatalf("%d uses, %v", len(uses), err)
		}
	}
}

// FuzzCompareAPI: comparing any two versions of a file and checking any caller never
// panics, and every change and broken use is placed in a file of the change or the
// caller.
func FuzzCompareAPI(f *testing.F) {
	f.Add("(defpackage :p (:export #:f))\n(in-package :p)\n(defun f (a &optional b) a)\n", "(defpackage :p (:export))\n(in-package :p)\n(defun f (a b) a)\n", "(in-package :cl-user)\n(p:f 1)\n")
	f.Add("(defpackage :p (:export #:f))\n(defun p::f (&key k) k)", "(defpackage :p (:export #:f))\n(defun p::f (a &rest r) r)", "(defpackage :u (:use :p))\n(in-package :u)\n(f :k 1)\n")
	f.Fuzz(func(t *testing.T, base, head, caller string) {
		s := set(map[string]string{"p.lisp": base}, map[string]string{"p.lisp": head}, map[string]string{"u.lisp": caller})
		req := &lang.Request{Context: context.Background(), Changes: s, Memo: memo{}}
		changes, err := New().CompareAPI(req)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range changes {
			if c.Head.File != "p.lisp" || c.Base.File != "p.lisp" && c.Base.File != "" {
				t.Fatalf("change %+v outside the changed file", c)
			}
		}
		uses, err := New().BrokenUses(req, changes)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range uses {
			if u.At.File != "u.lisp" || u.At.Pos.Line < 1 {
				t.Fatalf("use %+v outside the caller", u)
			}
		}
	})
}
