package resolve

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/asdf"
)

// tb is what the helpers need of testing.T and rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
}

// resolveFiles resolves a check-mode change of files (all new) with an empty source
// registry, and returns its problems as "path:line:col kind: message [suggestion]".
func resolveFiles(t tb, files map[string]string) []string {
	t.Helper()
	return resolveWith(t, NewDeps([]asdf.Root{}, nil), files)
}

// resolveWith is resolveFiles with a given Deps.
func resolveWith(t tb, deps *Deps, files map[string]string) []string {
	t.Helper()
	head := fstest.MapFS{}
	set := &change.Set{Root: "/nonexistent", HeadFS: head, NoBase: true}
	for p, src := range files {
		head[p] = &fstest.MapFile{Data: []byte(src)}
		set.Files = append(set.Files, change.NewFile(p, "", nil, []byte(src)))
	}
	set.Sort()
	r := Resolver{Deps: deps}
	ps, err := r.Resolve(&lang.Request{Context: context.Background(), Changes: set})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s:%d:%d %s: %s [%s]", p.Location.File, p.Location.Line, p.Location.Column, p.Kind, p.Message, p.Suggestion))
	}
	return out
}

// Each case is one file of a package-less script unless it says otherwise; want lists
// the "line:col kind" of every problem.
func TestResolveCases(t *testing.T) {
	const pkg = "(defpackage #:p (:use #:cl) (:export #:api))\n(in-package #:p)\n"
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"cl call", "(string-upcase \"x\")", nil},
		{"misspelled", "(string-upcasee \"x\")", []string{"1:2 undefined"}},
		{"loop destructuring", "(loop for (a b) in '((1 2)) for (c . d) = (cons a b) with (e f) = (list 1 2) collect (list a b c d e f))", nil},
		{"loop named and into", "(loop named outer for x in '(1) collect x into xs finally (return xs))", nil},
		{"loop body checked", "(loop for x in '(1) do (no-such-fn x))", []string{"1:25 undefined"}},
		{"flet shadows", "(flet ((no-such (x) x)) (no-such 1))", nil},
		{"flet scope", "(flet ((a () (b))) (a))", []string{"1:15 undefined"}},
		{"labels recursion", "(labels ((a (n) (if (zerop n) 0 (a (1- n))))) (a 2))", nil},
		{"macrolet args unchecked", "(macrolet ((m (&rest r) `(list ,@r))) (m (anything 1)))", nil},
		{"quoted data", "(list '(no-such 1) #(no-such) `(no-such ,(list 1)))", nil},
		{"unquote checked", "`(a ,(no-such 1))", []string{"1:7 undefined"}},
		{"function ref", "(mapcar #'no-such '(1))", []string{"1:11 undefined"}},
		{"lambda head", "((lambda (x) (no-such x)) 1)", []string{"1:15 undefined"}},
		{"defstruct", "(defstruct pt x (y 0 :read-only t))\n(pt-x (make-pt :x 1 :y 2))\n(setf (pt-x (copy-pt (make-pt))) 3)\n(pt-p 1)", nil},
		{"defstruct include", "(defstruct base x)\n(defstruct (derived (:include base)) y)\n(derived-x 1)\n(make-derived :x 1)", nil},
		{"setf expander", "(define-setf-expander spot (x) (values nil nil nil nil x))\n(setf (spot 1) 2)", nil},
		{"generic keywords", "(defgeneric g (x &key))\n(defmethod g (x &key extra) (list x extra))\n(g 1 :extra 2)", nil},
		{"defstruct keywords", "(defstruct pt x)\n(make-pt :z 1)", []string{"2:10 unknown-keyword"}},
		{"setf function", "(defun (setf thing) (v x) (list v x))\n(setf (thing 1) 2)", nil},
		{"setf unknown place", "(setf (thing 1) 2)", []string{"1:8 undefined"}},
		{"defclass accessors", "(defclass c () ((a :accessor c-a) (b :reader c-b)))\n(setf (c-a (make-instance 'c)) (c-b 1))", nil},
		{"generic arity", "(defgeneric g (x &optional y))\n(defmethod g ((x integer) &optional y) (list x y))\n(g 1 2 3)", []string{"3:1 wrong-arity"}},
		{"methods only", "(defmethod h ((x integer)) x)\n(defmethod h ((x string)) x)\n(h 1)", nil},
		{"redefinitions disagree", "(defun f (x) x)\n(defun f (x y) (list x y))\n(f 1 2 3)", nil},
		{"project macro defines", "(defmacro def-thing (name) `(defun ,name () 1))\n(def-thing widget)\n(widget)", nil},
		{"reader conditional", "#-sbcl (no-such 1)\n#+sbcl (list 1)", nil},
		{"declare", "(defun f (x) (declare (type fixnum x) (optimize speed)) x)", nil},
		{"handler-case", "(handler-case (list 1) (error (e) (no-such e)))", []string{"1:36 undefined"}},
		{"case keys", "(case 1 ((no-such) 1) (otherwise (list 2)))", nil},
		{"odd keywords", "(position 1 '(1) :test)", []string{"1:1 wrong-arity"}},
		{"allow-other-keys", "(position 1 '(1) :nope 1 :allow-other-keys t)", nil},
		{"variable keyword", "(let ((k :test)) (position 1 '(1) k #'eql))", nil},
		{"sb-ext in cl-user", "(posix-getenv \"HOME\")\n(sb-ext:exit :code 1)", nil},
		{"sb-ext arity", "(sb-ext:exit :cod 1)", []string{"1:14 unknown-keyword"}},
		{"unlisted sb package", "(sb-posix:getpid)", nil},
		{"quicklisp", "(ql:quickload :alexandria)", nil},
		{"unknown package", "(no-such-pkg:thing)", []string{"1:2 unknown-package"}},
		{"cl not external", "(cl:frob 1)", []string{"1:2 unknown-symbol"}},
		{"other language", "(string-join '(\"a\") \",\")", []string{"1:2 undefined"}},
		{"package own", pkg + "(defun api () (helper))\n(defun helper () 1)", nil},
		{"package missing", pkg + "(defun api () (helperr))\n(defun helper () 1)", []string{"3:16 undefined"}},
		{"defpackage use unknown", "(defpackage #:q (:use #:cl #:no-such-lib))", []string{"1:28 unknown-package"}},
		{"unknown use unsure", "(defpackage #:q (:use #:cl #:no-such-lib))\n(in-package #:q)\n(from-lib 1)", []string{"1:28 unknown-package"}},
		{"defpackage without use", "(defpackage #:q)\n(in-package #:q)\n(cl:list (list 1))", []string{"3:11 undefined"}},
		{"define-package uses cl", "(uiop:define-package #:q)\n(in-package #:q)\n(list 1)", nil},
		{"call-next-method", "(defmethod m ((x t)) (if (next-method-p) (call-next-method) x))", nil},
		{"assert places", "(let ((x 1)) (assert (plusp x) (x) \"~a\" x))", nil},
		{"use-package", "(defpackage #:lib (:use #:cl) (:export #:deftest))\n(in-package #:lib)\n(defmacro deftest (n) n)\n(in-package #:cl-user)\n(use-package :lib)\n(deftest 1)", nil},
		{"def macro derived names", "(defmacro def-env (name) name)\n(def-env run-state)\n(with-run-state 1)\n(bind-run-state 2)", nil},
		{"project macro derived names", "(defmacro generate-part (name) name)\n(generate-part date)\n(time-date 1)", nil},
		{"macro slot readers", "(defmacro define-type (name &rest slots) (list name slots))\n(define-type foo (x :reader foo-x))\n(foo-x 1)", nil},
		{"derived names stay words", "(defmacro def-env (name) name)\n(def-env state)\n(statement 1)", []string{"3:2 undefined"}},
		{"package made by a macro", "(macrolet ((m () `(defpackage #:made (:use #:cl)))) (m))\n(made:thing)", nil},
		{"custom dispatch macro", "(set-dispatch-macro-character #\\# #\\L (lambda (s c n) (list s c n)))\n(defun f () #L(list 1))", nil},
		{"computed feature", "(defun f () 1)\n(cl:frob)\n(progn #+#.(cl:if t '(:and) '(:or)) (a))\n#+allegro\n(excl:foo)", []string{"2:2 unknown-symbol"}},
		{"undefined args unchecked", "(no-such (other-no-such))", []string{"1:2 undefined"}},
		{"in builtin package", "(in-package :asdf)\n(defmethod version-satisfies ((c t) v) (or (null v) (call-next-method)))", nil},
		{"do", "(do ((i 0 (1+ i))) ((> i 2) (no-such i)))", []string{"1:30 undefined"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := resolveFiles(t, map[string]string{"a.lisp": c.src})
			var short []string
			for _, g := range got {
				f := strings.Fields(g)
				short = append(short, strings.TrimPrefix(f[0], "a.lisp:")+" "+strings.TrimSuffix(f[1], ":"))
			}
			if !slices.Equal(short, c.want) {
				t.Errorf("got %q\nwant %q\n%s", short, c.want, strings.Join(got, "\n"))
			}
		})
	}
}

