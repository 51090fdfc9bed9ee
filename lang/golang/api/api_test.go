package api

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// side writes a tree of files under root/name and returns its directory.
func side(t *testing.T, root, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// changeOf returns the change of api/api.go from base to head, the rest of the module
// being files.
func changeOf(t *testing.T, root string, files map[string]string, base, head string) *change.Set {
	b, h := map[string]string{"api/api.go": base}, map[string]string{"api/api.go": head}
	for p, c := range files {
		b[p], h[p] = c, c
	}
	bdir, hdir := side(t, root, "base", b), side(t, root, "head", h)
	return &change.Set{Root: hdir, BaseFS: os.DirFS(bdir), HeadFS: os.DirFS(hdir), BaseRev: "base",
		Files: []*change.File{change.NewFile("api/api.go", "api/api.go", []byte(base), []byte(head))}}
}

func messages(cs []lang.APIChange) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Subject+": "+c.Detail)
	}
	return strings.Join(out, "; ")
}

// TestNewImportInALongLivedLoader: a loader that loaded the module before answers the
// head's imports from that load; when the head imports an in-module package that load
// did not, the comparison loads again rather than compare against an invalid type.
func TestNewImportInALongLivedLoader(t *testing.T) {
	files := map[string]string{
		"go.mod":         "module example.com/m\n\ngo 1.22\n",
		"model/model.go": "package model\n\n// User is a user.\ntype User struct{ ID int }\n",
	}
	const base = "package api\n\n// Find finds.\nfunc Find() int { return 0 }\n"
	c := New(load.New(load.Options{}))
	ctx := context.Background()
	root := t.TempDir()
	first := changeOf(t, root, files, base, "package api\n\n// Find finds.\nfunc Find() int64 { return 0 }\n")
	cs, err := c.CompareAPI(ctx, first)
	if err != nil || messages(cs) != "Find: changed from func() int to func() int64" {
		t.Fatalf("first change: %q, %v", messages(cs), err)
	}
	// The same loader, the same module, a new head.
	second := changeOf(t, root, files, base, "package api\n\nimport \"example.com/m/model\"\n\n// Find finds.\nfunc Find() model.User { return model.User{} }\n")
	cs, err = c.CompareAPI(ctx, second)
	if err != nil || messages(cs) != "Find: changed from func() int to func() example.com/m/model.User" {
		t.Fatalf("second change: %q, %v", messages(cs), err)
	}
}

// TestPlaces: a changed declaration is at its head line with its base line related; a
// removed one at the package clause of its file; a removed method at its type.
func TestPlaces(t *testing.T) {
	files := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"}
	base := "package api\n\n// A is a.\nfunc A() {}\n\n// B is b.\nfunc B() {}\n\n// T is t.\ntype T struct{}\n\n// M is m.\nfunc (T) M() {}\n"
	head := "package api\n\n// T is t.\ntype T struct{}\n\n// B is b.\nfunc B(int) {}\n"
	cs, err := New(load.New(load.Options{})).CompareAPI(context.Background(), changeOf(t, t.TempDir(), files, base, head))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{ // subject → head line, base line
		"A":   {1, 4},
		"B":   {7, 7},
		"T.M": {4, 13},
	}
	if len(cs) != len(want) {
		t.Fatalf("changes: %s", messages(cs))
	}
	for _, c := range cs {
		w, ok := want[c.Subject]
		if !ok || c.Head.Pos.Line != w[0] || c.Base.Pos.Line != w[1] || c.Head.File != "api/api.go" || c.Base.File != "api/api.go" {
			t.Errorf("%s: head %+v base %+v, want lines %v", c.Subject, c.Head, c.Base, w)
		}
	}
}
