package editset

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
)

func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestBuildOps(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "package a\n", "b.go": "package a\nvar B = 1\n"})
	set, err := Build(root, []Edit{
		{Path: "a.go", Content: []byte("package a\n\nfunc A() {}\n")},
		{Path: "b.go", Delete: true},
		{Path: "sub/c.go", Content: []byte("package sub\n")},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]change.Op{"a.go": change.Modify, "b.go": change.Delete, "sub/c.go": change.Create}
	if len(set.Files) != len(want) {
		t.Fatalf("got %d files, want %d", len(set.Files), len(want))
	}
	for _, f := range set.Files {
		if f.Op != want[f.Path] {
			t.Errorf("%s: op %s, want %s", f.Path, f.Op, want[f.Path])
		}
	}
	if a := set.File("a.go"); !a.LineChanged(3) || a.LineChanged(1) {
		t.Errorf("a.go changed lines = %v", a.Changed)
	}
	// The disk is untouched: the edit is in memory only.
	if b, _ := os.ReadFile(filepath.Join(root, "a.go")); string(b) != "package a\n" {
		t.Errorf("Build wrote to disk: %q", b)
	}
	// HeadFS shows the edits over the working tree.
	if got, _ := fs.ReadFile(set.HeadFS, "a.go"); !strings.Contains(string(got), "func A") {
		t.Errorf("HeadFS a.go = %q", got)
	}
	if _, err := fs.ReadFile(set.HeadFS, "b.go"); err == nil {
		t.Error("HeadFS still shows the deleted b.go")
	}
	if got, _ := fs.ReadFile(set.HeadFS, "sub/c.go"); string(got) != "package sub\n" {
		t.Errorf("HeadFS sub/c.go = %q", got)
	}
	names := func(dir string) string {
		es, err := fs.ReadDir(set.HeadFS, dir)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, e := range es {
			s = append(s, e.Name())
		}
		return strings.Join(s, ",")
	}
	if got := names("."); got != "a.go,sub" {
		t.Errorf("ReadDir(.) = %s", got)
	}
	if got := names("sub"); got != "c.go" {
		t.Errorf("ReadDir(sub) = %s", got)
	}
}

func TestBuildRefusesEscapes(t *testing.T) {
	outside := t.TempDir()
	root := tree(t, map[string]string{"a.go": "package a\n"})
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "a.go"), filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"../x.go", "a/../../x.go", "/etc/passwd", "out/x.go", "link.go", ".git/config", "", "."} {
		if _, err := Build(root, []Edit{{Path: p, Content: []byte("x")}}); err == nil {
			t.Errorf("Build accepted %q", p)
		}
	}
	if _, err := Build(root, []Edit{{Path: filepath.Join(root, "a.go"), Content: []byte("x")}}); err != nil {
		t.Errorf("absolute path inside the repository refused: %v", err)
	}
	if _, err := Build(root, []Edit{{Path: "missing.go", Delete: true}}); err == nil {
		t.Error("deleting a missing file accepted")
	}
	if _, err := Build(root, []Edit{{Path: "a.go"}, {Path: "./a.go"}}); err == nil {
		t.Error("two edits of one file accepted")
	}
}
