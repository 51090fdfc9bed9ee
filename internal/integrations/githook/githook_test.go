package githook

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestInstall(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	git(t, repo, "init", "-q")
	path, err := Install(ctx, repo, "/opt/agentverify", false)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(repo, ".git", "hooks", "pre-commit"); path != want {
		t.Errorf("hook at %s, want %s", path, want)
	}
	b, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if !strings.Contains(string(b), "diff --staged") || fi.Mode()&0o111 == 0 {
		t.Errorf("hook content %q mode %v", b, fi.Mode())
	}
	// Reinstalling over our own hook is fine; a foreign hook is kept without --force.
	if _, err := Install(ctx, repo, "/opt/agentverify", false); err != nil {
		t.Errorf("reinstall: %v", err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\nmake lint\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(ctx, repo, "/opt/agentverify", false); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("foreign hook overwritten or unclear error: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "#!/bin/sh\nmake lint\n" {
		t.Errorf("foreign hook changed: %q", b)
	}
	if _, err := Install(ctx, repo, "/opt/agentverify", true); err != nil {
		t.Errorf("--force: %v", err)
	}
	if _, err := Install(ctx, t.TempDir(), "x", false); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("non-repo: %v", err)
	}
}

func TestInstallLinkedWorktree(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	git(t, repo, "init", "-q")
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "init")
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, repo, "worktree", "add", "-q", wt)
	path, err := Install(ctx, wt, "/opt/agentverify", false)
	if err != nil {
		t.Fatal(err)
	}
	// Git runs the hooks of the common directory for every worktree.
	if want := filepath.Join(repo, ".git", "hooks", "pre-commit"); path != want {
		t.Errorf("hook at %s, want %s", path, want)
	}
}

func TestScriptQuotes(t *testing.T) {
	s := string(Script("/path/with 'quote"))
	if !strings.Contains(s, `'/path/with '\''quote'`) {
		t.Errorf("binary not shell-quoted:\n%s", s)
	}
}
