package api

import (
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
)

// countingFS counts the Go files opened through it.
type countingFS struct {
	fs.FS
	reads int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, ".go") {
		c.reads++
	}
	return c.FS.Open(name)
}

// TestHeadRequestOnDisk: when the disk holds the head but for the change's files (the
// working tree, edits over it), the head's request overlays only those files and reads
// none of the package's others; for the index it overlays each file that differs from
// the disk.
func TestHeadRequestOnDisk(t *testing.T) {
	root := side(t, t.TempDir(), "repo", map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"p/a.go":  "package p\n\nfunc A() {}\n",
		"p/b.go":  "package p\n\nfunc B() {}\n",
		"p/c.go":  "package p\n\nfunc C() {}\n",
		"p/x.txt": "not Go\n",
	})
	head := map[string]string{"p/a.go": "package p\n\nfunc A() int { return 0 }\n"}
	files := []*change.File{change.NewFile("p/a.go", "p/a.go", []byte("package p\n\nfunc A() {}\n"), []byte(head["p/a.go"]))}
	for _, tc := range []struct {
		name   string
		onDisk bool
		b      string // p/b.go at the head
		reads  int
		want   []string // overlaid files
	}{
		{"working tree", true, "package p\n\nfunc B() {}\n", 0, []string{"p/a.go"}},
		// b.go is staged as it is not on disk
		{"index", false, "package p\n\nfunc B() int { return 0 }\n", 2, []string{"p/a.go", "p/b.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mfs := fstest.MapFS{"go.mod": {Data: []byte("module example.com/m\n")}, "p/c.go": {Data: []byte("package p\n\nfunc C() {}\n")}, "p/x.txt": {Data: []byte("not Go\n")}}
			for p, c := range head {
				mfs[p] = &fstest.MapFile{Data: []byte(c)}
			}
			mfs["p/b.go"] = &fstest.MapFile{Data: []byte(tc.b)}
			hfs := &countingFS{FS: mfs}
			set := &change.Set{Root: root, HeadFS: hfs, OnDisk: tc.onDisk, Files: files}
			req, _ := headRequest(set, ".")
			var got []string
			for abs := range req.Overlay {
				rel, _ := filepath.Rel(root, abs)
				got = append(got, filepath.ToSlash(rel))
			}
			if len(got) > 1 && got[0] > got[1] {
				got[0], got[1] = got[1], got[0]
			}
			if !reflect.DeepEqual(got, tc.want) || hfs.reads != tc.reads {
				t.Errorf("overlay %v after %d reads; want %v after %d", got, hfs.reads, tc.want, tc.reads)
			}
		})
	}
}

// TestHeadReadOnce: the head's type-check takes the files the load request read (the
// index's, for --staged) instead of reading them again.
func TestHeadReadOnce(t *testing.T) {
	const a, a2, b = "package p\n\n// A is a.\nfunc A() {}\n", "package p\n\n// A is a.\nfunc A() int { return 0 }\n", "package p\n\n// B is b.\nfunc B() {}\n"
	base := fstest.MapFS{"go.mod": {Data: []byte("module example.com/m\n")}, "p/a.go": {Data: []byte(a)}, "p/b.go": {Data: []byte(b)}}
	hfs := &countingFS{FS: fstest.MapFS{"go.mod": {Data: []byte("module example.com/m\n")}, "p/a.go": {Data: []byte(a2)}, "p/b.go": {Data: []byte(b)}}}
	set := &change.Set{Root: t.TempDir(), BaseFS: base, HeadFS: hfs, Files: []*change.File{change.NewFile("p/a.go", "p/a.go", []byte(a), []byte(a2))}}
	m := &module{dir: ".", pkgDirs: map[string]bool{"p": true}, basePath: "example.com/m", headPath: "example.com/m"}
	_, m.headSrc = headRequest(set, ".")
	hfs.reads = 0
	pairs, _, _ := (&Comparer{}).check(set, m, nil, "go1.22")
	if hfs.reads != 0 {
		t.Errorf("the head's check read %d Go files again", hfs.reads)
	}
	if got := messages(pairs[0].changes()); got != "A: changed from func() to func() int" {
		t.Errorf("changes: %q", got)
	}
}
