package gitchange

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

func newRepo(t testing.TB, files map[string]string) *testrepo.Repo { return testrepo.New(t, files) }

func gitEnv(home string) []string { return testrepo.Env(home) }

// ops summarises a change set as "op path[<-old]" lines.
func ops(set *change.Set) string {
	var out []string
	for _, f := range set.Files {
		s := string(f.Op) + " " + f.Path
		if f.Op == change.Rename {
			s += "<-" + f.OldPath
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func workingTree(t *testing.T, dir, base string) *change.Set {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	set, err := r.WorkingTree(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func TestWorkingTreeOps(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.go": "package a\n", "b.go": "package b\n", "move.go": "package m\n\nvar X = 1\n", ".gitignore": "build/\n*.log\n", "sub/.gitignore": "gen.go\n"})
	r.Write(map[string]string{
		"a.go":              "package a\n\nvar A = 1\n",
		"new.go":            "package n\n",
		"build/out.go":      "package ignored\n",
		"x.log":             "ignored",
		"sub/gen.go":        "package ignored\n",
		"sub/keep.go":       "package sub\n",
		"renamed.go":        "package m\n\nvar X = 1\n",
		".git/info/exclude": "secret.txt\n",
		"secret.txt":        "ignored via info/exclude",
	})
	os.Remove(filepath.Join(r.Dir, "b.go"))
	os.Remove(filepath.Join(r.Dir, "move.go"))
	set := workingTree(t, r.Dir, "")
	want := "create new.go, create sub/keep.go, delete b.go, modify a.go, rename renamed.go<-move.go"
	if got := ops(set); got != want {
		t.Errorf("ops = %s\nwant  %s", got, want)
	}
	a := set.File("a.go")
	if !a.LineChanged(3) || a.LineChanged(1) || string(a.Base) != "package a\n" {
		t.Errorf("a.go: changed %v base %q", a.Changed, a.Base)
	}
	if set.Root != r.Dir || set.BaseRev == "" {
		t.Errorf("root %s rev %s", set.Root, set.BaseRev)
	}
	// Base and head file systems give whole trees.
	if b, err := fs.ReadFile(set.BaseFS, "b.go"); err != nil || string(b) != "package b\n" {
		t.Errorf("BaseFS b.go = %q, %v", b, err)
	}
	if _, err := fs.ReadFile(set.HeadFS, "b.go"); err == nil {
		t.Error("HeadFS shows the deleted b.go")
	}
	if es, err := fs.ReadDir(set.BaseFS, "sub"); err != nil || len(es) != 1 {
		t.Errorf("BaseFS ReadDir(sub) = %v, %v", es, err)
	}
}

func TestTrackedFileInIgnoredDirectory(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"vendor/x.go": "package x\n"})
	r.Write(map[string]string{".gitignore": "vendor/\n", "vendor/x.go": "package x\n\nvar Y = 2\n", "vendor/untracked.go": "package x\n"})
	if got := ops(workingTree(t, r.Dir, "")); got != "create .gitignore, modify vendor/x.go" {
		t.Errorf("ops = %s", got)
	}
}

func TestBaseRefs(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.go": "package a\n"})
	r.Git("tag", "v1")
	r.Git("checkout", "-q", "-b", "feature")
	r.Write(map[string]string{"f.go": "package a\n\n// F is on feature.\nvar F = 1\n"})
	r.Commit("feature")
	r.Git("checkout", "-q", "main")
	r.Write(map[string]string{"m.go": "package a\n\n// M is on main.\nvar M = 1\n"})
	r.Commit("main moves on")
	r.Git("checkout", "-q", "feature")
	// A branch means its merge-base with HEAD: main's own later commit is not part of the
	// change, only feature's.
	if got := ops(workingTree(t, r.Dir, "main")); got != "create f.go" {
		t.Errorf("--base main: %s", got)
	}
	if got := ops(workingTree(t, r.Dir, "v1")); got != "create f.go" {
		t.Errorf("--base v1: %s", got)
	}
	if got := ops(workingTree(t, r.Dir, r.Git("rev-parse", "main"))); got != "create f.go, delete m.go" {
		t.Errorf("--base <commit of main>: %s", got)
	}
	if got := ops(workingTree(t, r.Dir, "HEAD~1")); got != "create f.go" {
		t.Errorf("--base HEAD~1: %s", got)
	}
	repo, _ := Open(r.Dir)
	if _, err := repo.WorkingTree(context.Background(), "no-such-ref"); err == nil || !strings.Contains(err.Error(), `"no-such-ref"`) {
		t.Errorf("missing ref: %v", err)
	}
	// Detached HEAD works.
	r.Git("checkout", "-q", "--detach", "HEAD")
	r.Write(map[string]string{"d.go": "package a\n"})
	if got := ops(workingTree(t, r.Dir, "")); got != "create d.go" {
		t.Errorf("detached: %s", got)
	}
}

func TestStaged(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.go": "package a\n"})
	r.Write(map[string]string{"a.go": "package a\n\nvar Staged = 1\n", "s.go": "package a\n"})
	r.Git("add", "a.go", "s.go")
	r.Write(map[string]string{"a.go": "package a\n\nvar Unstaged = 2\n", "u.go": "package a\n"})
	repo, _ := Open(r.Dir)
	set, err := repo.Staged(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := ops(set); got != "create s.go, modify a.go" {
		t.Errorf("staged ops = %s", got)
	}
	if h := string(set.File("a.go").Head); !strings.Contains(h, "Staged") {
		t.Errorf("staged content = %q, want the index's", h)
	}
	if b, err := fs.ReadFile(set.HeadFS, "a.go"); err != nil || !strings.Contains(string(b), "Staged") {
		t.Errorf("HeadFS of the index = %q %v", b, err)
	}
}

func TestNotARepositoryAndEmptyRepository(t *testing.T) {
	t.Parallel()
	if _, err := Open(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("plain dir: %v", err)
	}
	r := newRepo(t, nil)
	r.Write(map[string]string{"a.go": "package a\n"})
	if got := ops(workingTree(t, r.Dir, "")); got != "create a.go" {
		t.Errorf("empty repository: %s", got)
	}
	repo, _ := Open(r.Dir)
	if _, err := repo.WorkingTree(context.Background(), "main"); err == nil || !strings.Contains(err.Error(), "no commits") {
		t.Errorf("--base in an empty repository: %v", err)
	}
}

func TestLinkedWorktreeAndShallowClone(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.go": "package a\n"})
	wt := filepath.Join(t.TempDir(), "wt")
	r.Git("worktree", "add", "-q", wt)
	os.WriteFile(filepath.Join(wt, "a.go"), []byte("package a\n\nvar W = 1\n"), 0o644)
	if got := ops(workingTree(t, wt, "")); got != "modify a.go" {
		t.Errorf("linked worktree: %s", got)
	}
	r.Write(map[string]string{"b.go": "package a\n"})
	r.Commit("second")
	clone := filepath.Join(t.TempDir(), "shallow")
	r.Git("clone", "-q", "--depth", "1", "file://"+r.Dir, clone)
	os.WriteFile(filepath.Join(clone, "c.go"), []byte("package a\n"), 0o644)
	if got := ops(workingTree(t, clone, "")); got != "create c.go" {
		t.Errorf("shallow clone: %s", got)
	}
}

func TestSpecialFiles(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.go": "package a\n"})
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("TOP SECRET"), 0o644)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(r.Dir, "link"))
	r.Write(map[string]string{"bin.dat": "a\x00b", "bad.go": "package a\n\nvar s = \"\xff\xfe\"\n", "crlf.go": "package a\r\n\r\nvar C = 1\r\n"})
	big := make([]byte, change.MaxFileSize+10)
	os.WriteFile(filepath.Join(r.Dir, "big.go"), big, 0o644)
	set := workingTree(t, r.Dir, "")
	link := set.File("link")
	if link == nil || !link.Symlink || string(link.Head) != filepath.Join(outside, "secret") {
		t.Errorf("symlink: %+v", link)
	}
	if f := set.File("bin.dat"); f == nil || !f.Binary {
		t.Errorf("binary: %+v", f)
	}
	if f := set.File("big.go"); f == nil || !f.TooLarge || f.Head != nil || f.Size != int64(len(big)) {
		t.Errorf("large file not marked: %+v", f)
	}
	if f := set.File("bad.go"); f == nil || !f.Analyzable() {
		t.Errorf("invalid UTF-8 file: %+v", f)
	}
	if f := set.File("crlf.go"); f == nil || len(f.Changed) != 1 || f.Changed[0].End != 3 {
		t.Errorf("crlf: %+v", f)
	}
	// HeadFS never follows a link out of the repository.
	if _, err := fs.ReadFile(set.HeadFS, "link"); err == nil {
		t.Error("HeadFS followed a symlink out of the repository")
	}
}

func TestUnchangedTreeIsEmpty(t *testing.T) {
	r := newRepo(t, map[string]string{"a.go": "package a\n", "d/b.go": "package d\n"})
	if set := workingTree(t, r.Dir, ""); len(set.Files) != 0 {
		t.Errorf("clean tree reports %s", ops(set))
	}
	// Touching a file (new mtime, same content) is no change.
	now := filepath.Join(r.Dir, "a.go")
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(now, later, later)
	if set := workingTree(t, r.Dir, ""); len(set.Files) != 0 {
		t.Errorf("touched file reported: %s", ops(set))
	}
}

func TestPaths(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{".gitignore": "gen/\n", "a.go": "package a\n"})
	r.Write(map[string]string{"gen/x.go": "package gen\n", "sub/b.go": "package sub\n"})
	set, err := Paths(context.Background(), r.Dir, []string{r.Dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := ops(set); got != "create .gitignore, create a.go, create sub/b.go" || !set.NoBase {
		t.Errorf("check .: %s", got)
	}
	if f := set.File("a.go"); !f.LineChanged(1) {
		t.Error("check mode: a line is not counted as changed")
	}
	// A dot-directory is walked under its own name.
	r.Write(map[string]string{".github/w.yml": "on: push\n"})
	set, err = Paths(context.Background(), r.Dir, []string{filepath.Join(r.Dir, ".github")})
	if err != nil || ops(set) != "create .github/w.yml" {
		t.Errorf("check .github: %v %s", err, ops(set))
	}
	// A named ignored file is checked; a path outside the root is refused.
	set, err = Paths(context.Background(), r.Dir, []string{filepath.Join(r.Dir, "gen/x.go")})
	if err != nil || ops(set) != "create gen/x.go" {
		t.Errorf("named ignored file: %v %s", err, ops(set))
	}
	if _, err := Paths(context.Background(), r.Dir, []string{t.TempDir()}); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("outside path: %v", err)
	}
	if _, err := Paths(context.Background(), r.Dir, []string{filepath.Join(r.Dir, "missing.go")}); err == nil || !strings.Contains(err.Error(), "missing.go") {
		t.Errorf("missing path: %v", err)
	}
	// Go package patterns walk their directory.
	for pattern, want := range map[string]string{
		filepath.Join(r.Dir, "..."):        "create .github/w.yml, create .gitignore, create a.go, create sub/b.go",
		filepath.Join(r.Dir, "sub", "..."): "create sub/b.go",
	} {
		set, err = Paths(context.Background(), r.Dir, []string{pattern})
		if err != nil || ops(set) != want {
			t.Errorf("pattern %s: %v %s, want %s", pattern, err, ops(set), want)
		}
	}
	// Outside any repository, the directory itself is the root.
	plain := t.TempDir()
	os.WriteFile(filepath.Join(plain, "p.go"), []byte("package p\n"), 0o644)
	set, err = Paths(context.Background(), plain, []string{plain})
	if err != nil || ops(set) != "create p.go" {
		t.Errorf("plain dir: %v %s", err, ops(set))
	}
}

// TestSameSizeEditWithMTimeReset checks that a change is found by content: an edit that
// keeps the size and resets the mtime (touch -r) looks clean to the index's stat data.
func TestSameSizeEditWithMTimeReset(t *testing.T) {
	r := newRepo(t, map[string]string{"a.go": "package a\n\nvar A = 1\n"})
	full := filepath.Join(r.Dir, "a.go")
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(full, old, old); err != nil {
		t.Fatal(err)
	}
	r.Git("update-index", "--refresh") // the index now records the old mtime, well before its own
	if got := ops(workingTree(t, r.Dir, "")); got != "" {
		t.Fatalf("clean tree: %s", got)
	}
	r.Write(map[string]string{"a.go": "package a\n\nvar A = 2\n"})
	if err := os.Chtimes(full, old, old); err != nil {
		t.Fatal(err)
	}
	set := workingTree(t, r.Dir, "")
	if got := ops(set); got != "modify a.go" {
		t.Fatalf("ops = %q, want modify a.go", got)
	}
	if f := set.File("a.go"); string(f.Head) != "package a\n\nvar A = 2\n" || !f.LineChanged(3) {
		t.Errorf("a.go: head %q changed %v", f.Head, f.Changed)
	}
}

// TestSpecialFilesAreErrors checks that a named pipe in the working tree — tracked path,
// untracked, or ignored but named .go — fails the scan at once with a message naming it,
// instead of hanging on it or skipping it.
func TestSpecialFilesAreErrors(t *testing.T) {
	tests := []struct {
		name, fifo string
		files      map[string]string
		inCheck    bool // agentverify check walks it too (it skips ignored files)
	}{
		{"untracked", "x.go", nil, true},
		{"untracked, not Go", "notes.txt", nil, true},
		{"ignored Go file", "gen/x.go", map[string]string{".gitignore": "gen/x.go\n"}, false},
		{"ignored go.work", "go.work", map[string]string{".gitignore": "go.work\n"}, false},
		{"replaces a tracked file", "a.go", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"a.go": "package a\n", "gen/keep.go": "package gen\n"}
			for k, v := range tt.files {
				files[k] = v
			}
			r := newRepo(t, files)
			full := filepath.Join(r.Dir, filepath.FromSlash(tt.fifo))
			os.Remove(full)
			if err := mkfifo(full); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			repo, err := Open(r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { _, err := repo.WorkingTree(context.Background(), ""); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tt.fifo+": is a named pipe") {
					t.Errorf("err = %v, want a named-pipe error for %s", err, tt.fifo)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("WorkingTree hangs on a named pipe")
			}
			if _, err := Paths(context.Background(), r.Dir, []string{r.Dir}); tt.inCheck && (err == nil || !strings.Contains(err.Error(), "named pipe")) {
				t.Errorf("Paths: err = %v, want a named-pipe error", err)
			}
		})
	}
}
