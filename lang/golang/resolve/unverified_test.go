package resolve

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
)

// TestUnverifiedFiles checks which Go files of a change are reported as unverified: too
// large, binary or symbolic links, on any operation but a delete; other languages and
// verifiable files are not.
func TestUnverifiedFiles(t *testing.T) {
	link := change.NewFile("link.go", "", nil, []byte("../elsewhere/x.go"))
	link.Symlink = true
	deleted := change.NewLargeFile("gone.go", "gone.go", change.Delete, 6<<20)
	links := map[string]string{"pkg/out": "/tmp/elsewhere", "pkg/up": "../../outside", "pkg/in": "../other", "docs/out": "/usr/share/doc"}
	var linked []*change.File
	for p, target := range links {
		f := change.NewFile(p, "", nil, []byte(target))
		f.Symlink = true
		linked = append(linked, f)
	}
	set := &change.Set{HeadFS: fstest.MapFS{"pkg/go.mod": {Data: []byte("module m\n")}}, Files: []*change.File{
		change.NewLargeFile("big.go", "big.go", change.Modify, 6<<20),
		change.NewFile("nul.go", "", nil, []byte("package p\n\nvar s = \"a\x00b\"\n")),
		link,
		deleted,
		change.NewFile("ok.go", "", nil, []byte("package p\n")),
		change.NewFile("data.bin", "", nil, []byte{0, 1, 2}),
		change.NewLargeFile("big.txt", "", change.Create, 6<<20),
	}}
	set.Files = append(set.Files, linked...)
	got := map[string]string{}
	for _, f := range unverifiedFiles(set, 5<<20) {
		if f.Kind != UnverifiedFile || f.Location.Line != 1 || !f.Introduced || f.Suggestion == "" {
			t.Errorf("bad finding %+v", f)
		}
		got[f.Location.File] = f.Message
	}
	want := map[string]string{
		"big.go":  "big.go is 6.0 MiB, over the size limit of 5.0 MiB (limits.max_file_size), so it could not be verified",
		"nul.go":  "nul.go holds a NUL byte",
		"link.go": "link.go is a symbolic link",
		"pkg/out": "pkg/out is a symbolic link to /tmp/elsewhere, outside the repository, inside a Go module",
		"pkg/up":  "pkg/up is a symbolic link to ../../outside, outside the repository",
	}
	if len(got) != len(want) {
		t.Errorf("reported %v, want %v", got, want)
	}
	for file, msg := range want {
		if !strings.HasPrefix(got[file], msg) {
			t.Errorf("%s: %q, want it to start with %q", file, got[file], msg)
		}
	}
}
