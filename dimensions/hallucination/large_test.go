package hallucination

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

// BenchmarkLargeRepo times a full hallucination check of a one-file change in
// github.com/cli/cli/v2 (~150k lines), fetched from the module proxy and put under git.
// Each iteration uses a fresh loader (a cold check; the Go build cache is warm after the
// first). It skips under -short or when the module cannot be downloaded.
func BenchmarkLargeRepo(b *testing.B) {
	if testing.Short() {
		b.Skip("downloads github.com/cli/cli/v2; skipped with -short")
	}
	tmp := b.TempDir()
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/cli/cli/v2@v2.63.0").Output()
	if err != nil {
		b.Skipf("cannot download github.com/cli/cli/v2: %v", err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		b.Skipf("go mod download: no directory in %s", out)
	}
	repo := filepath.Join(tmp, "repo")
	if err := copyTree(mod.Dir, repo); err != nil {
		b.Fatal(err)
	}
	dl := exec.Command("go", "mod", "download")
	dl.Dir = repo
	if out, err := dl.CombinedOutput(); err != nil {
		b.Skipf("cannot download the dependencies of cli/cli: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=b@x", "-c", "user.name=b", "commit", "-qm", "base"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Skipf("git %v: %v\n%s", args, err, out)
		}
	}
	const rel = "pkg/cmdutil/errors.go"
	base, err := os.ReadFile(filepath.Join(repo, rel))
	if err != nil {
		b.Skipf("%s: %v", rel, err)
	}
	head := append(append([]byte{}, base...), "\nfunc agentAdded() string { return strings.ToUpperCase(\"x\") }\n"...)
	if !strings.Contains(string(base), "\"strings\"") {
		head = append(head, "\nvar _ = fmt.Sprintf\n"...)
	}
	if err := os.WriteFile(filepath.Join(repo, rel), head, 0o644); err != nil {
		b.Fatal(err)
	}
	set := &change.Set{Root: repo, HeadFS: os.DirFS(repo), BaseFS: os.DirFS(repo), BaseRev: "HEAD",
		Files: []*change.File{change.NewFile(rel, rel, base, head)}}
	pass := &check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Mode: check.Diff, Languages: languages}
	b.ResetTimer()
	for b.Loop() {
		fs, err := Dimension.Run(pass)
		if err != nil {
			b.Fatal(err)
		}
		if len(fs) == 0 {
			b.Fatal("the added mistake was not found")
		}
	}
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