// A changed Lisp file that is too large or binary is reported, never passed.
func TestUnverifiedFiles(t *testing.T) {
	big := change.NewLargeFile("big.lisp", "", change.Create, 9<<20)
	bin := change.NewFile("bin.lisp", "", nil, []byte("(a)\x00"))
	set := &change.Set{Root: "/nonexistent", HeadFS: fstest.MapFS{}, NoBase: true, Files: []*change.File{bin, big}}
	ps, err := Resolver{Deps: NewDeps([]asdf.Root{}, nil)}.Resolve(&lang.Request{Context: context.Background(), Changes: set})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.Location.File+" "+string(p.Kind))
	}
	if want := []string{"big.lisp unverified-file", "bin.lisp unverified-file"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A package is attributed to a missing system by name: the same up to "cl-", or one name
// the start or end of the other at a separator.
func TestSamePackageName(t *testing.T) {
	for _, c := range []struct {
		system, pkg string
		want        bool
	}{
		{"cl-ppcre", "CL-PPCRE", true}, {"cl-ppcre", "PPCRE", true}, {"cl-json", "JSON", true},
		{"str", "STR", true}, {"foo", "FOO/BAR", true}, {"foo.bar", "FOO", true}, {"dexador", "DEX", false},
		{"cl-nonexistent-json", "JSON", true}, {"jsonx", "JSON", false}, {"alexandria", "ALEX", false},
	} {
		if got := samePackageName(c.system, c.pkg); got != c.want {
			t.Errorf("samePackageName(%q, %q) = %v, want %v", c.system, c.pkg, got, c.want)
		}
	}
}

// The systems that conventionally provide a package are tried with and without "cl-".
func TestSystemCandidates(t *testing.T) {
	for pkg, want := range map[string][]string{
		"CL-PPCRE":   {"cl-ppcre", "ppcre"},
		"ALEXANDRIA": {"alexandria", "cl-alexandria"},
	} {
		if got := systemCandidates(pkg); !slices.Equal(got, want) {
			t.Errorf("systemCandidates(%q) = %q, want %q", pkg, got, want)
		}
	}
}

// Suggestions are the nearest names at the least distance, and names from other
// languages get the Common Lisp way.
func TestSuggestions(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"(string-upcasee 1)", "[did you mean string-upcase?]"},
		{"(mapcarr #'car nil)", "[did you mean mapcar?]"},
		{"(string-split \"a b\")", "[there is no string-split in Common Lisp: use uiop:split-string"},
		{"(str-replace \"a\" \"b\" \"c\")", "cl-ppcre:regex-replace-all"},
		{"(position 1 nil :kye #'car)", "[did you mean :key?]"},
		{"(defun f (&key alpha beta) (list alpha beta))\n(f :gamma 1)", "[its keywords are :alpha, :beta]"},
		{"(defpackage #:p (:use #:cl))\n(in-package #:p)\n(defun helper () 1)\n(in-package #:cl-user)\n(helper)", "[it is defined in package P and not exported: write p::helper, or export it]"},
	} {
		got := resolveFiles(t, map[string]string{"a.lisp": c.src})
		if len(got) != 1 || !strings.Contains(got[0], c.want) {
			t.Errorf("%s: got %q, want one problem with %q", c.src, got, c.want)
		}
	}
}

