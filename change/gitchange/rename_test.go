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
)

// TestRenameWithEdit: a file moved and edited a little is a rename, as git reports it
// (R0xx), not a delete and a create.
func TestRenameWithEdit(t *testing.T) {
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

// TestRenamesAsGit: on random moves, edits, deletions and creations, the renames found
// are the ones 'git diff --cached -M' reports.
func TestRenamesAsGit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git many times")
	}
	// Each check runs git five times: 30 checks, unless -rapid.checks says otherwise.
	if f := flag.Lookup("rapid.checks"); f != nil && f.Value.String() == f.DefValue {
		f.Value.Set("30")
		defer f.Value.Set(f.DefValue)
	}
	lines := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"}
	rapid.Check(t, func(rt *rapid.T) {
		r := newRepo(t, nil)
		n := rapid.IntRange(1, 8).Draw(rt, "files")
		base := map[string]string{}
		for i := 0; i < n; i++ {
			var b strings.Builder
			for j, k := 0, rapid.IntRange(1, 12).Draw(rt, "lines"); j < k; j++ {
				b.WriteString(rapid.SampledFrom(lines).Draw(rt, "line") + "\n")
			}
			base[fmt.Sprintf("d%d/f%d.txt", i%2, i)] = b.String()
		}
		r.Write(base)
		r.Git("add", "-A")
		r.Git("commit", "-q", "-m", "base")
		for p, content := range base {
			switch rapid.IntRange(0, 3).Draw(rt, "fate "+p) {
			case 0: // kept
			case 1: // deleted
				os.Remove(filepath.Join(r.Dir, p))
			default: // moved, perhaps edited, perhaps keeping its name
				os.Remove(filepath.Join(r.Dir, p))
				ls := strings.SplitAfter(content, "\n")
				for e, k := 0, rapid.IntRange(0, 3).Draw(rt, "edits"); e < k && len(ls) > 0; e++ {
					ls[rapid.IntRange(0, len(ls)-1).Draw(rt, "at")] = rapid.SampledFrom(lines).Draw(rt, "new") + "\n"
				}
				to := "moved/" + filepath.Base(p)
				if rapid.Bool().Draw(rt, "rename") {
					to = "moved/x" + filepath.Base(p)
				}
				r.Write(map[string]string{to: strings.Join(ls, "")})
			}
		}
		r.Git("add", "-A")
		want := gitRenames(r.Git("diff", "--cached", "-M", "--name-status", "-z"))
		repo, err := OpenEnv(r.Dir, []string{})
		if err != nil {
			rt.Fatal(err)
		}
		set, err := repo.Staged(context.Background())
		if err != nil {
			rt.Fatal(err)
		}
		var got []string
		for _, f := range set.Files {
			if f.Op == "rename" {
				got = append(got, f.OldPath+"->"+f.Path)
			}
		}
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			rt.Fatalf("renames %v, git says %v", got, want)
		}
	})
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
