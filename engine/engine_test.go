package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/policy"
	"github.com/agentverify/agentverify/report"
)

// behaviour is how a fake dimension ends.
type behaviour int

const (
	ok behaviour = iota
	fails
	panics
	hangs
	panicsInGoroutine
)

// fakeDim returns a dimension that reports n findings on a.go and then behaves as b.
func fakeDim(name string, n int, b behaviour) *check.Dimension {
	rule := &check.Rule{ID: name + "/fake", Default: policy.Error, Short: "fake", Doc: "fake"}
	return &check.Dimension{Name: name, Doc: "fake", Rules: []*check.Rule{rule}, Run: func(p *check.Pass) ([]check.Finding, error) {
		var fs []check.Finding
		for i := 0; i < n; i++ {
			fs = append(fs, check.Finding{Rule: rule.ID, Location: check.Location{File: "a.go", Line: i + 1}, Message: fmt.Sprintf("finding %d", i), Introduced: true})
		}
		switch b {
		case fails:
			return fs, errors.New("boom")
		case panics:
			var m map[string]int
			m["x"]++ // a real runtime panic, not a call to panic
		case hangs:
			time.Sleep(time.Hour)
		case panicsInGoroutine:
			return fs, workers()
		}
		return fs, nil
	}}
}

// workers is a dimension's parallel part: goroutines it starts under a crash.Group (as
// every goroutine of the project must), one of which panics. A crash.Group's caller with
// an error to return returns it.
func workers() error {
	var g crash.Group
	for i := range 3 {
		g.Go(func() {
			if i == 1 {
				var m map[int]int
				m[i]++
			}
		})
	}
	return g.Wait()
}

func testPass(pol *policy.Policy, files ...*change.File) *check.Pass {
	if len(files) == 0 {
		files = []*change.File{change.NewFile("a.go", "", nil, []byte(strings.Repeat("x\n", 50)))}
	}
	set := &change.Set{Files: files}
	set.Sort()
	langs := lang.Registry{golang.New()}
	return &check.Pass{Context: context.Background(), Changes: set, Policy: pol, PolicyPath: policy.DefaultFile, Languages: langs, Files: check.NewFiles(langs)}
}

func rulesOf(dims []*check.Dimension) map[string]*check.Rule {
	m := map[string]*check.Rule{}
	for _, d := range dims {
		for _, r := range d.Rules {
			m[r.ID] = r
		}
	}
	return m
}

// TestP1DimensionsAreIndependent: whatever one dimension does (fail, panic, hang, panic in
// a goroutine it started), every other dimension's findings are reported, and the failing
// one is an internal error that makes the run unverified (status error, exit 2).
func TestP1DimensionsAreIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var dims []*check.Dimension
		want := map[string]int{}
		bad := map[string]bool{}
		for _, name := range policy.Dimensions {
			n := rapid.IntRange(0, 4).Draw(t, name+"-findings")
			b := behaviour(rapid.IntRange(0, 4).Draw(t, name+"-behaviour"))
			dims = append(dims, fakeDim(name, n, b))
			if b == ok {
				want[name] = n
			} else {
				bad[name] = true
			}
		}
		pass := testPass(policy.Default())
		out := Run(context.Background(), pass, dims, Options{Timeout: 50 * time.Millisecond})
		vs, results := Process(pass, out, rulesOf(dims))
		got := map[string]int{}
		internal := map[string]bool{}
		for _, v := range vs {
			if strings.HasSuffix(v.Rule, "/internal-error") {
				internal[v.Dimension] = true
				if v.Severity != policy.Error {
					t.Fatalf("internal error with severity %s", v.Severity)
				}
				continue
			}
			got[v.Dimension]++
		}
		for name, n := range want {
			if got[name] != n {
				t.Fatalf("dimension %s: %d findings reported, want %d", name, got[name], n)
			}
		}
		if !reflect.DeepEqual(internal, bad) && !(len(internal) == 0 && len(bad) == 0) {
			t.Fatalf("internal errors for %v, want %v", internal, bad)
		}
		for _, r := range results {
			if bad[r.Dimension] != (r.Status == report.Errored) {
				t.Fatalf("failing dimension %s has status %s", r.Dimension, r.Status)
			}
		}
	})
}

// TestPanicMessageNamesSite: a panic, in the dimension's goroutine or in one it started,
// is one line naming the first frame of ours, repository-relative.
func TestPanicMessageNamesSite(t *testing.T) {
	for b, site := range map[behaviour]string{
		panics:            `^panicked: assignment to entry in nil map at engine\.(\w+\.)?fakeDim\.func1 \(engine/engine_test\.go:\d+\)$`,
		panicsInGoroutine: `^panicked: assignment to entry in nil map at engine\.(\w+\.)?workers\.func1 \(engine/engine_test\.go:\d+\)$`,
	} {
		pass := testPass(policy.Default())
		out := Run(context.Background(), pass, []*check.Dimension{fakeDim("style", 0, b)}, Options{})
		if out[0].Err == nil || !regexp.MustCompile(site).MatchString(out[0].Err.Error()) {
			t.Errorf("panic error = %v, want %s", out[0].Err, site)
		}
	}
}

