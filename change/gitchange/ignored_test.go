package gitchange_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/internal/testkit/pathenv"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// IgnoredFunc answers as git does: untracked files an ignore rule matches (in an ignored
// directory too), never a tracked file, nothing of a submodule, nothing outside a
// repository.
func TestIgnoredFunc(t *testing.T) {
	shorttest.Slow(t, "runs git many times over real repositories")
	t.Parallel()
	ctx := context.Background()
	sub := testrepo.New(t, map[string]string{"a_local.go": "package a\n"})
	r := testrepo.New(t, map[string]string{".gitignore": "*_local.go\ngen/\n", "tracked_local.go": "package m\n", "m.go": "package m\n"})
	r.Git("add", "-f", "tracked_local.go")
	r.Git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.Dir, "sub")
	r.Write(map[string]string{"x_local.go": "package m\n", "gen/g.go": "package gen\n", "y.go": "package m\n", "sub/b_local.go": "package a\n"})
	got, err := gitchange.IgnoredFunc(r.Dir)(ctx, []string{"gen/g.go", "m.go", "sub/a_local.go", "sub/b_local.go", "tracked_local.go", "x_local.go", "y.go"})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if want := []string{"gen/g.go", "x_local.go"}; !slices.Equal(got, want) {
		t.Errorf("ignored = %q, want %q", got, want)
	}
	if got, err := gitchange.IgnoredFunc(t.TempDir())(ctx, []string{"x_local.go"}); err != nil || got != nil {
		t.Errorf("outside a repository: %q, %v", got, err)
	}
}

// The working tree's Ignored asks git with the caller's git variables, as every git
// command run for the caller does: an exclude file the caller's 'git -c
// core.excludesFile=…' names (GIT_CONFIG_PARAMETERS) counts, though this process has none.
func TestWorkingTreeIgnoredUsesCallerEnv(t *testing.T) {
	t.Parallel()
	r := testrepo.New(t, map[string]string{"m.go": "package m\n"})
	excludes := filepath.Join(t.TempDir(), "excludes")
	if err := os.WriteFile(excludes, []byte("*_local.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Write(map[string]string{"m.go": "package m\n\nvar X = 1\n", "x_local.go": "package m\n"})
	repo, err := gitchange.OpenEnv(r.Dir, []string{"GIT_CONFIG_PARAMETERS='core.excludesfile'='" + excludes + "'"})
	if err != nil {
		t.Fatal(err)
	}
	set, err := repo.WorkingTree(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := set.Ignored(context.Background(), []string{"x_local.go"})
	if err != nil || !slices.Equal(got, []string{"x_local.go"}) {
		t.Errorf("ignored = %q, %v; want x_local.go, ignored by the caller's core.excludesFile", got, err)
	}
}

// Git never ignores a tracked file, so the working tree's Ignored runs no git for
// tracked paths: with git gone from PATH it still answers for them, and an untracked one
// still goes to git (here: the error naming it).
func TestWorkingTreeIgnoredAsksOnlyUntracked(t *testing.T) {
	r := testrepo.New(t, map[string]string{".gitignore": "*_gen.go\n", "m.go": "package m\n"})
	r.Write(map[string]string{"m.go": "package m\n\nvar X = 1\n", "x_gen.go": "package m\n"})
	repo, err := gitchange.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	set, err := repo.WorkingTree(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := set.Ignored(context.Background(), []string{"m.go", "x_gen.go"}); err != nil || !slices.Equal(got, []string{"x_gen.go"}) {
		t.Fatalf("ignored = %q, %v; want x_gen.go", got, err)
	}
	pathenv.Hide(t, "git")
	if got, err := set.Ignored(context.Background(), []string{"m.go", ".gitignore"}); err != nil || len(got) != 0 {
		t.Errorf("tracked paths without git: ignored = %q, %v; want none, and no git run", got, err)
	}
	if _, err := set.Ignored(context.Background(), []string{"x_gen.go"}); err == nil {
		t.Error("an untracked path without git: no error; want git's absence reported")
	}
}

// IgnoredFunc (in-memory edits) reads the index too: git runs only for untracked paths.
func TestIgnoredFuncAsksOnlyUntracked(t *testing.T) {
	shorttest.Slow(t, "runs git many times over real repositories")
	r := testrepo.New(t, map[string]string{".gitignore": "*_gen.go\n", "m.go": "package m\n"})
	r.Write(map[string]string{"x_gen.go": "package m\n"})
	ignored := gitchange.IgnoredFunc(r.Dir)
	if got, err := ignored(context.Background(), []string{"m.go", "x_gen.go"}); err != nil || !slices.Equal(got, []string{"x_gen.go"}) {
		t.Fatalf("ignored = %q, %v; want x_gen.go", got, err)
	}
	pathenv.Hide(t, "git")
	if got, err := ignored(context.Background(), []string{"m.go", ".gitignore"}); err != nil || len(got) != 0 {
		t.Errorf("tracked paths without git: ignored = %q, %v; want none, and no git run", got, err)
	}
	if _, err := ignored(context.Background(), []string{"x_gen.go"}); err == nil {
		t.Error("an untracked path without git: no error; want git's absence reported")
	}
}
