package index

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

func build(t *testing.T, src string) *File {
	t.Helper()
	rf := reader.Read([]byte(src), reader.Options{})
	if len(rf.Errors) > 0 {
		t.Fatalf("read errors: %v", rf.Errors)
	}
	return Build(rf)
}

// describe prints a definition as "PKG::NAME kind via lambda-list doc".
func describe(d Definition) string {
	name := d.Name
	if d.Setf {
		name = "(SETF " + name + ")"
	}
	s := fmt.Sprintf("%s::%s %s %q", d.Package, name, d.Kind, d.Via)
	if d.Lambda != nil {
		s += " " + d.Lambda.String()
	}
	if d.Documented {
		s += " doc"
	}
	return s
}

const defsSrc = `(defpackage #:shapes
  (:use #:cl)
  (:nicknames :shp)
  (:import-from :alexandria #:flatten "CURRY")
  (:shadow #:remove)
  (:local-nicknames (#:a #:alexandria))
  (:export #:area #:make-circle)
  (:documentation "Shapes."))

(in-package :shapes)

(defun area (shape) "The area." (declare (ignore shape)) 0)
(defun (setf area) (new shape) (declare (ignore shape)) new)
(defun no-doc (x) "just a return value")
(defmacro with-shape ((var shape) &body body) "Bind." ` + "`" + `(let ((,var ,shape)) ,@body))
(defgeneric draw (shape &key color)
  (:documentation "Draw it.")
  (:method ((s string) &key color) (list s color)))
(defmethod draw :around ((s symbol) &key color) "Around." color)
(defstruct (circle (:conc-name c-) (:constructor make-circle (radius &optional center)))
  "A circle."
  radius (center nil :read-only t))
(defstruct point x y)
(defstruct (bare (:conc-name nil) (:predicate is-bare) (:copier nil)) slot)
(defclass widget ()
  ((name :accessor widget-name :initarg :name)
   (size :reader widget-size :writer (setf size-of)))
  (:documentation "A widget."))
(define-condition shape-error (error) ((shape :reader shape-error-shape)))
(deftype small () '(integer 0 10))
(defsetf area set-area)
(define-compiler-macro area (&whole form shape) form)
(defvar *count* 0 "Count.")
(defparameter *scale* 1)
(defconstant +max+ 10)
(define-modify-macro incf-scaled (factor) *)
(let ((cache nil))
  (defun cached () cache))
(defun cl-user::elsewhere ())
(setf (symbol-function 'alias) #'area (fdefinition '(setf alias)) #'identity (macro-function 'mac) nil x 1)
'(defun quoted ())
` + "`" + `(defun ,name ())
`

