package gitchange

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// TestRenameWithEdit: a file moved and edited a little is a rename, as git reports it
// (R0xx), not a delete and a create.
func TestRenameWithEdit(t *testing.T) {
	t.Parallel()
	body := "package m\n\n// A is a value.\nvar A = 1\n\n// B is a value.\nvar B = 2\n\n// C is a value.\nvar C = 3\n"
	r := newRepo(t, map[string]string{"old/m.go": body})
	os.Remove(filepath.Join(r.Dir, "old", "m.go"))
	r.Write(map[string]string{"new/m.go": strings.Replace(body, "var C = 3", "var C = 4", 1)})
	set := workingTree(t, r.Dir, "")
	if got := ops(set); got != "rename new/m.go<-old/m.go" {
		t.Errorf("rename with an edit: %q", got)
	}
	if f := set.File("new/m.go"); f == nil || len(f.Changed) != 1 || f.Changed[0].Start != 10 {
		t.Errorf("changed lines of the renamed file: %+v", f)
	}
}

// renameLines are the lines random files are made of: few, so that files share spans.
var renameLines = []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"}

// TestRenamesAsGit: on random moves, edits, deletions and creations, the renames found
// are the ones 'git diff --cached -M' reports.
func TestRenamesAsGit(t *testing.T) {
	// Not parallel: it sets the rapid.checks flag, which the other one sets and reads.
	if testing.Short() {
		t.Skip("runs git many times")
	}
	// Each check runs git five times: 30 checks, unless -rapid.checks says otherwise.
	if f := flag.Lookup("rapid.checks"); f != nil && f.Value.String() == f.DefValue {
		f.Value.Set("30")
		defer f.Value.Set(f.DefValue)
	}
	rapid.Check(t, func(rt *rapid.T) {
		r := randomStagedChange(t, rt)
		want := gitRenames(r.Git("diff", "--cached", "-M", "--name-status", "-z"))
		if got := stagedRenames(t, r.Dir); strings.Join(got, " ") != strings.Join(want, " ") {
			rt.Fatalf("renames %v, git says %v", got, want)
		}
	})
}

// randomStagedChange commits random files, then moves, edits and deletes them at random
// and stages the result.
func randomStagedChange(t *testing.T, rt *rapid.T) *testrepo.Repo {
	r := newRepo(t, nil)
	base := randomFiles(rt)
	r.Write(base)
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "base")
	for p, content := range base {
		moveRandomly(rt, r.Dir, p, content)
	}
	r.Git("add", "-A")
	return r
}

// randomFiles draws up to 8 files of up to 12 lines in two directories.
func randomFiles(rt *rapid.T) map[string]string {
	files := map[string]string{}
	for i, n := 0, rapid.IntRange(1, 8).Draw(rt, "files"); i < n; i++ {
		var b strings.Builder
		for j, k := 0, rapid.IntRange(1, 12).Draw(rt, "lines"); j < k; j++ {
			b.WriteString(rapid.SampledFrom(renameLines).Draw(rt, "line") + "\n")
		}
		files[fmt.Sprintf("d%d/f%d.txt", i%2, i)] = b.String()
	}
	return files
}

// moveRandomly keeps, deletes, or moves (perhaps edited, perhaps renamed) the file p.
func moveRandomly(rt *rapid.T, dir, p, content string) {
	fate := rapid.IntRange(0, 3).Draw(rt, "fate "+p)
	if fate == 0 {
		return
	}
	os.Remove(filepath.Join(dir, p))
	if fate == 1 {
		return
	}
	ls := strings.SplitAfter(content, "\n")
	for e, k := 0, rapid.IntRange(0, 3).Draw(rt, "edits"); e < k; e++ {
		ls[rapid.IntRange(0, len(ls)-1).Draw(rt, "at")] = rapid.SampledFrom(renameLines).Draw(rt, "new") + "\n"
	}
	to := "moved/" + filepath.Base(p)
	if rapid.Bool().Draw(rt, "rename") {
		to = "moved/x" + filepath.Base(p)
	}
	full := filepath.Join(dir, filepath.FromSlash(to))
	os.MkdirAll(filepath.Dir(full), 0o755)
	os.WriteFile(full, []byte(strings.Join(ls, "")), 0o644)
}

// stagedRenames lists the renames of the staged change as "old->new", sorted.
func stagedRenames(t *testing.T, dir string) []string {
	repo, err := OpenEnv(dir, []string{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := repo.Staged(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range set.Files {
		if f.Op == "rename" {
			got = append(got, f.OldPath+"->"+f.Path)
		}
	}
	sort.Strings(got)
	return got
}

// gitRenames parses 'git diff --name-status -z' into "old->new" renames.
func gitRenames(out string) []string {
	f := strings.Split(out, "\x00")
	var rs []string
	for i := 0; i < len(f); i++ {
		if strings.HasPrefix(f[i], "R") && i+2 < len(f) {
			rs = append(rs, f[i+1]+"->"+f[i+2])
			i += 2
		} else if f[i] != "" && len(f[i]) <= 4 {
			i++
		}
	}
	sort.Strings(rs)
	return rs
}

// TestP24FilesAreGitDiffs: on random moves, edits, deletions and creations, the change
// holds exactly the files 'git diff --cached -M --name-status' lists, each with git's
// operation: no file the diff does not list, none it lists left out.
func TestP24FilesAreGitDiffs(t *testing.T) {
	// Not parallel: it sets the rapid.checks flag, which the other one sets and reads.
	if testing.Short() {
		t.Skip("runs git many times")
	}
	if f := flag.Lookup("rapid.checks"); f != nil && f.Value.String() == f.DefValue {
		f.Value.Set("30")
		defer f.Value.Set(f.DefValue)
	}
	rapid.Check(t, func(rt *rapid.T) {
		r := randomStagedChange(t, rt)
		want := gitFiles(r.Git("diff", "--cached", "-M", "--name-status", "-z"))
		repo, err := OpenEnv(r.Dir, []string{})
		if err != nil {
			t.Fatal(err)
		}
		set, err := repo.Staged(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range set.Files {
			got = append(got, string(f.Op)+" "+f.Path)
		}
		sort.Strings(got)
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			rt.Fatalf("files %v, git says %v", got, want)
		}
	})
}

// gitFiles parses 'git diff --name-status -z' into "op path", sorted.
func gitFiles(out string) []string {
	ops := map[byte]string{'A': "create", 'M': "modify", 'D': "delete", 'R': "rename"}
	f := strings.Split(out, "\x00")
	var fs []string
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "" {
			continue
		}
		if f[i][0] == 'R' && i+2 < len(f) {
			fs = append(fs, "rename "+f[i+2])
			i += 2
			continue
		}
		fs = append(fs, ops[f[i][0]]+" "+f[i+1])
		i++
	}
	sort.Strings(fs)
	return fs
}
