package api

import (
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/change"
)

// TestHeadSharesUnchangedFiles: the head side takes the base's syntax tree of each file
// whose bytes are the same, and parses the changed file itself.
func TestHeadSharesUnchangedFiles(t *testing.T) {
	const (
		a  = "package p\n\n// A is a.\nfunc A() int { return 0 }\n"
		b  = "package p\n\n// B is b.\nfunc B() int { return 0 }\n"
		b2 = "package p\n\n// B is b.\nfunc B() int64 { return 0 }\n"
	)
	set := &change.Set{
		BaseFS: fstest.MapFS{"p/a.go": {Data: []byte(a)}, "p/b.go": {Data: []byte(b)}},
		HeadFS: fstest.MapFS{"p/a.go": {Data: []byte(a)}, "p/b.go": {Data: []byte(b2)}},
	}
	m := &module{dir: ".", pkgDirs: map[string]bool{"p": true}, basePath: "example.com/m", headPath: "example.com/m"}
	pairs, _, _ := (&Comparer{}).check(set, m, nil, "go1.22")
	if len(pairs) != 1 || len(pairs[0].base.files) != 2 || len(pairs[0].head.files) != 2 {
		t.Fatalf("pairs: %+v", pairs)
	}
	base, head := pairs[0].base.files, pairs[0].head.files
	if head[0] != base[0] {
		t.Error("the unchanged a.go was parsed again for the head")
	}
	if head[1] == base[1] {
		t.Error("the changed b.go was not parsed for the head")
	}
	if got := messages(pairs[0].changes()); got != "B: changed from func() int to func() int64" {
		t.Errorf("changes: %q", got)
	}
}

// TestBrokenHead: a head file that does not parse leaves its package unchecked, the
// base's syntax trees of its other files notwithstanding.
func TestBrokenHead(t *testing.T) {
	const a = "package p\n\n// A is a.\nfunc A() int { return 0 }\n"
	set := &change.Set{
		BaseFS: fstest.MapFS{"p/a.go": {Data: []byte(a)}, "p/b.go": {Data: []byte("package p\n\nfunc B() {}\n")}},
		HeadFS: fstest.MapFS{"p/a.go": {Data: []byte(a)}, "p/b.go": {Data: []byte("package p\n\nfunc B-1() {}\n")}},
	}
	m := &module{dir: ".", pkgDirs: map[string]bool{"p": true}, basePath: "example.com/m", headPath: "example.com/m"}
	pairs, _, _ := (&Comparer{}).check(set, m, nil, "go1.22")
	if len(pairs) != 1 || pairs[0].base.broken || !pairs[0].head.broken {
		t.Fatalf("base broken %v, head broken %v; want the head only", pairs[0].base.broken, pairs[0].head.broken)
	}
}
