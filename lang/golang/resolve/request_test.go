package resolve

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
)

// countingFS is a file system that records the files read through it.
type countingFS struct {
	fs.FS
	mu   sync.Mutex
	read []string
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.read = append(c.read, name)
	c.mu.Unlock()
	return c.FS.Open(name)
}

// TestRequestReadsOnlyTheChange: when the head is the disk but for the change, the load
// request of a package lists every file of it without reading the unchanged ones; when
// it is not (the index, a patch), each is read and overlaid where the head differs.
func TestRequestReadsOnlyTheChange(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	files := map[string]string{"p/a.go": "package p\n\nfunc A() {}\n", "p/b.go": "package p\n\nfunc B() {}\n", "p/c.go": "package p\n\nfunc C() {}\n"}
	for name, src := range files {
		if err := os.MkdirAll(filepath.Join(root, "p"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edited := &change.File{Path: "p/a.go", Op: change.Modify, Head: []byte("package p\n\nfunc A() { B() }\n")}
	for _, onDisk := range []bool{true, false} {
		head := &countingFS{FS: os.DirFS(root)}
		set := &change.Set{Root: root, Files: []*change.File{edited}, HeadFS: head, BaseFS: os.DirFS(root), OnDisk: onDisk}
		u := &unit{dir: ".", inModule: true, goFiles: []*change.File{edited}}
		req, err := newRequest(&lang.Request{Context: context.Background(), Changes: set}, head, u)
		if err != nil {
			t.Fatal(err)
		}
		var rel []string
		for _, f := range req.Files {
			r, _ := filepath.Rel(root, f)
			rel = append(rel, filepath.ToSlash(r))
		}
		slices.Sort(rel)
		if !slices.Equal(rel, []string{"p/a.go", "p/b.go", "p/c.go"}) {
			t.Errorf("OnDisk %v: request files %v", onDisk, rel)
		}
		if len(req.Overlay) != 1 || string(req.Overlay[filepath.Join(root, "p", "a.go")]) != string(edited.Head) {
			t.Errorf("OnDisk %v: overlay %v, want the edited file alone", onDisk, req.Overlay)
		}
		if read := slices.DeleteFunc(head.read, func(n string) bool { return n == "p" }); onDisk && len(read) != 0 || !onDisk && len(read) != 2 {
			t.Errorf("OnDisk %v: read through the head %v", onDisk, read)
		}
	}
}