// A problem with a single candidate carries the edit that makes it, and applying every
// such edit leaves nothing to report.
func TestFixesResolve(t *testing.T) {
	src := "(string-upcasee \"x\")\n(position 1 '(1) :tset #'eql)\n(cl:string-downcas \"Y\")\n"
	set := func(src string) []lang.Problem {
		head := fstest.MapFS{"a.lisp": {Data: []byte(src)}}
		s := &change.Set{Root: "/nonexistent", HeadFS: head, NoBase: true, Files: []*change.File{change.NewFile("a.lisp", "", nil, []byte(src))}}
		ps, err := Resolver{Deps: NewDeps([]asdf.Root{}, nil)}.Resolve(&lang.Request{Context: context.Background(), Changes: s})
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	ps := set(src)
	if len(ps) != 3 {
		t.Fatalf("want 3 problems, got %+v", ps)
	}
	lines := strings.Split(src, "\n")
	for i := len(ps) - 1; i >= 0; i-- { // later lines first; one edit per line
		p := ps[i]
		if p.Fix == nil || len(p.Fix.Edits) != 1 {
			t.Fatalf("%s: no single-edit fix", p.Message)
		}
		e := p.Fix.Edits[0]
		l := lines[e.Range.Line-1]
		lines[e.Range.Line-1] = l[:e.Range.Column-1] + e.NewText + l[e.Range.EndColumn-1:]
	}
	fixed := strings.Join(lines, "\n")
	if left := set(fixed); len(left) != 0 {
		t.Errorf("after the fixes:\n%s\nstill %+v", fixed, left)
	}
	if want := "(string-upcase \"x\")\n(position 1 '(1) :test #'eql)\n(cl:string-downcase \"Y\")\n"; fixed != want {
		t.Errorf("fixed:\n%s\nwant:\n%s", fixed, want)
	}
}
