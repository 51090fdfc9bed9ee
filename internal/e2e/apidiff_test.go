package e2e

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/internal/testkit/apidiffsuite"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
	"github.com/agentverify/agentverify/report"
)

// semantics lists the semantics violations as "rule file:line:col message | related".
func semantics(rep *report.Report) []string {
	var out []string
	for _, v := range rep.Violations {
		if v.Dimension != "semantics" {
			continue
		}
		s := fmt.Sprintf("%s %s:%d:%d %s", v.Rule, v.Location.File, v.Location.Line, v.Location.Column, v.Message)
		for _, r := range v.Related {
			s += fmt.Sprintf(" | %s:%d base=%v", r.Location.File, r.Location.Line, r.Base)
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// TestApidiffSuiteThroughDiff runs every case of golang.org/x/exp/apidiff's testdata
// through a whole working-tree diff of a real repository (the path of 'agentverify
// diff': change set, every dimension, the engine's filters): every incompatible change
// apidiff expects is a semantics violation, and there is no other.
func TestApidiffSuiteThroughDiff(t *testing.T) {
	shorttest.Slow(t, "type-checks apidiff's cases through diff; dimensions/semantic samples them in -short")
	found, total := 0, 0
	for _, c := range apidiffsuite.Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			r := testrepo.New(t, map[string]string{"go.mod": "module example.com/apidiff\n\ngo 1.22\n", "p/p.go": c.Old})
			r.Write(map[string]string{"p/p.go": c.New})
			rep, err := agentverify.Check(context.Background(), agentverify.Request{Dir: r.Dir})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range rep.Violations {
				if v.Dimension == "semantics" {
					got = append(got, v.Message)
				}
			}
			total += len(c.Incompatible)
			found += matchApidiff(t, c.Incompatible, got)
		})
	}
	t.Logf("through diff: %d of %d incompatible changes found", found, total)
}

// matchApidiff reports each expected apidiff message that no violation message carries,
// and each violation that carries none; it returns how many were found.
func matchApidiff(t *testing.T, want, got []string) (found int) {
	used := make([]bool, len(got))
	for _, w := range want {
		i := slices.IndexFunc(got, func(m string) bool { return strings.Contains(m, ": "+w+";") })
		if i < 0 || used[i] {
			t.Errorf("missed %q", w)
			continue
		}
		used[i] = true
		found++
	}
	for i, m := range got {
		if !used[i] {
			t.Errorf("false alarm: %s", m)
		}
	}
	return found
}
