package e2e

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// alexandriaSource is where Debian's cl-alexandria package installs the library.
const alexandriaSource = "/usr/share/common-lisp/source/alexandria"

// alexandriaFiles reads Debian's alexandria sources, skipping the test when they are not
// installed.
func alexandriaFiles(tb testing.TB) map[string]string {
	tb.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(alexandriaSource, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(alexandriaSource, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil || len(files) == 0 {
		tb.Skipf("alexandria sources not found in %s (%v): apt-get install cl-alexandria", alexandriaSource, err)
	}
	return files
}

// edit replaces old by new in file, failing when old is not there exactly once.
func edit(tb testing.TB, files map[string]string, file, old, new string) {
	tb.Helper()
	if strings.Count(files[file], old) != 1 {
		tb.Fatalf("%s: %q is not there exactly once", file, old)
	}
	files[file] = strings.Replace(files[file], old, new, 1)
}

// TestLispSemanticsOnAlexandria runs a whole working-tree diff over a real repository of
// Common Lisp, Debian's alexandria: nothing on the unchanged tree; then one change that
// removes an export (flatten), makes an &optional parameter of an exported function
// required (rotate) and deletes an RT test, and every one of them is reported, with the
// callers it breaks in the files the change did not touch.
func TestLispSemanticsOnAlexandria(t *testing.T) {
	files := alexandriaFiles(t)
	r := testrepo.New(t, files)
	rep, err := agentverify.Check(context.Background(), agentverify.Request{Dir: r.Dir, Source: agentverify.WorkingTree})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) != 0 {
		t.Fatalf("unchanged tree: %v", rep.Violations)
	}
	head := map[string]string{}
	edit(t, files, "alexandria-1/package.lisp", "   #:flatten\n", "")
	edit(t, files, "alexandria-1/sequences.lisp", "(defun rotate (sequence &optional (n 1))", "(defun rotate (sequence n)")
	edit(t, files, "alexandria-2/tests.lisp", "(deftest dim-in-bounds-p.0\n    (dim-in-bounds-p '(2 2) 0 1 1)\n  nil)\n", "")
	for _, f := range []string{"alexandria-1/package.lisp", "alexandria-1/sequences.lisp", "alexandria-2/tests.lisp"} {
		head[f] = files[f]
	}
	r.Write(head)
	rep, err = agentverify.Check(context.Background(), agentverify.Request{Dir: r.Dir, Source: agentverify.WorkingTree})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(semantics(rep), "\n")
	want := strings.Join([]string{
		"semantics/broken-dependent alexandria-1/tests.lisp:1139:11 package alexandria-tests is broken: (rotate …) passes 1 argument; the lambda list is now (sequence n) (exactly 2) (broken by the change to alexandria:rotate) | alexandria-1/sequences.lisp:62 base=false",
		"semantics/broken-dependent alexandria-1/tests.lisp:888:6 package alexandria-tests is broken: flatten is no longer exported by alexandria: it now names an undefined function (broken by the change to alexandria:flatten) | alexandria-1/package.lisp:1 base=false",
		"semantics/incompatible-change alexandria-1/sequences.lisp:62:8 package alexandria: rotate: lambda list changed from (sequence &optional n) to (sequence n): &optional n made required; callers outside the change break",
		"semantics/removed-export alexandria-1/package.lisp:1:1 package alexandria: flatten: removed from the :export of alexandria; callers outside the change break | alexandria-1/package.lisp:67 base=true",
		"semantics/removed-test alexandria-2/tests.lisp:11:0 test dim-in-bounds-p.0 was removed from alexandria-2 | alexandria-2/tests.lisp:11 base=true",
	}, "\n")
	if got != want {
		t.Errorf("semantics:\n%s\nwant\n%s", got, want)
	}
}

// TestLispCompatibleChangeOnAlexandria: a change that only adds to alexandria's API (a
// &key parameter, a new documented export) draws nothing from any dimension.
func TestLispCompatibleChangeOnAlexandria(t *testing.T) {
	files := alexandriaFiles(t)
	r := testrepo.New(t, files)
	edit(t, files, "alexandria-1/lists.lisp", "(defun flatten (tree)", "(defun flatten (tree &key depth)")
	edit(t, files, "alexandria-1/lists.lisp", "(defun flatten (tree &key depth)\n", "(defun flatten (tree &key depth)\n  (declare (ignore depth))\n")
	edit(t, files, "alexandria-1/package.lisp", "   #:flatten\n", "   #:flatten\n   #:flatten-once\n")
	files["alexandria-1/lists.lisp"] += "\n(defun flatten-once (tree)\n  \"Splices the lists of TREE into one.\"\n  (mappend (lambda (x) (if (listp x) x (list x))) tree))\n"
	r.Write(map[string]string{"alexandria-1/lists.lisp": files["alexandria-1/lists.lisp"], "alexandria-1/package.lisp": files["alexandria-1/package.lisp"]})
	rep, err := agentverify.Check(context.Background(), agentverify.Request{Dir: r.Dir, Source: agentverify.WorkingTree})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rep.Violations {
		t.Errorf("%s:%d %s %s", v.Location.File, v.Location.Line, v.Rule, v.Message)
	}
}

// BenchmarkLispDiffAlexandriaOneFile measures a whole working-tree diff (every dimension)
// of a one-file change to alexandria that makes an exported lambda list incompatible, so
// that the API comparison reads both sides of the repository and every caller.
func BenchmarkLispDiffAlexandriaOneFile(b *testing.B) {
	files := alexandriaFiles(b)
	r := testrepo.New(b, files)
	edit(b, files, "alexandria-1/sequences.lisp", "(defun rotate (sequence &optional (n 1))", "(defun rotate (sequence n)")
	r.WriteTB(b, map[string]string{"alexandria-1/sequences.lisp": files["alexandria-1/sequences.lisp"]})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := agentverify.Check(context.Background(), agentverify.Request{Dir: r.Dir, Source: agentverify.WorkingTree})
		if err != nil || len(semantics(rep)) != 2 {
			b.Fatalf("%v %v", semantics(rep), err)
		}
	}
}
