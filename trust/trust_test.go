package trust

import (
	"testing"

	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/change/source"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// BenchmarkResolvePolicy measures what reading the policy from the trusted side costs one
// verification: opening the repository, resolving HEAD and reading the committed policy,
// for an in-memory edit (the hook and MCP hot path).
func BenchmarkResolvePolicy(b *testing.B) {
	files := testrepo.Module(20, 200)
	files[".agentverify.yaml"] = "version: 1\nscope: {forbidden_paths: [\"secret/**\"]}\nhallucination: {}\n"
	dir := testrepo.New(b, files).Dir
	req := Request{Kind: source.Edits}
	set, err := editset.Build(dir, []editset.Edit{{Path: "p1/p.go", Content: []byte("package p1\n")}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		pol, trust, err := Resolve(set, req)
		if err != nil || pol.Scope == nil || trust == nil {
			b.Fatalf("Resolve: %v", err)
		}
	}
}
