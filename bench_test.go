package agentverify_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/change/editset"
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

// BenchmarkDiffSettlesPreexistingError is BenchmarkDiffOneFileChangeAll's change in a
// repository whose p75 already has a compile error on a line the change does not touch:
// the hallucination dimension runs again over the base of p75 (the warm path of the same
// loader) to find that the error is not new, and the change passes. The difference
// between the two is the cost of verifying the base.
func BenchmarkDiffSettlesPreexistingError(b *testing.B) {
	files := testrepo.Module(150, 1000)
	files["p75/broken.go"] = "package p75\n\nvar _ int = \"not an int\"\n"
	r := testrepo.New(b, files)
	r.Write(map[string]string{"p75/extra.go": "package p75\n\n// Extra is new.\nfunc Extra() string { return F1(\"x\") }\n"})
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		rep, err := (&agentverify.Checker{}).Check(ctx, agentverify.Request{Dir: r.Dir})
		if err != nil || rep.Status != report.Passed {
			b.Fatalf("%v: status %v, want passed", err, rep.Status)
		}
	}
}

// BenchmarkWarmEdit is one proposed edit through a long-lived Checker, as the shared
// server answers a hook: the edited package and its test variant re-checked warm, go vet's
// analyzers once over the test variant, the other dimensions beside them.
func BenchmarkWarmEdit(b *testing.B) {
	files := testrepo.Module(150, 1000)
	files["p75/p75_test.go"] = "package p75\n\nimport \"testing\"\n\nfunc TestF1(t *testing.T) {\n\tif F1(\"x\") == \"\" {\n\t\tt.Log(\"empty\")\n\t}\n}\n"
	r := testrepo.New(b, files)
	c := agentverify.NewChecker()
	ctx := context.Background()
	req := agentverify.Request{Dir: r.Dir, Source: agentverify.Edits, Edits: []editset.Edit{{Path: "p75/p.go", Content: []byte(files["p75/p.go"] + "\n// Extra is new.\nfunc Extra() string { return F1(\"x\") }\n")}}}
	if _, err := c.Check(ctx, req); err != nil { // the cold load, kept by c
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		rep, err := c.Check(ctx, req)
		if err != nil || rep.Status != report.Passed {
			b.Fatalf("%v: status %v, want passed", err, rep.Status)
		}
	}
}
