// Package testrepo builds real git repositories for tests and benchmarks: a temporary
// directory, the git binary, a fixed identity and no user or system configuration.
package testrepo

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Repo is a git repository in a temporary directory.
type Repo struct {
	tb  testing.TB
	Dir string
}

// Env is the environment git runs with: no system configuration, HOME in home, a fixed
// identity.
func Env(home string) []string {
	return append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+home, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
}

// New initialises a repository on branch main; with files, they are written and committed.
func New(tb testing.TB, files map[string]string) *Repo {
	tb.Helper()
	dir := tb.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	r := &Repo{tb: tb, Dir: dir}
	r.Git("init", "-q", "-b", "main")
	if len(files) > 0 {
		r.Write(files)
		r.Commit("base")
	}
	return r
}

// Git runs git in the repository and returns its trimmed output.
func (r *Repo) Git(args ...string) string {
	r.tb.Helper()
	return r.GitTB(r.tb, args...)
}

// GitTB is Git reporting failures to tb, for a Repo made from an existing directory.
func (r *Repo) GitTB(tb testing.TB, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = Env(r.Dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Write writes files (paths relative to the repository, '/'-separated).
func (r *Repo) Write(files map[string]string) {
	r.tb.Helper()
	r.WriteTB(r.tb, files)
}

// WriteTB is Write reporting failures to tb.
func (r *Repo) WriteTB(tb testing.TB, files map[string]string) {
	tb.Helper()
	for p, c := range files {
		full := filepath.Join(r.Dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// Commit stages everything and commits it.
func (r *Repo) Commit(msg string) {
	r.tb.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", msg)
}

// Module returns the files of a generated Go module example.com/big: npkg packages of
// about linesPer lines each, every package importing the previous one, every function
// documented and simple, so that a clean change to it verifies clean.
func Module(npkg, linesPer int) map[string]string {
	files := map[string]string{"go.mod": "module example.com/big\n\ngo 1.22\n"}
	for p := 0; p < npkg; p++ {
		var b strings.Builder
		fmt.Fprintf(&b, "// Package p%d is generated.\npackage p%d\n\nimport (\n\t\"strings\"\n", p, p)
		if p > 0 {
			fmt.Fprintf(&b, "\n\t\"example.com/big/p%d\"\n", p-1)
		}
		b.WriteString(")\n\n")
		if p > 0 {
			fmt.Fprintf(&b, "var _ = p%d.F0\n\n", p-1)
		}
		for f := 0; f*10 < linesPer; f++ {
			fmt.Fprintf(&b, "// F%d is generated.\nfunc F%d(s string) string {\n\tif s == \"\" {\n\t\treturn \"x\"\n\t}\n\ts = strings.TrimSpace(s)\n\treturn s + %q\n}\n\n", f, f, fmt.Sprint(f))
		}
		files[fmt.Sprintf("p%d/p.go", p)] = b.String()
	}
	return files
}
