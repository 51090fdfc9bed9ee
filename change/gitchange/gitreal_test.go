package gitchange

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// These tests put the change builders in the git configurations users and CI have — a
// hook's temporary index, submodules, end-of-line conversion, clean filters, sparse and
// shallow clones — each made by the real git command, and ask for what git would record.

// gitIn runs git in dir with the test environment and extra variables.
func gitIn(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(testrepo.Env(dir), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func openEnv(t *testing.T, dir string, vars []string) *Repo {
	t.Helper()
	r, err := OpenEnv(dir, vars)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestStagedReadsGitIndexFile: 'git commit -a' hands the hook a temporary index in
// GIT_INDEX_FILE; what it records is that index, not .git/index.
func TestStagedReadsGitIndexFile(t *testing.T) {
	r := newRepo(t, map[string]string{"a.go": "package a\n", "b.go": "package b\n"})
	r.Write(map[string]string{"a.go": "package a\n\nvar A = missing\n"})
	tmp := filepath.Join(t.TempDir(), "index.tmp")
	env := []string{"GIT_INDEX_FILE=" + tmp}
	gitIn(t, r.Dir, env, "read-tree", "HEAD")
	gitIn(t, r.Dir, env, "add", "a.go")
	set, err := openEnv(t, r.Dir, env).Staged(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := ops(set); got != "modify a.go" {
		t.Errorf("staged with GIT_INDEX_FILE = %q, want modify a.go", got)
	}
	// The caller's variables, not this process's: an empty set reads .git/index.
	t.Setenv("GIT_INDEX_FILE", tmp)
	set, err = openEnv(t, r.Dir, []string{}).Staged(context.Background())
	if err != nil || len(set.Files) != 0 {
		t.Errorf("staged without the caller's GIT_INDEX_FILE = %q, %v; want nothing staged", ops(set), err)
	}
}

// TestOpenGitDirWorkTree: GIT_DIR and GIT_WORK_TREE put the repository anywhere.
func TestOpenGitDirWorkTree(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.go": "package a\n"})
	work := t.TempDir()
	if real, err := filepath.EvalSymlinks(work); err == nil {
		work = real
	}
	if err := os.WriteFile(filepath.Join(work, "a.go"), []byte("package a\n\nvar A = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := openEnv(t, work, []string{"GIT_DIR=" + filepath.Join(r.Dir, ".git"), "GIT_WORK_TREE=" + work})
	set, err := repo.WorkingTree(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := ops(set); got != "modify a.go" || repo.Root() != work {
		t.Errorf("GIT_DIR/GIT_WORK_TREE: %q at %s, want modify a.go at %s", got, repo.Root(), work)
	}
}

// submoduleRepo returns a superproject with the submodule lib (a real 'git submodule add'
// of a local repository) committed, and the submodule's upstream.
func submoduleRepo(t *testing.T) (super *testrepo.Repo, lib *testrepo.Repo) {
	lib = newRepo(t, map[string]string{"lib.go": "package lib\n"})
	super = newRepo(t, map[string]string{"main.go": "package main\n"})
	gitIn(t, super.Dir, nil, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib.Dir, "vendor/lib")
	gitIn(t, super.Dir, nil, "commit", "-q", "-m", "submodule")
	return super, lib
}

// TestSubmoduleBumpIsAChange: a submodule moved to another commit is a changed path, in
// the working tree and in the index; its removal shows the gitlink; edits inside it that
// no commit of it records are marked.
func TestSubmoduleBumpIsAChange(t *testing.T) {
	shorttest.Slow(t, "runs git many times over real repositories")
	t.Parallel()
	super, _ := submoduleRepo(t)
	sub := filepath.Join(super.Dir, "vendor", "lib")
	if err := os.WriteFile(filepath.Join(sub, "lib.go"), []byte("package lib\n\nvar X = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set := workingTree(t, super.Dir, "")
	if got := ops(set); got != "modify vendor/lib" || !set.Files[0].Submodule || !set.Files[0].SubmoduleDirty {
		t.Fatalf("dirty submodule: %q %+v, want a dirty modify of vendor/lib", got, set.Files)
	}
	gitIn(t, sub, nil, "commit", "-q", "-am", "bump")
	set = workingTree(t, super.Dir, "")
	f := set.File("vendor/lib")
	if f == nil || f.SubmoduleDirty || f.Analyzable() || !strings.HasPrefix(string(f.Head), "Subproject commit ") {
		t.Fatalf("bumped submodule: %q %+v", ops(set), f)
	}
	gitIn(t, super.Dir, nil, "add", "vendor/lib")
	staged, err := openEnv(t, super.Dir, []string{}).Staged(context.Background())
	if err != nil || ops(staged) != "modify vendor/lib" {
		t.Errorf("staged bump: %q, %v", ops(staged), err)
	}
	gitIn(t, super.Dir, nil, "rm", "-q", "-f", "vendor/lib")
	set = workingTree(t, super.Dir, "")
	if got := ops(set); !strings.Contains(got, "delete vendor/lib") {
		t.Errorf("removed submodule: %q, want the gitlink deleted", got)
	}
}

// TestNestedRepositoryIsAChange: an untracked repository inside the working tree is what
// 'git add' would record as a submodule: a created path, not nothing.
func TestNestedRepositoryIsAChange(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"main.go": "package main\n"})
	nested := newRepo(t, map[string]string{"x.go": "package x\n"})
	if err := os.Rename(nested.Dir, filepath.Join(r.Dir, "tools")); err != nil {
		t.Fatal(err)
	}
	if got := ops(workingTree(t, r.Dir, "")); got != "create tools" {
		t.Errorf("nested repository: %q, want create tools", got)
	}
}

// TestAutocrlfCleanTree: a checkout with core.autocrlf=true has CRLF files on the disk and
// LF blobs; git calls it clean, and so is the change. An edit is one changed line, with the
// content git records.
func TestAutocrlfCleanTree(t *testing.T) {
	t.Parallel()
	up := newRepo(t, map[string]string{"a.go": "package a\n\nvar A = 1\n", "b.txt": "one\ntwo\n"})
	dir := filepath.Join(t.TempDir(), "clone")
	gitIn(t, up.Dir, nil, "clone", "-q", "-c", "core.autocrlf=true", up.Dir, dir)
	if b, _ := os.ReadFile(filepath.Join(dir, "a.go")); !strings.Contains(string(b), "\r\n") {
		t.Fatalf("the checkout has no CRLF: %q", b)
	}
	if got := ops(workingTree(t, dir, "")); got != "" {
		t.Fatalf("clean autocrlf checkout: %q, want no change", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\r\n\r\nvar A = 2\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set := workingTree(t, dir, "")
	f := set.File("a.go")
	if ops(set) != "modify a.go" || string(f.Head) != "package a\n\nvar A = 2\n" || len(f.Changed) != 1 || f.Changed[0].Start != 3 {
		t.Errorf("edit under autocrlf: %q head %q changed %v", ops(set), f.Head, f.Changed)
	}
}

// TestCleanFilter: a clean filter (what Git LFS is) decides what git records.
func TestCleanFilter(t *testing.T) {
	t.Parallel()
	r := newRepo(t, nil)
	r.Git("config", "filter.up.clean", "tr a-z A-Z")
	r.Git("config", "filter.up.smudge", "cat")
	r.Write(map[string]string{".gitattributes": "*.dat filter=up\n", "x.dat": "HELLO\n"})
	r.Commit("base")
	r.Write(map[string]string{"x.dat": "hello\n"}) // recorded as HELLO: unchanged
	if got := ops(workingTree(t, r.Dir, "")); got != "" {
		t.Fatalf("filtered file equal once cleaned: %q, want no change", got)
	}
	r.Write(map[string]string{"x.dat": "bye\n"})
	set := workingTree(t, r.Dir, "")
	if f := set.File("x.dat"); f == nil || string(f.Head) != "BYE\n" {
		t.Errorf("filtered edit: %q %+v, want the recorded BYE", ops(set), f)
	}
}

// TestSparseCheckout: files outside the sparse set, cone or not (the worktreeConfig
// extension 'git sparse-checkout set' turns on), are not deleted.
func TestSparseCheckout(t *testing.T) {
	shorttest.Slow(t, "runs git many times over real repositories")
	t.Parallel()
	for _, mode := range [][]string{{"--cone", "in"}, {"--no-cone", "/in/"}, {"--cone", "--sparse-index", "in"}} {
		t.Run(strings.Join(mode, " "), func(t *testing.T) {
			up := newRepo(t, map[string]string{"in/a.go": "package in\n", "out/b.go": "package out\n", "top.go": "package top\n"})
			dir := filepath.Join(t.TempDir(), "clone")
			gitIn(t, up.Dir, nil, "clone", "-q", "--no-checkout", up.Dir, dir)
			gitIn(t, dir, nil, append([]string{"sparse-checkout", "set"}, mode...)...)
			gitIn(t, dir, nil, "checkout", "-q", "main")
			if _, err := os.Stat(filepath.Join(dir, "out", "b.go")); err == nil {
				t.Fatal("out/b.go was checked out")
			}
			set := workingTree(t, dir, "")
			if got := ops(set); got != "" {
				t.Fatalf("sparse checkout: %q, want no change", got)
			}
			if b, err := fs.ReadFile(set.HeadFS, "out/b.go"); err != nil || string(b) != "package out\n" {
				t.Errorf("head file system: out/b.go = %q, %v", b, err)
			}
			os.WriteFile(filepath.Join(dir, "in", "a.go"), []byte("package in\n\nvar X = 1\n"), 0o644)
			if got := ops(workingTree(t, dir, "")); got != "modify in/a.go" {
				t.Errorf("edit in a sparse checkout: %q", got)
			}
		})
	}
}

// TestShallowClone: the merge-base is found whenever the history fetched has it; when it
// does not, the error says what to fetch.
func TestShallowClone(t *testing.T) {
	shorttest.Slow(t, "runs git many times over real repositories")
	t.Parallel()
	up := newRepo(t, map[string]string{"a.go": "package a\n"})
	for i := 0; i < 4; i++ {
		up.Write(map[string]string{"a.go": "package a\n\nvar V = " + string(rune('0'+i)) + "\n"})
		up.Commit("c")
	}
	dir := filepath.Join(t.TempDir(), "clone")
	gitIn(t, up.Dir, nil, "clone", "-q", "--depth", "3", "--no-single-branch", "file://"+up.Dir, dir)
	gitIn(t, dir, nil, "checkout", "-q", "-b", "topic", "HEAD~1") // main moved on since
	os.WriteFile(filepath.Join(dir, "b.go"), []byte("package a\n"), 0o644)
	gitIn(t, dir, nil, "add", "b.go")
	gitIn(t, dir, nil, "commit", "-q", "-m", "topic")
	set := workingTree(t, dir, "origin/main")
	if got := ops(set); got != "create b.go" {
		t.Errorf("shallow merge-base: %q, want create b.go", got)
	}
	// A base whose merge-base lies beyond the history fetched.
	up.Git("checkout", "-q", "-b", "old", "HEAD~4")
	up.Write(map[string]string{"old.go": "package a\n"})
	up.Commit("old")
	gitIn(t, dir, nil, "fetch", "-q", "--depth", "1", "origin", "old:refs/remotes/origin/old")
	repo := openEnv(t, dir, []string{})
	_, err := repo.WorkingTree(context.Background(), "origin/old")
	if err == nil || !strings.Contains(err.Error(), "git fetch --deepen=") || !strings.Contains(err.Error(), "--unshallow") {
		t.Errorf("merge-base beyond the history: %v, want what to fetch", err)
	}
}
