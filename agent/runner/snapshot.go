package runner

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// git runs git in dir with extra environment and returns its trimmed output.
func git(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return strings.TrimSpace(out.String()), nil
}

// Snapshot records the working tree of the repository holding dir — tracked changes and
// untracked files that are not ignored — as a commit object whose parent is HEAD, and
// returns its hash. It uses a temporary copy of the index, so neither the index nor the
// working tree changes, and no ref points at the commit. ok is false when dir is not in
// a git repository; commit is "" (and ok true) in a repository without commits.
func Snapshot(ctx context.Context, dir string) (commit string, ok bool, err error) {
	if _, err := git(ctx, dir, nil, "rev-parse", "--is-inside-work-tree"); err != nil {
		return "", false, nil
	}
	indexPath, err := git(ctx, dir, nil, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		return "", true, err
	}
	tmp, err := os.CreateTemp("", "agentverify-index-*")
	if err != nil {
		return "", true, fmt.Errorf("snapshot: %w", err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName)
	// Starting from the real index lets git trust its stat data and hash only what changed.
	if src, err := os.Open(indexPath); err == nil {
		_, err = io.Copy(tmp, src)
		src.Close()
		if err != nil {
			tmp.Close()
			return "", true, fmt.Errorf("snapshot: copying the index: %w", err)
		}
	}
	tmp.Close()
	if fi, err := os.Stat(tmpName); err == nil && fi.Size() == 0 {
		os.Remove(tmpName) // git refuses an empty index file; no file means an empty index
	}
	env := []string{"GIT_INDEX_FILE=" + tmpName,
		"GIT_AUTHOR_NAME=agentverify", "GIT_AUTHOR_EMAIL=agentverify@localhost",
		"GIT_COMMITTER_NAME=agentverify", "GIT_COMMITTER_EMAIL=agentverify@localhost"}
	top, err := git(ctx, dir, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", true, err
	}
	if _, err := git(ctx, top, env, "add", "-A", "."); err != nil {
		return "", true, fmt.Errorf("snapshot: %w", err)
	}
	tree, err := git(ctx, top, env, "write-tree")
	if err != nil {
		return "", true, fmt.Errorf("snapshot: %w", err)
	}
	head, err := git(ctx, top, nil, "rev-parse", "--verify", "-q", "HEAD")
	if err != nil || head == "" {
		// A repository without commits has no revision a change can be measured against.
		return "", true, nil
	}
	args := []string{"commit-tree", tree, "-m", "agentverify: working tree at the start of an agent run", "-p", head}
	commit, err = git(ctx, top, env, args...)
	if err != nil {
		return "", true, fmt.Errorf("snapshot: %w", err)
	}
	return commit, true, nil
}

// repoTop returns the top directory of the repository holding dir.
func repoTop(ctx context.Context, dir string) (string, error) {
	top, err := git(ctx, dir, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	return filepath.Clean(top), nil
}