// TestG5InternalErrorFailsClosed: no policy can turn a dimension's failure into a pass.
func TestG5InternalErrorFailsClosed(t *testing.T) {
	pol := policy.Default()
	pol.Rules = []policy.RuleSeverity{{Pattern: "*/internal-error", Severity: policy.Off}, {Pattern: "**", Severity: policy.Off}}
	dims := []*check.Dimension{fakeDim("style", 0, fails)}
	pass := testPass(pol)
	vs, results := Process(pass, Run(context.Background(), pass, dims, Options{}), rulesOf(dims))
	if len(vs) != 1 || vs[0].Rule != "style/internal-error" || vs[0].Severity != policy.Error || results[0].Status != report.Errored {
		t.Errorf("got %+v %+v, want one style/internal-error error and status error", vs, results)
	}
}

func TestSkippedDimensionNotRun(t *testing.T) {
	pol := policy.Default()
	pol.Style = nil
	ran := false
	d := &check.Dimension{Name: "style", Run: func(*check.Pass) ([]check.Finding, error) { ran = true; return nil, nil }}
	out := Run(context.Background(), testPass(pol), []*check.Dimension{d}, Options{})
	if ran || !out[0].Skipped {
		t.Errorf("skipped dimension ran=%v skipped=%v", ran, out[0].Skipped)
	}
}

// TestG1DiffModeReportsOnlyIntroduced: in diff mode a finding survives iff it is on a
// changed line of a file of the change or its dimension marked it introduced.
func TestG1DiffModeReportsOnlyIntroduced(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 30).Draw(t, "lines")
		var base, head []string
		for i := 0; i < n; i++ {
			line := fmt.Sprintf("line %d", i)
			base = append(base, line)
			if rapid.Bool().Draw(t, "changed") {
				line += " changed"
			}
			head = append(head, line)
		}
		f := change.NewFile("a.go", "a.go", []byte(strings.Join(base, "\n")+"\n"), []byte(strings.Join(head, "\n")+"\n"))
		pass := testPass(policy.Default(), f)
		line := rapid.IntRange(1, n).Draw(t, "finding line")
		introduced := rapid.Bool().Draw(t, "introduced")
		fd := check.Finding{Rule: "style/fake", Location: check.Location{File: "a.go", Line: line}, Message: "m", Introduced: introduced}
		dim := &check.Dimension{Name: "style", Rules: []*check.Rule{{ID: "style/fake", Default: policy.Warning}}, Run: func(*check.Pass) ([]check.Finding, error) { return []check.Finding{fd}, nil }}
		vs, _ := Process(pass, Run(context.Background(), pass, []*check.Dimension{dim}, Options{}), rulesOf([]*check.Dimension{dim}))
		want := introduced || head[line-1] != base[line-1]
		if (len(vs) == 1) != want {
			t.Fatalf("line %d (changed %v, introduced %v): reported %v", line, head[line-1] != base[line-1], introduced, len(vs) == 1)
		}
		// Check mode reports everything.
		pass.Mode = check.Check
		if vs, _ := Process(pass, Run(context.Background(), pass, []*check.Dimension{dim}, Options{}), rulesOf([]*check.Dimension{dim})); len(vs) != 1 {
			t.Fatalf("check mode dropped a finding")
		}
	})
}

