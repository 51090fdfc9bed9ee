package gitchange

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5"
)

var (
	bigOnce sync.Once
	bigDir  string
	bigErr  error
)

// bigRepo builds, once per process, a repository with 20,000 tracked files in a realistic
// tree and 50,000 ignored files under node_modules/ and build/, with one file modified.
func bigRepo(b *testing.B) string {
	b.Helper()
	bigOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agentverify-bench")
		if err != nil {
			bigErr = err
			return
		}
		write := func(p, content string) {
			full := filepath.Join(dir, p)
			os.MkdirAll(filepath.Dir(full), 0o755)
			if err := os.WriteFile(full, []byte(content), 0o644); err != nil && bigErr == nil {
				bigErr = err
			}
		}
		write(".gitignore", "node_modules/\nbuild/\n")
		for i := 0; i < 20000; i++ {
			write(fmt.Sprintf("pkg%03d/sub%02d/file%d.go", i/200, i/20%10, i), fmt.Sprintf("package sub\n\n// V%d is a value.\nvar V%d = %d\n", i, i, i))
		}
		for i := 0; i < 50000; i++ {
			top := "node_modules"
			if i%2 == 1 {
				top = "build"
			}
			write(fmt.Sprintf("%s/m%03d/d%02d/f%d.js", top, i/500, i/50%10, i), "module.exports = 1\n")
		}
		for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "base"}} {
			cmd := exec.Command("git", args...)
			cmd.Dir = dir
			cmd.Env = gitEnv(dir)
			if out, err := cmd.CombinedOutput(); err != nil {
				bigErr = fmt.Errorf("git %v: %v %s", args, err, out)
				return
			}
		}
		write("pkg050/sub00/file10000.go", "package sub\n\n// V10000 is a value.\nvar V10000 = -1\n")
		bigDir = dir
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	return bigDir
}

// BenchmarkWorkingTreeChangeSet measures the change set of a one-file change in a repository
// of 20k tracked and 50k ignored files.
func BenchmarkWorkingTreeChangeSet(b *testing.B) {
	dir := bigRepo(b)
	r, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := cpuTime()
	for b.Loop() {
		set, err := r.WorkingTree(context.Background(), "")
		if err != nil || len(set.Files) != 1 {
			b.Fatalf("%v, %d files", err, len(set.Files))
		}
	}
	b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// BenchmarkGoGitStatus is the same question answered by go-git's Worktree.Status, which
// walks the ignored directories too: the cost WorkingTree avoids.
func BenchmarkGoGitStatus(b *testing.B) {
	dir := bigRepo(b)
	repo, err := git.PlainOpen(dir)
	if err != nil {
		b.Fatal(err)
	}
	wt, _ := repo.Worktree()
	b.ResetTimer()
	for b.Loop() {
		st, err := wt.Status()
		if err != nil || len(st) != 1 {
			b.Fatalf("%v, %d entries", err, len(st))
		}
	}
}