func TestDefinitions(t *testing.T) {
	ix := build(t, defsSrc)
	want := []string{
		`SHAPES::AREA function "defun" (shape) doc`,
		`SHAPES::(SETF AREA) function "defun" (new shape)`,
		`SHAPES::NO-DOC function "defun" (x)`,
		`SHAPES::WITH-SHAPE macro "defmacro" ((var shape) &body body) doc`,
		`SHAPES::DRAW generic-function "defgeneric" (shape &key color) doc`,
		`SHAPES::DRAW method "defgeneric :method" (s &key color)`,
		`SHAPES::DRAW method "defmethod" (s &key color) doc`,
		`SHAPES::CIRCLE structure "defstruct" doc`,
		`SHAPES::MAKE-CIRCLE function "defstruct :constructor" (radius &optional center)`,
		`SHAPES::CIRCLE-P function "defstruct :predicate" (object)`,
		`SHAPES::COPY-CIRCLE function "defstruct :copier" (object)`,
		`SHAPES::C-RADIUS function "defstruct accessor" (instance)`,
		`SHAPES::(SETF C-RADIUS) function "defstruct accessor" (new-value instance)`,
		`SHAPES::C-CENTER function "defstruct accessor" (instance)`,
		`SHAPES::POINT structure "defstruct"`,
		`SHAPES::MAKE-POINT function "defstruct :constructor" (&key x y)`,
		`SHAPES::POINT-P function "defstruct :predicate" (object)`,
		`SHAPES::COPY-POINT function "defstruct :copier" (object)`,
		`SHAPES::POINT-X function "defstruct accessor" (instance)`,
		`SHAPES::(SETF POINT-X) function "defstruct accessor" (new-value instance)`,
		`SHAPES::POINT-Y function "defstruct accessor" (instance)`,
		`SHAPES::(SETF POINT-Y) function "defstruct accessor" (new-value instance)`,
		`SHAPES::BARE structure "defstruct"`,
		`SHAPES::MAKE-BARE function "defstruct :constructor" (&key slot)`,
		`SHAPES::IS-BARE function "defstruct :predicate" (object)`,
		`SHAPES::SLOT function "defstruct accessor" (instance)`,
		`SHAPES::(SETF SLOT) function "defstruct accessor" (new-value instance)`,
		`SHAPES::WIDGET class "defclass" doc`,
		`SHAPES::WIDGET-NAME generic-function "defclass :accessor" (object)`,
		`SHAPES::(SETF WIDGET-NAME) generic-function "defclass :accessor" (new-value object)`,
		`SHAPES::WIDGET-SIZE generic-function "defclass :reader" (object)`,
		`SHAPES::(SETF SIZE-OF) generic-function "defclass :writer" (new-value object)`,
		`SHAPES::SHAPE-ERROR condition "define-condition"`,
		`SHAPES::SHAPE-ERROR-SHAPE generic-function "define-condition :reader" (object)`,
		`SHAPES::SMALL type "deftype" ()`,
		`SHAPES::AREA setf-expander "defsetf"`,
		`SHAPES::AREA compiler-macro "define-compiler-macro" (shape)`,
		`SHAPES::*COUNT* variable "defvar" doc`,
		`SHAPES::*SCALE* variable "defparameter"`,
		`SHAPES::+MAX+ constant "defconstant"`,
		`SHAPES::INCF-SCALED macro "define-modify-macro" (place factor)`,
		`SHAPES::CACHED function "defun" ()`,
		`CL-USER::ELSEWHERE function "defun" ()`,
		`SHAPES::ALIAS function "setf symbol-function"`,
		`SHAPES::(SETF ALIAS) function "setf fdefinition"`,
		`SHAPES::MAC macro "setf macro-function"`,
	}
	var got []string
	for _, d := range ix.Definitions {
		got = append(got, describe(d))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("definitions:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(ix.Problems) != 0 {
		t.Errorf("problems: %v", ix.Problems)
	}
	for _, d := range ix.Definitions {
		if d.Name == "CACHED" && d.TopLevel || d.Name == "AREA" && d.Kind == Function && !d.TopLevel {
			t.Errorf("%s: TopLevel %v", d.Name, d.TopLevel)
		}
	}
}

func TestPackages(t *testing.T) {
	ix := build(t, defsSrc+`(uiop:define-package :shapes/extra (:use-reexport :shapes) (:mix :alexandria))`)
	if len(ix.Packages) != 2 {
		t.Fatalf("packages %+v", ix.Packages)
	}
	p := ix.Packages[0]
	got := fmt.Sprintf("%s %s nick=%v use=%v shadow=%v imports=%s:%d local=%v doc=%v",
		p.Name, p.Via, p.Nicknames, p.Use, p.Shadow, p.ImportFrom[0].Package, len(p.ImportFrom[0].Symbols), p.LocalNicknames, p.Documented)
	want := "SHAPES defpackage nick=[SHP] use=[CL] shadow=[REMOVE] imports=ALEXANDRIA:2 local=map[A:ALEXANDRIA] doc=true"
	if got != want {
		t.Errorf("package:\n got %s\nwant %s", got, want)
	}
	if !p.Exports("AREA") || !p.Exports("MAKE-CIRCLE") || p.Exports("NO-DOC") {
		t.Errorf("exports %+v", p.Export)
	}
	if p.Export[0].Span.Start.Line != 7 || p.Export[0].Span.Start.Column != 12 {
		t.Errorf("export #:area at %+v, want 7:12", p.Export[0].Span.Start)
	}
	q := ix.Packages[1]
	if q.Via != "uiop:define-package" || fmt.Sprint(q.Use, q.Reexport) != "[SHAPES ALEXANDRIA] [SHAPES]" {
		t.Errorf("define-package %+v", q)
	}
	if ix.PackageAt(0) != DefaultPackage || ix.PackageAt(len(defsSrc)-1) != "SHAPES" {
		t.Errorf("PackageAt: %q %q", ix.PackageAt(0), ix.PackageAt(len(defsSrc)-1))
	}
}

func TestLocalScopes(t *testing.T) {
	src := `(defun outer (x)
  (flet ((helper (y) "Help." (* y 2)))
    (labels ((rec (n) (if (zerop n) 0 (rec (1- n)))))
      (macrolet ((twice (form) ` + "`" + `(progn ,form ,form)))
        (twice (helper (rec x)))))))
(defun after () (helper 1))`
	ix := build(t, src)
	if len(ix.Scopes) != 3 {
		t.Fatalf("scopes %+v", ix.Scopes)
	}
	tests := []struct {
		name, at string // at: a unique substring whose offset is tested
		want     bool
		kind     Kind
	}{
		{"HELPER", "(helper (rec", true, Function},
		{"REC", "(rec (1- n)", true, Function},
		{"REC", "(rec x)", true, Function},
		{"TWICE", "(twice (helper", true, Macro},
		{"HELPER", "(* y 2)", false, ""}, // flet: not inside its own definitions
		{"HELPER", "(helper 1)", false, ""},
	}
	for _, tt := range tests {
		off := strings.Index(src, tt.at)
		d, ok := ix.LocalAt(tt.name, off)
		if ok != tt.want || ok && d.Kind != tt.kind {
			t.Errorf("LocalAt(%s, at %q) = %v %v, want %v %v", tt.name, tt.at, d.Kind, ok, tt.want, tt.kind)
		}
	}
	h := ix.Scopes[0].Functions[0]
	if h.Via != "flet" || !h.Documented || h.Lambda.String() != "(y)" || h.NameSpan.Start.Line != 2 {
		t.Errorf("helper = %+v", h)
	}
}

func TestProblems(t *testing.T) {
	ix := build(t, "(defun bad (&rest) 1)\n(in-package 1 2)\n(defpackage :p (:use :cl) junk)\n(flet (oops) 1)")
	var got []string
	for _, p := range ix.Problems {
		got = append(got, fmt.Sprintf("%d: %s", p.Span.Start.Line, p.Message))
	}
	want := []string{
		"1: defun BAD: lambda list (&REST) ends without the variable of a lambda-list keyword",
		"2: in-package takes one package name",
		"3: defpackage P: option JUNK is not (:keyword …)",
		"4: flet: binding OOPS is not (name lambda-list body…)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestAlexandria indexes Debian's cl-alexandria: its package exports FLATTEN and
// HASH-TABLE-KEYS, and every exported name is defined somewhere in it.
func TestAlexandria(t *testing.T) {
	files, _ := filepath.Glob("/usr/share/common-lisp/source/alexandria/alexandria-1/*.lisp")
	if len(files) == 0 {
		t.Skip("cl-alexandria is not installed: apt-get install -y cl-alexandria")
	}
	defined, pkg := indexFiles(t, files)
	if pkg == nil {
		t.Fatal("no defpackage ALEXANDRIA")
	}
	for _, name := range []string{"FLATTEN", "HASH-TABLE-KEYS", "WITH-GENSYMS", "ONCE-ONLY"} {
		if !pkg.Exports(name) {
			t.Errorf("ALEXANDRIA does not export %s", name)
		}
	}
	if d := defined["FLATTEN"]; d.Kind != Function || !d.Documented || d.Lambda.String() != "(tree)" {
		t.Errorf("FLATTEN = %s", describe(d))
	}
	// Exports defined by the library's own macros (a macrolet DEF, DEFINE-ALIST-GET,
	// a FROB that defines the numeric types) are not expanded, so they have no
	// definition; every other export must.
	macroMade := map[string]bool{"LASTCAR": true, "PROPER-LIST-LENGTH": true, "ASSOC-VALUE": true, "RASSOC-VALUE": true}
	var missing []string
	for _, s := range pkg.Export {
		_, ok := defined[s.Name]
		if !ok && !macroMade[s.Name] && !strings.Contains(s.Name, "POSITIVE") && !strings.Contains(s.Name, "NEGATIVE") {
			missing = append(missing, s.Name)
		}
	}
	if len(pkg.Export) < 200 || len(missing) > 0 {
		t.Errorf("%d exports; with no definition: %v", len(pkg.Export), missing)
	}
}

// indexFiles indexes files and returns the definitions in package ALEXANDRIA by name
// and the package ALEXANDRIA.
func indexFiles(t *testing.T, files []string) (map[string]Definition, *Package) {
	defined := map[string]Definition{}
	var pkg *Package
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rf := reader.Read(src, reader.Options{})
		if len(rf.Errors) > 0 {
			t.Fatalf("%s: %v", p, rf.Errors)
		}
		ix := Build(rf)
		for _, d := range ix.Definitions {
			if d.Package == "ALEXANDRIA" && !d.Setf {
				defined[d.Name] = d
			}
		}
		for i := range ix.Packages {
			if ix.Packages[i].Name == "ALEXANDRIA" {
				pkg = &ix.Packages[i]
			}
		}
	}
	return defined, pkg
}

// BenchmarkBuildAlexandria reads and indexes every source file of alexandria per
// iteration: the cost of indexing a project of its size from scratch.
func BenchmarkBuildAlexandria(b *testing.B) {
	files, _ := filepath.Glob("/usr/share/common-lisp/source/alexandria/alexandria-[12]/*.lisp")
	if len(files) == 0 {
		b.Skip("cl-alexandria is not installed: apt-get install -y cl-alexandria")
	}
	var srcs [][]byte
	size := 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs, size = append(srcs, src), size+len(src)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			Build(reader.Read(src, reader.Options{}))
		}
	}
}