func TestSuppressions(t *testing.T) {
	src := "package a\n" +
		"//agentverify:ignore style/naming generated by protoc, names are fixed\n" +
		"var a_b = 1\n" +
		"var c_d = 1 //agentverify:ignore style/* legacy name kept for compatibility\n" +
		"var e_f = 1 //agentverify:ignore style/naming\n" +
		"var g_h = 1 // agentverify:ignore complexity/cyclomatic wrong rule\n"
	lf, err := golang.New().Parse("a.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := Suppressions(lf)
	for i := range got {
		got[i].key = ""
	}
	want := []Suppression{
		{Rule: "style/naming", Reason: "generated by protoc, names are fixed", Line: 2, Target: 3},
		{Rule: "style/*", Reason: "legacy name kept for compatibility", Line: 4, Target: 4},
		{Rule: "style/naming", Line: 5, Target: 5},
		{Rule: "complexity/cyclomatic", Reason: "wrong rule", Line: 6, Target: 6},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Suppressions =\n%+v\nwant\n%+v", got, want)
	}
}

// TestG2SuppressionNeedsReasonAndNeverSilencesScope: a suppression silences a matching
// finding on its target line only when it gives a reason, and never a scope finding or an
// internal error.
func TestG2SuppressionNeedsReasonAndNeverSilencesScope(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dim := rapid.SampledFrom([]string{"style", "scope", "complexity"}).Draw(t, "dim")
		reason := rapid.SampledFrom([]string{"", "because the generator names it so"}).Draw(t, "reason")
		own := rapid.Bool().Draw(t, "own line")
		rule := dim + "/fake"
		comment := "//agentverify:ignore " + rapid.SampledFrom([]string{rule, dim + "/*", "other/rule"}).Draw(t, "pattern") + " " + reason
		var src string
		if own {
			src = "package a\n" + comment + "\nvar x = 1\n"
		} else {
			src = "package a\n\nvar x = 1 " + comment + "\n"
		}
		f := change.NewFile("a.go", "", nil, []byte(src))
		pol := policy.Default()
		pol.Suppressions.AllowNew = true // this property is about what a suppression may cover
		pass := testPass(pol, f)
		d := fakeDim(dim, 0, ok)
		d.Run = func(*check.Pass) ([]check.Finding, error) {
			return []check.Finding{{Rule: rule, Location: check.Location{File: "a.go", Line: 3}, Message: "m", Introduced: true}}, nil
		}
		vs, _ := Process(pass, Run(context.Background(), pass, []*check.Dimension{d}, Options{}), rulesOf([]*check.Dimension{d}))
		matches := !strings.Contains(comment, "other/rule")
		wantSuppressed := reason != "" && dim != "scope" && matches
		if (len(vs) == 0) != wantSuppressed {
			t.Fatalf("comment %q on own line %v: suppressed %v, want %v", comment, own, len(vs) == 0, wantSuppressed)
		}
	})
}

// TestG3ProcessIsDeterministic: the violations do not depend on the order in which
// dimensions or findings arrive.
func TestG3ProcessIsDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var findings []check.Finding
		for i := rapid.IntRange(0, 20).Draw(t, "n"); i > 0; i-- {
			findings = append(findings, check.Finding{
				Rule:       rapid.SampledFrom([]string{"style/a", "style/b"}).Draw(t, "rule"),
				Location:   check.Location{File: rapid.SampledFrom([]string{"a.go", "b.go"}).Draw(t, "file"), Line: rapid.IntRange(1, 5).Draw(t, "line"), Column: rapid.IntRange(0, 3).Draw(t, "col")},
				Message:    rapid.SampledFrom([]string{"x", "y"}).Draw(t, "msg"),
				Introduced: true,
			})
		}
		rules := map[string]*check.Rule{"style/a": {ID: "style/a", Default: policy.Error}, "style/b": {ID: "style/b", Default: policy.Warning}}
		pass := testPass(policy.Default())
		first, _ := Process(pass, []Outcome{{Dimension: "style", Findings: append([]check.Finding(nil), findings...)}}, rules)
		rand.New(rand.NewSource(int64(len(findings)))).Shuffle(len(findings), func(i, j int) { findings[i], findings[j] = findings[j], findings[i] })
		second, _ := Process(pass, []Outcome{{Dimension: "style", Findings: findings}}, rules)
		if !reflect.DeepEqual(first, second) {
			t.Fatalf("order changed the result:\n%v\n%v", first, second)
		}
		for i := 1; i < len(first); i++ {
			if first[i-1].Location == first[i].Location && first[i-1].Rule == first[i].Rule && first[i-1].Message == first[i].Message {
				t.Fatalf("duplicate violation %+v", first[i])
			}
		}
	})
}

// TestG4SeverityFromPolicy: each finding gets the severity the policy gives its rule; off drops it.
func TestG4SeverityFromPolicy(t *testing.T) {
	pol := policy.Default()
	pol.Rules = []policy.RuleSeverity{{Pattern: "style/a", Severity: policy.Off}}
	rules := map[string]*check.Rule{"style/a": {ID: "style/a", Default: policy.Warning}, "style/b": {ID: "style/b", Default: policy.Warning}}
	fs := []check.Finding{
		{Rule: "style/a", Location: check.Location{File: "a.go", Line: 1}, Introduced: true},
		{Rule: "style/b", Location: check.Location{File: "a.go", Line: 2}, Introduced: true},
	}
	vs, res := Process(testPass(pol), []Outcome{{Dimension: "style", Findings: fs}}, rules)
	if len(vs) != 1 || vs[0].Rule != "style/b" || vs[0].Severity != policy.Warning || res[0].Status != report.Warnings || res[0].Warnings != 1 {
		t.Errorf("got %+v %+v", vs, res)
	}
}

