package checktest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/policy"
)

// recorder collects the harness's complaints instead of failing the test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Error(args ...any) { r.errs = append(r.errs, fmt.Sprint(args...)) }

// fakeDim reports findings on both sides, as a check does for code the change did not touch.
func fakeDim(findings ...check.Finding) *check.Dimension {
	return &check.Dimension{Name: "style", Doc: "fake", Rules: []*check.Rule{{ID: "fake/rule", Default: policy.Error, Short: "s", Doc: "d"}},
		Run: func(*check.Pass) ([]check.Finding, error) { return findings, nil }}
}

// headDim reports findings only where a.go has the head's "var x", as a check does for
// code the change added: the base, which lacks that line, reports nothing.
func headDim(findings ...check.Finding) *check.Dimension {
	d := fakeDim(findings...)
	d.Run = func(p *check.Pass) ([]check.Finding, error) {
		if data, err := fs.ReadFile(p.Changes.HeadFS, "a.go"); err != nil || !strings.Contains(string(data), "var x") {
			return nil, nil
		}
		return findings, nil
	}
	return d
}

// TestHarnessCatchesMismatches: the harness accepts exactly the expected findings and
// complains about an unexpected finding, an unmet expectation and an undeclared rule.
func TestHarnessCatchesMismatches(t *testing.T) {
	c := Load(t, "testdata/case.txtar")
	good := []check.Finding{
		{Rule: "fake/rule", Location: check.Location{File: "a.go", Line: 3}, Message: "on line 3"},
		{Rule: "fake/rule", Location: check.Location{File: "notes.txt", Line: 1}, Message: "whole file", Introduced: true},
	}
	r := &recorder{TB: t}
	c.Check(r, fakeDim(), RunDimension(t, c, headDim(good...), nil))
	if len(r.errs) != 0 {
		t.Errorf("expected findings were refused: %v", r.errs)
	}

	c = Load(t, "testdata/case.txtar")
	bad := []check.Finding{
		{Rule: "fake/rule", Location: check.Location{File: "a.go", Line: 2}, Message: "on line 3", Introduced: true},
		{Rule: "other/rule", Location: check.Location{File: "notes.txt", Line: 1}, Message: "whole file", Introduced: true},
	}
	r = &recorder{TB: t}
	c.Check(r, fakeDim(), RunDimension(t, c, headDim(bad...), nil))
	all := strings.Join(r.errs, "\n")
	for _, want := range []string{"a.go:2:0: unexpected finding", "undeclared rule \"other/rule\"", "a.go:3: no finding matched", "notes.txt:1: no finding matched"} {
		if !strings.Contains(all, want) {
			t.Errorf("harness did not complain %q; it said:\n%s", want, all)
		}
	}
}

// TestDiffFilterApplied: a finding on an unchanged line is dropped before the comparison.
func TestDiffFilterApplied(t *testing.T) {
	c := Load(t, "testdata/case.txtar")
	got := RunDimension(t, c, fakeDim(check.Finding{Rule: "fake/rule", Location: check.Location{File: "a.go", Line: 1}, Message: "old"}), nil)
	if len(got) != 0 {
		t.Errorf("finding on an unchanged line kept: %+v", got)
	}
}

// stopper records the harness's fatal errors and skips instead of ending the test: it
// ends only the goroutine that loads the case (run).
type stopper struct {
	testing.TB
	fatal, skip string
}

func (s *stopper) Fatalf(format string, args ...any) {
	s.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (s *stopper) Skip(args ...any) {
	s.skip = fmt.Sprint(args...)
	runtime.Goexit()
}

func (s *stopper) Skipf(format string, args ...any) {
	s.skip = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// load loads the case archive text through s, returning the case unless Load stopped.
func (s *stopper) load(archive string) *Case {
	path := filepath.Join(s.TempDir(), "case.txtar")
	if err := os.WriteFile(path, []byte(archive), 0o644); err != nil {
		s.TB.Fatal(err)
	}
	done := make(chan *Case)
	go func() {
		var c *Case
		defer func() { done <- c }()
		c = Load(s, path)
	}()
	return <-done
}

// TestPublishedDirective: "published:" dates the proxy module it names, and a directive
// that names no proxy/ module (a typo, which would leave the module dated 2020) or no
// duration stops the case.
func TestPublishedDirective(t *testing.T) {
	const files = "-- proxy/example.com/fresh@v0.1.0/fresh.go --\npackage fresh\n-- go.mod --\nmodule example.com/app\n"
	s := &stopper{TB: t}
	c := s.load("published: example.com/fresh@v0.1.0 48h\n" + files)
	if c == nil {
		t.Fatalf("case refused: %s", s.fatal)
	}
	if age := time.Since(c.proxy["example.com/fresh@v0.1.0"].Time); age < 47*time.Hour || age > 49*time.Hour {
		t.Errorf("module published %v ago, want 48h", age)
	}
	for _, bad := range []string{"published: example.com/frseh@v0.1.0 48h", "published: example.com/fresh@v0.1.0"} {
		s := &stopper{TB: t}
		if c := s.load(bad + "\n" + files); c != nil || !strings.Contains(s.fatal, "published") {
			t.Errorf("%q: loaded (%v), fatal %q; want the case stopped on its published directive", bad, c != nil, s.fatal)
		}
	}
}

// TestPythonModuleDirective: "python-module:" skips the case, saying what to install,
// exactly when the Python interpreter cannot import the module.
func TestPythonModuleDirective(t *testing.T) {
	if pyright.Interpreter(t.TempDir()) == "" {
		t.Skip("no python3 on PATH; install Python 3 (Debian: apt-get install python3)")
	}
	const files = "mode: check\n%s\n-- a.py --\nimport sys\n"
	s := &stopper{TB: t}
	if c := s.load(fmt.Sprintf(files, "python-module: sys")); c == nil {
		t.Errorf("python-module: sys stopped the case: skip %q, fatal %q", s.skip, s.fatal)
	}
	s = &stopper{TB: t}
	if c := s.load(fmt.Sprintf(files, "python-module: agentverify_no_such_module")); c != nil || !strings.Contains(s.skip, "cannot import agentverify_no_such_module; install it") {
		t.Errorf("python-module of a missing module: loaded (%v), skip %q; want a skip naming it", c != nil, s.skip)
	}
}
