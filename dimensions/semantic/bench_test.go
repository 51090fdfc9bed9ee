package semantic

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/policy"
)

// BenchmarkOneFileAPIChange measures the semantics dimension on a one-file API change in
// a module of 150 packages and about 150,000 lines: F0 of p75 is renamed, which breaks
// p76 (it refers to p75.F0). Each run starts with a fresh loader, as a cold
// 'agentverify diff' process does.
func BenchmarkOneFileAPIChange(b *testing.B) {
	r := testrepo.New(b, testrepo.Module(150, 1000))
	file := filepath.Join(r.Dir, "p75", "p.go")
	src, _ := os.ReadFile(file)
	os.WriteFile(file, []byte(strings.Replace(string(src), "func F0(s string) string {", "func First(s string) string {", 1)), 0o644)
	repo, err := gitchange.Open(r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	set, err := repo.WorkingTree(context.Background(), "")
	if err != nil {
		b.Fatal(err)
	}
	langs := lang.Registry{golang.New()}
	b.ResetTimer()
	for b.Loop() {
		pass := &check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Mode: check.Diff, Languages: langs, Files: check.NewFiles(langs)}
		fs, err := Dimension.Run(pass)
		if err != nil {
			b.Fatal(err)
		}
		var rules []string
		for _, f := range fs {
			rules = append(rules, f.Rule+" "+f.Location.File)
		}
		if got := strings.Join(rules, "; "); got != "semantics/removed-export p75/p.go; semantics/broken-dependent p76/p.go" {
			b.Fatalf("findings: %s", got)
		}
	}
}
