package semantic

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"

	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lang/python"
	"github.com/agentverify/agentverify/lang/typescript"
)

func TestDimension(t *testing.T) {
	checktest.Run(t, "testdata", Dimension, lang.Registry{golang.New(), python.New(), commonlisp.New(), typescript.New()}, checktest.ShortSample(4))
}

// apiFile renders a Go file declaring one exported function per name with the given
// parameter type.
func apiFile(funcs map[string]string) []byte {
	var b strings.Builder
	b.WriteString("package api\n")
	names := make([]string, 0, len(funcs))
	for n := range funcs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "\n// %s is part of the API.\nfunc %s(x %s) {}\n", n, n, funcs[n])
	}
	return []byte(b.String())
}

// emptyModule makes the base and head trees of a module example.com/m with a directory
// api on each side.
func emptyModule(t *testing.T) string {
	root := t.TempDir()
	for _, side := range []string{"base", "head"} {
		if err := os.MkdirAll(filepath.Join(root, side, "api"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, side, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// mutate draws the head of each function of base (kept, removed or given another
// parameter type) and the rule each change must be reported under.
func mutate(t *rapid.T, base map[string]string, types []string) (head, want map[string]string) {
	head, want = map[string]string{}, map[string]string{}
	for n, typ := range base {
		switch rapid.IntRange(0, 2).Draw(t, "mutation "+n) {
		case 0:
			head[n] = typ
		case 1:
			want[n] = "semantics/removed-export"
		case 2:
			other := rapid.SampledFrom(types).Draw(t, "new type "+n)
			head[n] = other
			if other != typ {
				want[n] = "semantics/incompatible-change"
			}
		}
	}
	return head, want
}

// TestP13P14P15APIChanges: over random APIs and random mutations, every removed export is
// reported as removed-export (P13), every changed signature as incompatible-change (P14),
// and additions are never reported (P15). The cases share one module on disk and one
// loader, as edits in a long-lived process do.
func TestP13P14P15APIChanges(t *testing.T) {
	types := []string{"int", "string", "bool", "[]byte"}
	root := emptyModule(t)
	warm := lang.Registry{golang.NewWarm(load.New(load.Options{}))}
	rapid.Check(t, func(t *rapid.T) {
		base := map[string]string{}
		for i := rapid.IntRange(0, 6).Draw(t, "n"); i > 0; i-- {
			base[fmt.Sprintf("F%d", rapid.IntRange(0, 9).Draw(t, "name"))] = rapid.SampledFrom(types).Draw(t, "type")
		}
		head, want := mutate(t, base, types)
		for i := rapid.IntRange(0, 3).Draw(t, "added"); i > 0; i-- {
			n := fmt.Sprintf("G%d", i)
			head[n] = rapid.SampledFrom(types).Draw(t, "added type")
		}
		baseSrc, headSrc := apiFile(base), apiFile(head)
		os.WriteFile(filepath.Join(root, "base", "api", "api.go"), baseSrc, 0o644)
		os.WriteFile(filepath.Join(root, "head", "api", "api.go"), headSrc, 0o644)
		set := &change.Set{
			Root: filepath.Join(root, "head"), BaseFS: os.DirFS(filepath.Join(root, "base")), HeadFS: os.DirFS(filepath.Join(root, "head")),
			Files: []*change.File{change.NewFile("api/api.go", "api/api.go", baseSrc, headSrc)},
		}
		pass := &check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Languages: warm, Files: check.NewFiles(warm)}
		fs, err := Dimension.Run(pass)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range fs {
			if f.Rule == removedExport.ID || f.Rule == incompatibleChange.ID {
				got[f.Symbol] = f.Rule
			}
		}
		if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("base %v head %v: got %v, want %v", base, head, got, want)
		}
	})
}

// TestPythonCases runs the Python cases, which need pyright for the resolver's type
// mismatches (skipping, with install advice, where it is not installed). Each case
// starts pyright: -short runs the one docs/guarantees.md binds (py_api), the full suite
// all of them.
func TestPythonCases(t *testing.T) {
	pyrighttest.Require(t)
	checktest.Run(t, "testdata/python", Dimension, lang.Registry{python.New()}, checktest.ShortSample(3))
}

// TestRemovedTestInRenamedFile: a test removed from a file the change also renames is
// reported in the file under its head name (where the test was, or at its package clause),
// never at the base name the head no longer has; the base place is the related one.
func TestRemovedTestInRenamedFile(t *testing.T) {
	langs := lang.Registry{golang.New(), commonlisp.New()}
	cases := []struct {
		from, to, base, head string
		want                 check.Location
	}{
		{"t/old.lisp", "t/new.lisp",
			"(defpackage :p (:use :cl :fiveam))\n(in-package :p)\n\n(test a\n  (is t))\n\n(test b\n  (is t))\n",
			"(defpackage :p (:use :cl :fiveam))\n(in-package :p)\n\n(test a\n  (is t))\n",
			check.Location{File: "t/new.lisp", Line: 5}},
		{"calc/old_test.go", "calc/new_test.go",
			"package calc\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {}\n",
			"// Package calc calculates.\npackage calc\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
			check.Location{File: "calc/new_test.go", Line: 2, Column: 9}},
	}
	for _, c := range cases {
		set := &change.Set{Files: []*change.File{change.NewFile(c.to, c.from, []byte(c.base), []byte(c.head))}}
		pass := &check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Languages: langs, Files: check.NewFiles(langs)}
		fs, err := testFindings(pass)
		if err != nil || len(fs) != 1 {
			t.Fatalf("%s: %+v, %v; want one removed test", c.to, fs, err)
		}
		if fs[0].Location != c.want || fs[0].Related[0].Location.File != c.from || !fs[0].Related[0].Base {
			t.Errorf("%s: removed test at %+v, related %+v; want at %+v, related at the base in %s", c.to, fs[0].Location, fs[0].Related, c.want, c.from)
		}
	}
}

// TestTestMovedWithItsFile: a test whose file the change moves to another package (a
// package cut by stage) is not removed; one the moved file no longer has is, and so is
// every test of a file moved under testdata/, where the go command runs none.
func TestTestMovedWithItsFile(t *testing.T) {
	langs := lang.Registry{golang.New()}
	const base = "package calc\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {}\n"
	for _, c := range []struct {
		to, head string
		want     []string
	}{
		{"calc/add/add_test.go", "package add\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {}\n", nil},
		{"calc/add/add_test.go", "package add\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n", []string{"TestB"}},
		{"calc/testdata/add_test.go", base, []string{"TestA", "TestB"}},
		{"vendor/calc/add_test.go", base, []string{"TestA", "TestB"}},
	} {
		set := &change.Set{Files: []*change.File{change.NewFile(c.to, "calc/calc_test.go", []byte(base), []byte(c.head))}}
		if got := removedTestNames(t, set, langs); !slices.Equal(got, c.want) {
			t.Errorf("%s: removed %v, want %v", c.to, got, c.want)
		}
	}
}

// TestTestMovedIntoNestedModule: moving a test file into a nested Go module (a new
// go.mod beside it) removes its tests from the run of the module it was in: `go test
// ./...` there skips the nested module. Moving it within the module does not.
func TestTestMovedIntoNestedModule(t *testing.T) {
	langs := lang.Registry{golang.New()}
	const src = "package calc\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n"
	mod := &fstest.MapFile{Data: []byte("module example.com/m\n\ngo 1.22\n")}
	for _, c := range []struct {
		head fstest.MapFS
		want []string
	}{
		{fstest.MapFS{"go.mod": mod, "calc/add/add_test.go": {Data: []byte(src)}}, nil},
		{fstest.MapFS{"go.mod": mod, "calc/add/go.mod": mod, "calc/add/add_test.go": {Data: []byte(src)}}, []string{"TestA"}},
	} {
		set := &change.Set{
			Files:  []*change.File{change.NewFile("calc/add/add_test.go", "calc/calc_test.go", []byte(src), []byte(src))},
			BaseFS: fstest.MapFS{"go.mod": mod, "calc/calc_test.go": {Data: []byte(src)}}, HeadFS: c.head,
		}
		if got := removedTestNames(t, set, langs); !slices.Equal(got, c.want) {
			t.Errorf("nested go.mod %v: removed %v, want %v", c.head["calc/add/go.mod"] != nil, got, c.want)
		}
	}
}

// removedTestNames returns the tests semantics/removed-test reports for set.
func removedTestNames(t *testing.T, set *change.Set, langs lang.Registry) []string {
	t.Helper()
	pass := &check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Languages: langs, Files: check.NewFiles(langs)}
	fs, err := testFindings(pass)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		got = append(got, f.Symbol)
	}
	return got
}
