package gitchange_test

import (
	"context"
	"slices"
	"testing"

	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// IgnoredFunc answers as git does: untracked files an ignore rule matches (in an ignored
// directory too), never a tracked file, nothing of a submodule, nothing outside a
// repository.
func TestIgnoredFunc(t *testing.T) {
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
