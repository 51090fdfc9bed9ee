package asdf

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

const asdSrc = `;;;; demo.asd
(in-package :asdf-user)
(defsystem "demo"
  :class :package-inferred-system
  :pathname "src/"
  :defsystem-depends-on ("cffi-grovel")
  :depends-on (:alexandria #:cl-ppcre "split-sequence" (:version "uiop" "3.0")
               (:feature :sbcl "sb-posix") (:feature (:not :sbcl) "ccl-only")
               (:require "sb-introspect"))
  :components ((:file "package")
               (:module "util" :serial t
                :components ((:file "strings") (:static-file "README.md")
                             #+sbcl (:file "sbcl") #-sbcl (:file "other")
                             (:file "win" :if-feature :windows)))
               (:file "main" :pathname "entry.lisp")))
(asdf:defsystem :demo/tests :depends-on (demo fiveam))
`

func TestParse(t *testing.T) {
	a := Parse("demo.asd", []byte(asdSrc), reader.Options{})
	if len(a.Errors) > 0 || len(a.Systems) != 2 {
		t.Fatalf("errors %v systems %d", a.Errors, len(a.Systems))
	}
	s := a.System("demo")
	var deps []string
	for _, d := range s.DependsOn {
		deps = append(deps, fmt.Sprintf("%s%s", d.Name, map[bool]string{true: "(require)"}[d.Require]))
	}
	if got := strings.Join(deps, " "); got != "alexandria cl-ppcre split-sequence uiop sb-posix sb-introspect(require)" {
		t.Errorf("depends-on: %s", got)
	}
	if len(s.DefsystemDependsOn) != 1 || s.DefsystemDependsOn[0].Name != "cffi-grovel" || s.Class != "PACKAGE-INFERRED-SYSTEM" {
		t.Errorf("system %+v", s)
	}
	want := []string{"src/package.lisp", "src/util/strings.lisp", "src/util/sbcl.lisp", "src/entry.lisp"}
	if got := s.SourceFiles(); !reflect.DeepEqual(got, want) {
		t.Errorf("SourceFiles = %v, want %v", got, want)
	}
	if d := s.DependsOn[1]; d.Span.Start.Line != 7 || d.Span.Start.Column != 28 {
		t.Errorf("#:cl-ppcre at %+v, want 7:28", d.Span.Start)
	}
	tests := a.System("demo/tests")
	if tests == nil || len(tests.DependsOn) != 2 || tests.DependsOn[1].Name != "fiveam" {
		t.Errorf("demo/tests = %+v", tests)
	}
}

func TestParseRegistry(t *testing.T) {
	tests := []struct {
		v       string
		roots   []Root
		inherit bool
	}{
		{"", nil, true},
		{"/a//:/b", []Root{{"/a", true}, {"/b", false}}, false},
		{"/a/::", []Root{{"/a/", false}}, true},
		{`(:source-registry (:tree "/x/") (:directory (:home "lisp/")) :inherit-configuration)`,
			[]Root{{"/x", true}, {"/home/u/lisp", false}}, true},
		{`(:source-registry (:tree "/x/") :ignore-inherited-configuration)`, []Root{{"/x", true}}, false},
	}
	for _, tt := range tests {
		roots, inherit := parseRegistry(tt.v, "/home/u")
		if !reflect.DeepEqual(roots, tt.roots) || inherit != tt.inherit {
			t.Errorf("parseRegistry(%q) = %v %v, want %v %v", tt.v, roots, inherit, tt.roots, tt.inherit)
		}
	}
}

