package editset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify/change"
)

// TestCleanResolvesLinks checks that Clean returns where an edit really lands: a
// directory link anywhere on the path is resolved, so scope judges the real path.
func TestCleanResolvesLinks(t *testing.T) {
	outside := t.TempDir()
	root := tree(t, map[string]string{"allowed/a.go": "package a\n", "secret/s.go": "package s\n", "deep/x/y/z.go": "package y\n"})
	links := map[string]string{
		"allowed/sec":  filepath.Join(root, "secret"), // absolute target inside the repository
		"allowed/rel":  "../secret",                   // relative target
		"allowed/hop":  "rel",                         // a link to a link
		"allowed/deep": "../deep/x",
		"allowed/out":  outside,
		"allowed/gone": "../nowhere",
		"allowed/git":  "../.git",
	}
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		path, want, err string
	}{
		{"allowed/a.go", "allowed/a.go", ""},
		{"allowed/sec/s.go", "secret/s.go", ""},
		{"allowed/rel/new.go", "secret/new.go", ""},
		{"allowed/hop/new/dir/n.go", "secret/new/dir/n.go", ""},
		{"allowed/deep/y/z.go", "deep/x/y/z.go", ""},
		{filepath.Join(root, "allowed/sec/s.go"), "secret/s.go", ""},
		{"allowed/out/x.go", "", "outside the repository"},
		{"allowed/gone/x.go", "", "leads nowhere"},
		{"allowed/git/config", "", "inside .git"},
		{"allowed/sec", "", "symbolic link"},
	}
	for _, tt := range tests {
		got, err := Clean(root, tt.path)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("Clean(%s) = %q, %v; want %q", tt.path, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("Clean(%s) = %q, %v; want an error containing %q", tt.path, got, err, tt.err)
		}
	}
	set, err := Build(root, []Edit{{Path: "allowed/sec/s.go", Content: []byte("package s\n\nvar X = 1\n")}})
	if err != nil || len(set.Files) != 1 || set.Files[0].Path != "secret/s.go" || set.Files[0].Op != change.Modify {
		t.Fatalf("Build through a directory link: %v %+v", err, set)
	}
}

// TestBuildLimit checks that the policy's size limit applies to both sides of an edit.
func TestBuildLimit(t *testing.T) {
	root := tree(t, map[string]string{"big.go": strings.Repeat("x", 100), "small.go": "package s\n"})
	tests := []struct {
		edit    Edit
		tooBig  bool
		op      change.Op
		content string
	}{
		{Edit{Path: "new.go", Content: []byte(strings.Repeat("y", 51))}, true, change.Create, ""},
		{Edit{Path: "new.go", Content: []byte(strings.Repeat("y", 50))}, false, change.Create, strings.Repeat("y", 50)},
		{Edit{Path: "big.go", Content: []byte("package b\n")}, true, change.Modify, ""},
		{Edit{Path: "big.go", Delete: true}, true, change.Delete, ""},
		{Edit{Path: "small.go", Content: []byte("package t\n")}, false, change.Modify, "package t\n"},
	}
	for _, tt := range tests {
		set, err := BuildLimit(root, []Edit{tt.edit}, 50)
		if err != nil {
			t.Fatal(err)
		}
		f := set.Files[0]
		if f.TooLarge != tt.tooBig || f.Op != tt.op || string(f.Head) != tt.content {
			t.Errorf("%s (delete %v): too large %v op %s head %q; want %v %s %q", tt.edit.Path, tt.edit.Delete, f.TooLarge, f.Op, f.Head, tt.tooBig, tt.op, tt.content)
		}
	}
}

// TestBuildSpecialFiles checks that a named pipe at the edited path, or next to it as a
// Go file, is an error found at once.
func TestBuildSpecialFiles(t *testing.T) {
	for _, tc := range []struct{ fifo, edit string }{{"x.go", "x.go"}, {"p/x.go", "p/y.go"}} {
		root := tree(t, map[string]string{"p/keep.go": "package p\n"})
		if err := mkfifo(filepath.Join(root, filepath.FromSlash(tc.fifo))); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := Build(root, []Edit{{Path: tc.edit, Content: []byte("package p\n")}})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tc.fifo+": is a named pipe") {
				t.Errorf("edit %s next to pipe %s: err %v", tc.edit, tc.fifo, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("edit %s: Build hangs on the named pipe %s", tc.edit, tc.fifo)
		}
	}
}
