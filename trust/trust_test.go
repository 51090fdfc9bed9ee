package trust

import (
	"os"
	"path/filepath"
	"strings"
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

// TestUnreadableRepositoryFailsClosed: for in-memory edits, a directory outside any
// repository has the policy on the disk; a repository that is there but cannot be opened
// (a broken .git/config) is an error, never a reason to take the disk's policy, which
// the change controls, for the committed one.
func TestUnreadableRepositoryFailsClosed(t *testing.T) {
	edit := []editset.Edit{{Path: "a.go", Content: []byte("package a\n\nvar X = 1\n")}}
	plain := t.TempDir()
	if err := os.WriteFile(filepath.Join(plain, ".agentverify.yaml"), []byte("version: 1\nname: disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := editset.Build(plain, edit)
	if err != nil {
		t.Fatal(err)
	}
	if pol, _, err := Resolve(set, Request{Kind: source.Edits}); err != nil || pol.Name != "disk" {
		t.Errorf("outside a repository: policy %v, %v; want the disk's", pol, err)
	}

	r := testrepo.New(t, map[string]string{".agentverify.yaml": "version: 1\nname: committed\n", "a.go": "package a\n"})
	r.Write(map[string]string{".agentverify.yaml": "version: 1\nname: disk\n", ".git/config": "[core\nbroken"})
	if set, err = editset.Build(r.Dir, edit); err != nil {
		t.Fatal(err)
	}
	if pol, _, err := Resolve(set, Request{Kind: source.Edits}); err == nil || !strings.Contains(err.Error(), "opening the git repository") {
		t.Errorf("unreadable repository: policy %v, %v; want an error", pol, err)
	}
}
