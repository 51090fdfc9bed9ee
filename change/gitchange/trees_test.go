package gitchange

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/agentverify/agentverify/change"
)

// staged builds the staged change of dir, keeping base listings in trees (nil: none).
func staged(t *testing.T, dir string, trees *Trees) string {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	r.Trees = trees
	set, err := r.Staged(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return describe(set)
}

// describe renders a change set whole: each file's operation and both sides, as the
// change holds them and as its file systems read them.
func describe(set *change.Set) string {
	var b strings.Builder
	fmt.Fprintf(&b, "base %s\n", set.BaseRev)
	for _, f := range set.Files {
		fmt.Fprintf(&b, "%s %s<-%s %q %q\n", f.Op, f.Path, f.OldPath, f.Base, f.Head)
		for _, fsys := range []fs.FS{set.BaseFS, set.HeadFS} {
			data, err := fs.ReadFile(fsys, f.Path)
			fmt.Fprintf(&b, "\t%q %v\n", data, err)
		}
	}
	return b.String()
}

// TestTreesKeepTheBase: a second staged change against the same HEAD reads the base
// tree's listing (and the blobs read before) from Trees instead of walking the tree again, and a new commit (a new
// base tree) is walked anew; every change set is the one built without Trees.
func TestTreesKeepTheBase(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.go": "package a\n", "d/b.go": "package d\n"})
	trees := &Trees{}
	check := func(what string) {
		t.Helper()
		if got, want := staged(t, r.Dir, trees), staged(t, r.Dir, nil); got != want {
			t.Fatalf("%s: with kept trees\n%s\nwithout\n%s", what, got, want)
		}
	}
	r.Write(map[string]string{"a.go": "package a\n\nvar One = 1\n"})
	r.Git("add", "a.go")
	check("first staged change")
	r.Write(map[string]string{"a.go": "package a\n\nvar Two = 2\n", "d/c.go": "package d\n"})
	r.Git("add", "a.go", "d/c.go")
	check("second staged change")
	if n := trees.Walks(); n != 1 {
		t.Errorf("two staged changes against one HEAD walked %d trees, want 1", n)
	}
	r.Commit("next")
	r.Write(map[string]string{"d/b.go": "package d\n\nvar B = 1\n"})
	r.Git("add", "d/b.go")
	check("after a new commit")
	if got := staged(t, r.Dir, trees); strings.Count(got, "modify ")+strings.Count(got, "create ")+strings.Count(got, "delete ") != 1 || !strings.Contains(got, "modify d/b.go") {
		t.Errorf("against the new commit, want only d/b.go modified:\n%s", got)
	}
	if n := trees.Walks(); n != 2 {
		t.Errorf("after a new commit: %d trees walked, want 2", n)
	}
}

// TestKeptBounded: kept drops its oldest values once their total cost passes the bound,
// and a value kept again under the same hash is counted once.
func TestKeptBounded(t *testing.T) {
	var k kept[string]
	h := func(b byte) plumbing.Hash { return plumbing.Hash{b} }
	k.add(h(1), "one", 10, 25)
	k.add(h(2), "two", 10, 25)
	k.add(h(2), "two again", 10, 25)
	if v, ok := k.get(h(1)); !ok || v != "one" || k.cost != 20 {
		t.Fatalf("under the bound: get(1) = %q, %v; cost %d, want one, true, 20", v, ok, k.cost)
	}
	k.add(h(3), "three", 10, 25)
	if _, ok := k.get(h(1)); ok {
		t.Error("over the bound, the oldest value is still kept")
	}
	for _, b := range []byte{2, 3} {
		if _, ok := k.get(h(b)); !ok {
			t.Errorf("value %d dropped, want kept", b)
		}
	}
	if k.cost != 20 || len(k.order) != 2 || len(k.costs) != 2 {
		t.Errorf("after dropping: cost %d, %d in order, %d costs; want 20, 2, 2", k.cost, len(k.order), len(k.costs))
	}
}

// TestIndexIsTree: the base files read from the index when git's tree cache says it is
// HEAD's tree are exactly the files of HEAD's tree walked, and the index stands in only
// while that holds: not once something is staged, until the next commit.
func TestIndexIsTree(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.go": "package a\n", "d/b.go": "package d\n", "d/e/c.txt": "c\n", "run.sh": "#!/bin/sh\n"})
	if err := os.Chmod(filepath.Join(r.Dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.Commit("modes")
	step := func(what string, want bool) {
		t.Helper()
		commit, idx := headAndIndex(t, r.Dir)
		got, _, ok := indexIsTree(commit, idx)
		if ok != want {
			t.Fatalf("%s: the index stands in for the tree: %t, want %t", what, ok, want)
		}
		walked, _, err := treeEntries(commit)
		if err != nil {
			t.Fatal(err)
		}
		if ok && !maps.Equal(got, walked) {
			t.Errorf("%s: from the index\n%v\nwalked\n%v", what, got, walked)
		}
	}
	step("after a commit", true)
	r.Write(map[string]string{"a.go": "package a\n\nvar X = 1\n"})
	step("a working-tree edit, nothing staged", true)
	r.Git("add", "a.go")
	step("an edit staged", false)
	r.Commit("x")
	step("after the next commit", true)
	r.Write(map[string]string{"n.go": "package a\n"})
	r.Git("add", "-N", "n.go")
	step("a file added with intent to add", false)
}

// TestIndexForgedTreeCache: an index whose tree cache claims HEAD's tree while an entry
// holds other content (written by hand, as a gated agent may) does not stand in for the
// base: the edited file is still in the working-tree change.
func TestIndexForgedTreeCache(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.go": "package a\n"})
	bad := "package a\n\nfunc Bad() { undefinedThing() }\n"
	r.Write(map[string]string{"a.go": bad})
	r.Git("add", "a.go") // the edit's blob and an index entry for it
	commit, idx := headAndIndex(t, r.Dir)
	var buf bytes.Buffer
	if err := index.NewEncoder(&buf).Encode(idx); err != nil {
		t.Fatal(err)
	}
	body := buf.Bytes()[:buf.Len()-20] // without the checksum
	tree := append([]byte("\x001 0\n"), commit.TreeHash[:]...)
	body = append(body, "TREE"...)
	body = binary.BigEndian.AppendUint32(body, uint32(len(tree)))
	body = append(body, tree...)
	sum := sha1.Sum(body)
	if err := os.WriteFile(filepath.Join(r.Dir, ".git", "index"), append(body, sum[:]...), 0o644); err != nil {
		t.Fatal(err)
	}
	repo, err := Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	set, err := repo.WorkingTree(context.Background(), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if got := ops(set); !strings.Contains(got, "a.go") {
		t.Errorf("the forged index hid the edit of a.go: change %q", got)
	}
}

// TestIndexTreeOrder: the index hashes to HEAD's tree where git's orders of index
// entries (by path) and tree entries (a directory as its name with a slash) differ.
func TestIndexTreeOrder(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"d.go": "a\n", "d/b.go": "b\n", "d-x/c": "c\n", "d0": "d\n", "e/f/g/h": "h\n", "e/f.g": "f\n"})
	if err := os.Symlink("d.go", filepath.Join(r.Dir, "link")); err != nil {
		t.Fatal(err)
	}
	r.Git("add", "link")
	r.Commit("order")
	commit, idx := headAndIndex(t, r.Dir)
	if h, n, err := entriesTree(idx.Entries, ""); err != nil || n != len(idx.Entries) || h != commit.TreeHash {
		t.Errorf("the index hashes to %v (%d of %d entries, %v), HEAD's tree is %v", h, n, len(idx.Entries), err, commit.TreeHash)
	}
}

// headAndIndex opens the repository at dir and reads its HEAD commit and index.
func headAndIndex(t *testing.T, dir string) (*object.Commit, *index.Index) {
	t.Helper()
	repo, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	commit, err := repo.headCommit()
	if err != nil {
		t.Fatal(err)
	}
	idx, err := repo.index()
	if err != nil {
		t.Fatal(err)
	}
	return commit, idx
}
