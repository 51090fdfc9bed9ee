package checktest

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/check"
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
