package commonlisp

import (
	"fmt"
	"strings"
	"testing"
)

const testsSample = `(in-package :shapes-tests)

(fiveam:test area
  (is (= 2 (area 1 2))))

(5am:def-test scaled (:suite s)
  (skip "later"))

(progn
  (rove:deftest rove-one
    (ok t)))

(parachute:define-test "with spaces"
  :skip (child)
  (true t))

#+(or) (test off
  (is nil))

#-sbcl (deftest elsewhere (ok t))

(defun helper (skip)
  (skip 1 2))

(test quoted
  (is (equal '(skip "data") (list 'skip))))

#+nil
(test off-above (is nil))

(deftest :keyword-is-no-name)
(test)
`

// TestTestsAndSkips: the test forms of FiveAM, rove, RT and parachute are Test decls
// named in lower case; skip calls in tests, parachute :skip and feature-excluded tests are
// skips at their positions; a skip call outside a test and quoted data are not.
func TestTestsAndSkips(t *testing.T) {
	f := parse(t, testsSample)
	var tests []string
	for _, d := range f.Decls {
		if d.Test {
			tests = append(tests, fmt.Sprintf("%s@%d:%d", d.Name, d.NamePos.Line, d.NamePos.Column))
		}
	}
	want := "area@3:14 scaled@6:15 rove-one@10:17 with spaces@13:24 quoted@25:7 off@17:1 elsewhere@20:1 off-above@28:1"
	if strings.Join(tests, " ") != want {
		t.Errorf("tests\n %s\nwant\n %s", strings.Join(tests, " "), want)
	}
	var skips []string
	for _, s := range f.Skips {
		skips = append(skips, fmt.Sprintf("%d:%d %s", s.Pos.Line, s.Pos.Column, s.Text))
	}
	wantSkips := []string{
		`7:3 (skip "later")`,
		`14:3 :skip (child)`,
		`17:1 #+(or) (test off …`,
		`20:1 #-sbcl (deftest elsewhere …`,
		`28:1 #+nil (test off-above …`,
	}
	if strings.Join(skips, "\n") != strings.Join(wantSkips, "\n") {
		t.Errorf("skips\n%s\nwant\n%s", strings.Join(skips, "\n"), strings.Join(wantSkips, "\n"))
	}
	for _, d := range f.Decls {
		if d.Name == "area" && (d.Metrics == nil || d.Metrics.Lines != 1) {
			t.Errorf("test area: metrics %+v, want one body line", d.Metrics)
		}
	}
}

// FuzzParse: the frontend never panics, and every declaration, identifier and skip is
// at a position inside the file.
func FuzzParse(f *testing.F) {
	f.Add(testsSample)
	f.Add(sample)
	f.Add("#+(or) (test")
	f.Add("(test (x")
	f.Fuzz(func(t *testing.T, src string) {
		lf, err := New().Parse("f.lisp", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		n := len(lf.Lines)
		for _, s := range lf.Skips {
			if s.Pos.Line < 1 || s.Pos.Line > n || s.Pos.Column < 1 {
				t.Fatalf("skip %+v outside the file's %d lines", s, n)
			}
		}
		for _, d := range lf.Decls {
			if d.NamePos.Line < 1 || d.NamePos.Line > n {
				t.Fatalf("decl %+v outside the file's %d lines", d, n)
			}
		}
	})
}
