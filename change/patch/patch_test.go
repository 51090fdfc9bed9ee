package patch

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
)

var head = fstest.MapFS{
	"a.go":     {Data: []byte("package a\n\nfunc A() {}\n")},
	"old.go":   {Data: []byte("package a\n\nvar O = 1\n")},
	"gone.go":  {Data: []byte("package a\n")},
	"sub/b.go": {Data: []byte("package sub\n")},
}

const modify = `diff --git a/a.go b/a.go
--- a/a.go
+++ b/a.go
@@ -1,3 +1,5 @@
 package a
 
 func A() {}
+
+func B() {}
`

const create = `diff --git a/n.go b/n.go
new file mode 100644
--- /dev/null
+++ b/n.go
@@ -0,0 +1 @@
+package a
`

const remove = `diff --git a/gone.go b/gone.go
deleted file mode 100644
--- a/gone.go
+++ /dev/null
@@ -1 +0,0 @@
-package a
`

const rename = `diff --git a/old.go b/new.go
similarity index 100%
rename from old.go
rename to new.go
`

func TestLoad(t *testing.T) {
	set, err := Load(context.Background(), "/repo", head, strings.NewReader(modify+create+remove+rename), "p.diff")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]change.Op{}
	for _, f := range set.Files {
		got[f.Path] = f.Op
	}
	want := map[string]change.Op{"a.go": change.Modify, "n.go": change.Create, "gone.go": change.Delete, "new.go": change.Rename}
	for p, op := range want {
		if got[p] != op {
			t.Errorf("%s: %s, want %s (all: %v)", p, got[p], op, got)
		}
	}
	a := set.File("a.go")
	if !a.LineChanged(5) || a.LineChanged(3) || !strings.Contains(string(a.Head), "func B") {
		t.Errorf("a.go: changed %v head %q", a.Changed, a.Head)
	}
	if b, err := fs.ReadFile(set.HeadFS, "a.go"); err != nil || !strings.Contains(string(b), "func B") {
		t.Errorf("HeadFS a.go = %q %v", b, err)
	}
	if _, err := fs.ReadFile(set.HeadFS, "gone.go"); err == nil {
		t.Error("HeadFS shows the deleted file")
	}
	if _, err := fs.ReadFile(set.HeadFS, "old.go"); err == nil {
		t.Error("HeadFS shows the renamed file's old path")
	}
}

// TestLoadPlainDiff: a unified diff with no "diff --git" header is read as 'git apply'
// reads it (-p1): a/ and b/ prefixes are dropped, a name with no directory is kept, and
// /dev/null creates or deletes.
func TestLoadPlainDiff(t *testing.T) {
	tests := []struct{ name, patch, want string }{
		{"a/ b/ prefixes", "--- a/a.go\n+++ b/a.go\n@@ -3 +3 @@\n-func A() {}\n+func A() { _ = 1 }\n", "modify a.go"},
		{"prefixes and timestamps", "--- a/sub/b.go\t2024-01-02 03:04:05\n+++ b/sub/b.go\t2024-01-02 03:04:06\n@@ -1 +1 @@\n-package sub\n+package sub // x\n", "modify sub/b.go"},
		{"no prefix, no directory", "--- a.go\n+++ a.go\n@@ -3 +3 @@\n-func A() {}\n+func A() { _ = 1 }\n", "modify a.go"},
		{"diff -u of a backup", "--- a.go.orig\n+++ a.go\n@@ -3 +3 @@\n-func A() {}\n+func A() { _ = 1 }\n", "modify a.go"},
		{"created", "--- /dev/null\n+++ b/n.go\n@@ -0,0 +1 @@\n+package a\n", "create n.go"},
		{"deleted", "--- a/gone.go\n+++ /dev/null\n@@ -1 +0,0 @@\n-package a\n", "delete gone.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := Load(context.Background(), "/repo", head, strings.NewReader(tt.patch), "p.diff")
			if err != nil {
				t.Fatal(err)
			}
			if len(set.Files) != 1 || string(set.Files[0].Op)+" "+set.Files[0].Path != tt.want {
				t.Errorf("files %+v, want %s", set.Files, tt.want)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	tests := map[string]string{
		"":              "no file changes",
		"hello world\n": "no file changes",
		strings.Replace(modify, "a/a.go", "a/../etc/passwd", -1): "'..'",
		strings.Replace(modify, "func A() {}", "func Z() {}", 1): "does not apply",
		strings.Replace(modify, "a.go", "missing.go", -1):        "does not exist at HEAD",
		modify + modify: "patched twice",
		"diff --git a/.git/config b/.git/config\n--- a/.git/config\n+++ b/.git/config\n@@ -1 +1 @@\n-a\n+b\n": "not a file path",
	}
	for src, want := range tests {
		_, err := Load(context.Background(), "/repo", head, strings.NewReader(src), "p.diff")
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "p.diff: ") {
			t.Errorf("patch %.40q: err = %v, want one naming p.diff and %q", src, err, want)
		}
	}
}

// FuzzLoad: no patch makes Load panic; a refused one gets one line naming the patch; an
// accepted one gives files with clean paths inside the repository, each readable in the
// head file system unless deleted.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{modify, create, remove, rename, modify + create,
		"--- a/a.go\n+++ b/a.go\n@@ -3 +3 @@\n-func A() {}\n+func A() { _ = 1 }\n",
		"--- a.go.orig\t2024-01-02\n+++ a.go\n@@ -1 +1 @@\n-package a\n+package b\n",
		"--- /dev/null\n+++ b/sub/n.go\n@@ -0,0 +1 @@\n+package sub\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		set, err := Load(context.Background(), "/repo", head, strings.NewReader(src), "f.diff")
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "f.diff: ") || strings.Contains(strings.TrimSpace(msg), "\n") {
				t.Fatalf("error %q: want one line naming the patch", msg)
			}
			return
		}
		for _, file := range set.Files {
			for _, p := range []string{file.Path, file.OldPath} {
				if strings.Contains(p, "..") || strings.HasPrefix(p, "/") || p == ".git" || strings.HasPrefix(p, ".git/") {
					t.Fatalf("unsafe path %q accepted", p)
				}
			}
			if _, err := fs.ReadFile(set.HeadFS, file.Path); (err == nil) == (file.Op == change.Delete) && !file.Binary {
				t.Fatalf("%s (%s): head file system read: %v", file.Path, file.Op, err)
			}
		}
	})
}
