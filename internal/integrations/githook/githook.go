// Package githook installs agentverify as a plain git pre-commit hook, for repositories
// that do not use the pre-commit framework. The hook runs "agentverify diff --staged".
package githook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Marker identifies a hook written by agentverify; any other hook is foreign.
const Marker = "# agentverify pre-commit hook"

// Script returns the hook script. binary is the agentverify to fall back on when none is on
// PATH at commit time.
func Script(binary string) []byte {
	return []byte(`#!/bin/sh
` + Marker + ` (written by 'agentverify hook install').
# Verifies the staged change before each commit; bypass once with 'git commit --no-verify'.
av="${AGENTVERIFY:-agentverify}"
if ! command -v "$av" >/dev/null 2>&1; then av=` + shellQuote(binary) + `; fi
exec "$av" diff --staged
`)
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Install writes the pre-commit hook of the repository containing dir and returns its path.
// The hooks directory is the one git uses (core.hooksPath, and the common directory of a
// linked worktree). A hook that agentverify did not write is kept unless force is set.
func Install(ctx context.Context, dir, binary string, force bool) (string, error) {
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "--path-format=absolute", "--git-path", "hooks")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("%s: not a git repository (%s)", dir, msg)
	}
	hooks := strings.TrimSpace(string(out))
	path := filepath.Join(hooks, "pre-commit")
	old, err := os.ReadFile(path)
	switch {
	case err == nil && !bytes.Contains(old, []byte(Marker)) && !force:
		return "", fmt.Errorf("%s: a pre-commit hook that agentverify did not write is in place; keep it, or replace it with --force", path)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return "", err
	}
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(hooks, ".pre-commit.*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(Script(binary)); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Chmod(tmp.Name(), 0o755); err != nil {
		return "", err
	}
	return path, os.Rename(tmp.Name(), path)
}
