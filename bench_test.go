package agentverify_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
	"github.com/agentverify/agentverify/policy"
	"github.com/agentverify/agentverify/report"
)

// oneFileChange returns a repository of a generated 150-package module (about 150,000
// lines) with one file changed in the working tree.
func oneFileChange(b *testing.B) string {
	r := testrepo.New(b, testrepo.Module(150, 1000))
	r.Write(map[string]string{"p75/extra.go": "package p75\n\n// Extra is new.\nfunc Extra() string { return F1(\"x\") }\n"})
	return r.Dir
}

func benchmarkDiff(b *testing.B, pol *policy.Policy) {
	dir := oneFileChange(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		// A fresh Checker each time: nothing is warm but the Go build cache, as in a
		// cold 'agentverify diff' process.
		rep, err := (&agentverify.Checker{}).Check(ctx, agentverify.Request{Dir: dir, Policy: pol})
		if err != nil || rep.Status != report.Passed || len(rep.Files) != 1 {
			var msgs []string
			for _, v := range rep.Violations {
				msgs = append(msgs, v.Rule+" "+v.Message)
			}
			b.Fatalf("%v status %s: %s", err, rep.Status, strings.Join(msgs, "; "))
		}
	}
}

// BenchmarkDiffOneFileChangeFast is 'agentverify diff' with scope, style and complexity on
// a one-file change in a 150k-line repository.
func BenchmarkDiffOneFileChangeFast(b *testing.B) {
	pol := policy.Default()
	pol.Hallucination, pol.Semantics = nil, nil
	benchmarkDiff(b, pol)
}

// BenchmarkDiffOneFileChangeAll is the same with all five dimensions.
func BenchmarkDiffOneFileChangeAll(b *testing.B) {
	benchmarkDiff(b, policy.Default())
}

// BenchmarkDiffBreakOnUnchangedLine is 'agentverify diff' on a one-file change in the same
// repository that breaks lines it did not touch (F1 of p75 now returns an int, so its
// unchanged return statements no longer compile): the hallucination dimension runs again
// over the base of p75 to tell new errors from pre-existing ones. Compare with
// BenchmarkDiffOneFileChangeAll, where nothing needs settling.
func BenchmarkDiffBreakOnUnchangedLine(b *testing.B) {
	files := testrepo.Module(150, 1000)
	r := testrepo.New(b, files)
	r.Write(map[string]string{"p75/p.go": strings.Replace(files["p75/p.go"], "func F1(s string) string {", "func F1(s string) int {", 1)})
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		rep, err := (&agentverify.Checker{}).Check(ctx, agentverify.Request{Dir: r.Dir})
		if err != nil || rep.Status != report.Failed {
			b.Fatalf("%v: want failed", err)
		}
		for _, v := range rep.Violations {
			if v.Rule == "hallucination/type-error" && v.Location.File == "p75/p.go" {
				continue
			}
			if v.Rule == "hallucination/wrong-signature" || v.Dimension == "semantics" {
				continue
			}
			b.Fatalf("unexpected %s at %s:%d: %s", v.Rule, v.Location.File, v.Location.Line, v.Message)
		}
	}
}