func TestDefaultRoots(t *testing.T) {
	env := Env{Home: "/home/u", Getenv: func(k string) string {
		return map[string]string{"CL_SOURCE_REGISTRY": "/extra//:"}[k]
	}}
	var got []string
	for _, r := range DefaultRoots(env) {
		got = append(got, r.String())
	}
	want := []string{`(:tree "/extra")`, `(:tree "/home/u/common-lisp")`, `(:directory "/home/u/.sbcl/systems")`,
		`(:directory "/home/u/.local/share/common-lisp/systems")`, `(:tree "/home/u/.local/share/common-lisp/source")`,
		`(:directory "/usr/local/share/common-lisp/systems")`, `(:tree "/usr/local/share/common-lisp/source")`,
		`(:directory "/usr/share/common-lisp/systems")`, `(:tree "/usr/share/common-lisp/source")`,
		`(:tree "/home/u/quicklisp/local-projects")`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("roots:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// registry builds a source registry in a temp dir: a tree with foo (and a decoy in
// .git), a linked project, and a plain directory with bar.asd.
func registry(t *testing.T) (*Locator, string) {
	root := t.TempDir()
	tree := filepath.Join(root, "tree")
	write(t, filepath.Join(tree, ".git", "foo.asd"), `(defsystem "foo")`)
	write(t, filepath.Join(tree, "foo-1.0", "foo.asd"), `(defsystem "foo" :components ((:file "package") (:file "broken")))`)
	write(t, filepath.Join(tree, "foo-1.0", "package.lisp"), `(defpackage :foo (:use :cl) (:nicknames :f) (:export #:frob))`)
	write(t, filepath.Join(tree, "foo-1.0", "broken.lisp"), "(defpackage :foo-extra)\n(defun frob (x) x")
	write(t, filepath.Join(root, "elsewhere", "linked", "linked.asd"), `(defsystem "linked" :components ((:file "p")))`)
	write(t, filepath.Join(root, "elsewhere", "linked", "p.lisp"), `(defpackage "LINKED" (:export "THING"))`)
	if err := os.Symlink(filepath.Join(root, "elsewhere", "linked"), filepath.Join(tree, "linked")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "systems", "bar.asd"), `(defsystem :bar :class :package-inferred-system)`)
	write(t, filepath.Join(root, "systems", "api.lisp"), `(uiop:define-package :bar/api (:export #:call))`)
	return NewLocator([]Root{{Dir: tree, Tree: true}, {Dir: filepath.Join(root, "systems")}}), root
}

func TestLocatorFind(t *testing.T) {
	l, root := registry(t)
	tests := []struct{ name, want string }{
		{"foo", "tree/foo-1.0/foo.asd"},
		{"linked", "tree/linked/linked.asd"},
		{"bar", "systems/bar.asd"},
		{"bar/api", "systems/bar.asd"},
		{"nope", ""},
	}
	for _, tt := range tests {
		p, ok := l.Find(tt.name)
		rel, _ := filepath.Rel(root, p)
		if ok != (tt.want != "") || ok && rel != tt.want {
			t.Errorf("Find(%s) = %q %v, want %q", tt.name, rel, ok, tt.want)
		}
	}
}

func TestResolve(t *testing.T) {
	l, _ := registry(t)
	src := `(defsystem "app" :depends-on ("foo" "linked" "bar/api" "uiop" "sb-posix" "nope" (:require "sb-nothing")))`
	a := Parse("app.asd", []byte(src), reader.Options{})
	res := l.Resolve(a.System("app"), reader.Options{})
	var got []string
	for _, d := range res.Deps {
		var pkgs []string
		for _, p := range d.Packages {
			var exports []string
			for _, e := range p.Export {
				exports = append(exports, e.Name)
			}
			pkgs = append(pkgs, fmt.Sprintf("%s%v", p.Name, exports))
		}
		got = append(got, fmt.Sprintf("%s=%s%v", d.Name, d.Status, pkgs))
	}
	want := "foo=found[FOO[FROB] FOO-EXTRA[]] linked=found[LINKED[THING]] bar/api=found[BAR/API[CALL]] uiop=builtin[] sb-posix=builtin[] nope=missing[] sb-nothing=builtin[]"
	if strings.Join(got, " ") != want {
		t.Errorf("deps:\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	var warns []string
	for _, w := range res.Warnings {
		warns = append(warns, fmt.Sprintf("%s@%d: %s", w.System, w.Span.Start.Column, w.Message))
	}
	if len(warns) != 3 || !strings.Contains(warns[0], "foo@") || !strings.Contains(warns[0], "broken.lisp:2:1: unbalanced") ||
		!strings.Contains(warns[1], `system "nope" is not in the ASDF source registry`) || !strings.Contains(warns[2], "sb-nothing") {
		t.Errorf("warnings:\n%s", strings.Join(warns, "\n"))
	}
	if p, ok := res.Package("F"); !ok || p.Name != "FOO" {
		t.Errorf("Package(F) = %v %v, want FOO by nickname", p, ok)
	}
}

func TestBuiltin(t *testing.T) {
	for _, s := range []string{"uiop", "asdf", "sb-posix", "sb-introspect"} {
		if !Builtin(s) {
			t.Errorf("Builtin(%s) = false", s)
		}
	}
	if Builtin("alexandria") || BuiltinPackage("ALEXANDRIA") || !BuiltinPackage("UIOP/PATHNAME") || !BuiltinPackage("SB-EXT") {
		t.Error("builtin packages wrong")
	}
}

const alexandriaAsd = "/usr/share/common-lisp/source/alexandria/alexandria.asd"

// TestAlexandria finds Debian's cl-alexandria through the default registry and reads
// its exports.
func TestAlexandria(t *testing.T) {
	if _, err := os.Stat(alexandriaAsd); err != nil {
		t.Skip("cl-alexandria is not installed: apt-get install -y cl-alexandria")
	}
	l := NewLocator(DefaultRoots(Env{Home: t.TempDir(), Getenv: func(string) string { return "" }}))
	a := Parse("app.asd", []byte(`(defsystem :app :depends-on (:alexandria))`), reader.Options{})
	res := l.Resolve(a.System("app"), reader.Options{})
	if len(res.Warnings) > 0 || len(res.Deps) != 1 || res.Deps[0].ASD != alexandriaAsd {
		t.Fatalf("deps %+v warnings %v", res.Deps, res.Warnings)
	}
	p, ok := res.Package("ALEXANDRIA")
	if !ok {
		t.Fatal("no package ALEXANDRIA")
	}
	for _, s := range []string{"FLATTEN", "HASH-TABLE-KEYS", "CURRY", "WITH-GENSYMS"} {
		if !p.Exports(s) {
			t.Errorf("ALEXANDRIA does not export %s", s)
		}
	}
	if _, ok := res.Package("ALEXANDRIA-2"); !ok {
		t.Error("no package ALEXANDRIA-2 (alexandria-2/package.lisp)")
	}
}

// BenchmarkLoadAlexandria locates nothing: it parses alexandria.asd and reads and
// indexes every source file of the system.
func BenchmarkLoadAlexandria(b *testing.B) {
	if _, err := os.Stat(alexandriaAsd); err != nil {
		b.Skip("cl-alexandria is not installed: apt-get install -y cl-alexandria")
	}
	for b.Loop() {
		if _, w := LoadPackages(alexandriaAsd, "alexandria", reader.Options{}); len(w) > 0 {
			b.Fatal(w)
		}
	}
}