// TestMessagesAreRepositoryRelative: a message naming the repository, a file in it, the
// module cache or the temporary directory by absolute path names them relative to the
// root or by their variable, on every machine the same (issue #23).
func TestMessagesAreRepositoryRelative(t *testing.T) {
	root := t.TempDir()
	modcache := filepath.Join(t.TempDir(), "modcache")
	t.Setenv("GOMODCACHE", modcache)
	msg := fmt.Sprintf("found packages m (a.go) and n (b.go) in %s; also %s/pkg/c.go, %s/golang.org/x/text@v0.1.0/x.go, %s/other",
		root, root, modcache, os.TempDir())
	d := &check.Dimension{Name: "hallucination", Rules: []*check.Rule{{ID: "hallucination/x", Default: policy.Error}}, Run: func(*check.Pass) ([]check.Finding, error) {
		return []check.Finding{{Rule: "hallucination/x", Location: check.Location{File: "a.go", Line: 1}, Message: msg, Introduced: true,
			Related: []check.Related{{Location: check.Location{File: "pkg/c.go", Line: 1}, Message: "see " + root + "/pkg/c.go"}}}}, nil
	}}
	pass := testPass(policy.Default())
	pass.Changes.Root = root
	vs, _ := Process(pass, Run(context.Background(), pass, []*check.Dimension{d}, Options{}), rulesOf([]*check.Dimension{d}))
	want := "found packages m (a.go) and n (b.go) in .; also pkg/c.go, $GOMODCACHE/golang.org/x/text@v0.1.0/x.go, $TMPDIR/other"
	if len(vs) != 1 || vs[0].Message != want || vs[0].Related[0].Message != "see pkg/c.go" {
		t.Fatalf("got %+v\nwant message %q", vs, want)
	}
}

// TestP20ViolationsAreTraceable: every violation names its file, its dimension (the one
// that reported it) and a message, and its rule belongs to that dimension.
func TestP20ViolationsAreTraceable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var outcomes []Outcome
		rules := map[string]*check.Rule{}
		for _, dim := range policy.Dimensions {
			rule := dim + "/x"
			rules[rule] = &check.Rule{ID: rule, Default: rapid.SampledFrom([]policy.Severity{policy.Error, policy.Warning}).Draw(t, rule)}
			o := Outcome{Dimension: dim}
			for i := rapid.IntRange(0, 3).Draw(t, dim+"-n"); i > 0; i-- {
				o.Findings = append(o.Findings, check.Finding{Rule: rule, Introduced: true,
					Location: check.Location{File: rapid.SampledFrom([]string{"a.go", "b.go"}).Draw(t, "file"), Line: rapid.IntRange(1, 9).Draw(t, "line")},
					Message:  rapid.StringMatching(`[a-z]{1,8}`).Draw(t, "msg")})
			}
			outcomes = append(outcomes, o)
		}
		vs, _ := Process(testPass(policy.Default()), outcomes, rules)
		for _, v := range vs {
			if v.Location.File == "" || v.Dimension == "" || v.Message == "" || !strings.HasPrefix(v.Rule, v.Dimension+"/") {
				t.Fatalf("untraceable violation %+v", v)
			}
		}
	})
}

// TestP22StatusIsWorstDimensionStatus: the run's status is the worst of its dimensions'
// statuses (error > failed > warnings > passed).
func TestP22StatusIsWorstDimensionStatus(t *testing.T) {
	rank := map[report.Status]int{report.Passed: 0, report.Warnings: 1, report.Failed: 2, report.Errored: 3}
	rapid.Check(t, func(t *rapid.T) {
		var outcomes []Outcome
		rules := map[string]*check.Rule{}
		for _, dim := range policy.Dimensions {
			o := Outcome{Dimension: dim}
			for i := rapid.IntRange(0, 3).Draw(t, dim+"-n"); i > 0; i-- {
				rule := dim + "/" + rapid.SampledFrom([]string{"e", "w"}).Draw(t, "rule")
				rules[dim+"/e"] = &check.Rule{ID: dim + "/e", Default: policy.Error}
				rules[dim+"/w"] = &check.Rule{ID: dim + "/w", Default: policy.Warning}
				o.Findings = append(o.Findings, check.Finding{Rule: rule, Introduced: true, Message: "m",
					Location: check.Location{File: "a.go", Line: rapid.IntRange(1, 9).Draw(t, "line")}})
			}
			if rapid.IntRange(0, 5).Draw(t, dim+"-fails") == 0 {
				o.Err = errors.New("boom")
			}
			outcomes = append(outcomes, o)
		}
		vs, results := Process(testPass(policy.Default()), outcomes, rules)
		worst := report.Passed
		for _, r := range results {
			if rank[r.Status] > rank[worst] {
				worst = r.Status
			}
		}
		if got := report.StatusOf(vs); got != worst {
			t.Fatalf("status %s, worst dimension status %s (%+v)", got, worst, results)
		}
	})
}
