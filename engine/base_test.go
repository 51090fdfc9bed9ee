package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

// errorsDim reports one finding per line of the head content of every file holding the
// word "err", with the text of the line as message: a stand-in for a type checker whose
// errors may land anywhere. runs counts its runs; fail makes its base-view runs fail.
func errorsDim(runs *atomic.Int32, fail bool) *check.Dimension {
	rule := &check.Rule{ID: "hallucination/fake", Default: policy.Error, Short: "fake", Doc: "fake"}
	return &check.Dimension{Name: policy.Hallucination, Doc: "fake", Rules: []*check.Rule{rule}, Run: func(p *check.Pass) ([]check.Finding, error) {
		runs.Add(1)
		if p.Focus != nil && fail {
			return nil, errors.New("base unavailable")
		}
		var out []check.Finding
		for _, f := range p.Changes.Files {
			if p.Focus != nil && !p.Focus[f.Path] {
				continue
			}
			for i, line := range strings.Split(string(f.Head), "\n") {
				if strings.Contains(line, "err") {
					out = append(out, check.Finding{Rule: rule.ID, Location: check.Location{File: f.Path, Line: i + 1}, Message: strings.TrimSpace(line), Symbol: "s"})
				}
			}
		}
		return out, nil
	}}
}

func settleRun(t *testing.T, dims []*check.Dimension, files ...*change.File) []check.Finding {
	t.Helper()
	pass := testPass(policy.Default(), files...)
	pass.Changes.BaseFS, pass.Changes.HeadFS = nil, nil
	out := Run(context.Background(), pass, dims, Options{})
	out = ConfirmAtBase(context.Background(), pass, dims, out, Options{}, nil)
	var kept []check.Finding
	for _, f := range out[0].Findings {
		if pass.Keep(f) {
			kept = append(kept, f)
		}
	}
	return kept
}

func TestConfirmAtBase(t *testing.T) {
	base := "a\nerr old\nb\nc\n"
	cases := []struct {
		name  string
		file  *change.File
		fail  bool
		want  []string // messages kept, with their lines
		reran bool
	}{
		{"clean change: no second run", change.NewFile("a.go", "a.go", []byte("a\nb\n"), []byte("a\nb\nc\n")), false, nil, false},
		{"pre-existing finding on an unchanged line, shifted", change.NewFile("a.go", "a.go", []byte(base), []byte("new\n"+base)), false, nil, true},
		{"new finding on a changed line: the base lacks it", change.NewFile("a.go", "a.go", []byte("a\n"), []byte("a\nerr new\n")), false, []string{"2 err new"}, true},
		{"new finding in a created file kept without a second run", change.NewFile("n.go", "", nil, []byte("a\nerr new\n")), false, []string{"2 err new"}, false},
		{"pre-existing finding on a line only re-indented", change.NewFile("a.go", "a.go", []byte(base), []byte("a\n\terr old\nb\nc\n")), false, nil, true},
		{"a copy of a pre-existing finding on an added line is new, the old one is not", change.NewFile("a.go", "a.go", []byte(base), []byte("err old\n"+base)), false, []string{"1 err old"}, true},
		{"pre-existing finding through a rename", change.NewFile("b.go", "a.go", []byte(base), []byte("x\n"+base)), false, nil, true},
		{"base run fails: kept", change.NewFile("a.go", "a.go", []byte(base), []byte("new\n"+base)), true, []string{"3 err old"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var runs atomic.Int32
			got := settleRun(t, []*check.Dimension{errorsDim(&runs, c.fail)}, c.file)
			var msgs []string
			for _, f := range got {
				msgs = append(msgs, fmt.Sprintf("%d %s", f.Location.Line, f.Message))
			}
			if fmt.Sprint(msgs) != fmt.Sprint(c.want) {
				t.Errorf("kept %q, want %q", msgs, c.want)
			}
			if reran := runs.Load() == 2; reran != c.reran {
				t.Errorf("ran %d times, want a base run: %v", runs.Load(), c.reran)
			}
		})
	}
}

// TestConfirmAtBaseUnchangedFile: a finding in a file the change did not touch is new
// when the base does not have it (a helper deleted in another file).
func TestConfirmAtBaseUnchangedFile(t *testing.T) {
	var runs atomic.Int32
	rule := "hallucination/fake"
	dim := &check.Dimension{Name: policy.Hallucination, Doc: "fake", Rules: []*check.Rule{{ID: rule, Default: policy.Error, Short: "f", Doc: "f"}},
		Run: func(p *check.Pass) ([]check.Finding, error) {
			runs.Add(1)
			if p.Changes.File("helper.go").Head != nil {
				return nil, nil // the helper exists: the caller compiles
			}
			return []check.Finding{{Rule: rule, Location: check.Location{File: "caller.go", Line: 4}, Message: "undefined: helper"}}, nil
		}}
	got := settleRun(t, []*check.Dimension{dim}, change.NewFile("helper.go", "helper.go", []byte("func helper()\n"), nil))
	if len(got) != 1 || got[0].Location.File != "caller.go" || !got[0].Introduced || runs.Load() != 2 {
		t.Fatalf("kept %+v after %d runs, want the caller's error, marked Introduced, after 2", got, runs.Load())
	}
}

// TestUnmatchedProperties: a finding the base also has is never new, wherever the lines
// moved; the number of new findings is what the head has beyond the base, per key.
func TestUnmatchedProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		msg := rapid.SampledFrom([]string{"undefined: x", "x declared and not used", "a.go:3:4: other declaration of x"})
		gen := func(label string) []check.Finding {
			return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) check.Finding {
				return check.Finding{
					Rule:     rapid.SampledFrom([]string{"r/a", "r/b"}).Draw(t, "rule"),
					Location: check.Location{File: rapid.SampledFrom([]string{"a.go", "b.go"}).Draw(t, "file"), Line: rapid.IntRange(1, 100).Draw(t, "line")},
					Message:  msg.Draw(t, "msg"),
				}
			}), 0, 12).Draw(t, label)
		}
		base := gen("base")
		// The head has every base finding, on other lines and in another order, plus some.
		head := append([]check.Finding(nil), base...)
		for i := range head {
			head[i].Location.Line += rapid.IntRange(0, 50).Draw(t, "shift")
			head[i].Message = strings.Replace(head[i].Message, "a.go:3:4", "a.go:9:1", 1)
		}
		extra := gen("extra")
		head = append(head, extra...)
		perm := rapid.Permutation(head).Draw(t, "order")
		isNew := Unmatched(perm, base, func(p string) string { return p })
		n := 0
		for _, b := range isNew {
			if b {
				n++
			}
		}
		if n != len(extra) {
			t.Fatalf("%d new findings, want %d (the extra ones)", n, len(extra))
		}
		// Keys of the new findings are exactly the extra findings' keys, as multisets.
		var got, want []string
		for i, f := range perm {
			if isNew[i] {
				got = append(got, fmt.Sprint(keyOf(f, f.Location.File)))
			}
		}
		for _, f := range extra {
			want = append(want, fmt.Sprint(keyOf(f, f.Location.File)))
		}
		sort.Strings(got)
		sort.Strings(want)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("new %v, want %v", got, want)
		}
	})
}
