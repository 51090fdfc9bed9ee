package resolve

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
)

// alexandriaSource is where Debian's cl-alexandria package installs alexandria.
const alexandriaSource = "/usr/share/common-lisp/source/alexandria"

func needAlexandria(tb testing.TB) {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(alexandriaSource, "alexandria.asd")); err != nil {
		tb.Skip("alexandria's source is not installed: apt-get install cl-alexandria")
	}
}

// treeSet returns a check-mode change of every Lisp file below root (all of them new).
func treeSet(tb testing.TB, root string) *change.Set {
	tb.Helper()
	head := os.DirFS(root)
	set := &change.Set{Root: root, HeadFS: head, NoBase: true}
	err := fs.WalkDir(head, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !lispFile(p) {
			return err
		}
		src, err := fs.ReadFile(head, p)
		set.Files = append(set.Files, change.NewFile(p, "", nil, src))
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return set
}

// Every file of alexandria, a widely used system that SBCL compiles cleanly, resolves:
// its macros, local functions, reader conditionals and generated functions draw nothing.
func TestAlexandriaResolves(t *testing.T) {
	needAlexandria(t)
	ps, err := Resolver{}.Resolve(&lang.Request{Context: context.Background(), Changes: treeSet(t, alexandriaSource)})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		t.Errorf("%s:%d:%d %s: %s [%s]", p.Location.File, p.Location.Line, p.Location.Column, p.Kind, p.Message, p.Suggestion)
	}
}

// BenchmarkOneFileChange resolves a one-file change of alexandria (lists.lisp): cold
// with a fresh loader each time, as one verification does (the system's files are read
// and indexed, its dependencies located, the file walked), and warm with a shared one.
func BenchmarkOneFileChange(b *testing.B) {
	needAlexandria(b)
	head := os.DirFS(alexandriaSource)
	src, err := fs.ReadFile(head, "alexandria-1/lists.lisp")
	if err != nil {
		b.Fatal(err)
	}
	set := &change.Set{Root: alexandriaSource, HeadFS: head, Files: []*change.File{
		change.NewFile("alexandria-1/lists.lisp", "alexandria-1/lists.lisp", src, append(src, "\n(defun extra (x) (flatten x))\n"...)),
	}}
	b.Run("cold", func(b *testing.B) {
		for range b.N {
			ps, err := Resolver{}.Resolve(&lang.Request{Context: context.Background(), Changes: set})
			if err != nil || len(ps) != 0 {
				b.Fatal(err, ps)
			}
		}
	})
	b.Run("warm", func(b *testing.B) { // a long-lived process: the unchanged files are read once
		r := Resolver{Deps: NewDeps(nil, nil)}
		for range b.N {
			ps, err := r.Resolve(&lang.Request{Context: context.Background(), Changes: set})
			if err != nil || len(ps) != 0 {
				b.Fatal(err, ps)
			}
		}
	})
}
