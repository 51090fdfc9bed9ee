package gitchange

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// IgnoredFunc returns change.Set.Ignored for a head on the disk at root: git itself says
// which paths it ignores (check-ignore: every ignore file and setting git reads; tracked
// files are never ignored). Outside a repository nothing is ignored. Paths inside a
// submodule or a nested repository belong to another repository's rules and are never
// reported ignored.
func IgnoredFunc(root string) func(ctx context.Context, paths []string) ([]string, error) {
	return untracked(func() *index.Index { return indexAt(root) }, ignoredFunc(root, nil))
}

// indexAt returns the index of the repository whose working tree is root, or nil when
// root is not the top of one or its index cannot be read (every path then goes to git).
func indexAt(root string) *index.Index {
	r, err := Open(root)
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(root); err != nil || real != r.root {
		return nil
	}
	idx, err := r.index()
	if err != nil {
		return nil
	}
	return idx
}

// ignoredFunc is IgnoredFunc with git run in the environment env (nil: this process's),
// so a repository opened for a caller is asked with the caller's git variables (its
// GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_PARAMETERS), as every other git command is.
func ignoredFunc(root string, env []string) func(ctx context.Context, paths []string) ([]string, error) {
	return func(ctx context.Context, paths []string) ([]string, error) {
		if len(paths) == 0 {
			return nil, nil
		}
		out, err := checkIgnore(ctx, root, env, paths)
		if !errors.Is(err, errOtherRepository) {
			return out, err
		}
		// Ask again one directory at a time, leaving out those of another repository.
		out = nil
		byDir := map[string][]string{}
		for _, p := range paths {
			byDir[path.Dir(p)] = append(byDir[path.Dir(p)], p)
		}
		for _, dir := range slices.Sorted(maps.Keys(byDir)) {
			ign, err := checkIgnore(ctx, root, env, byDir[dir])
			if err != nil && !errors.Is(err, errOtherRepository) {
				return nil, err
			}
			out = append(out, ign...)
		}
		return out, nil
	}
}

// errOtherRepository is git's refusal to judge a path of a submodule or nested repository.
var errOtherRepository = errors.New("path in another repository")

// checkIgnore runs git check-ignore on paths in root, in the environment env.
func checkIgnore(ctx context.Context, root string, env, paths []string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "check-ignore", "-z", "--stdin")
	cmd.Dir, cmd.Env = root, env
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\x00") + "\x00")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.ExitCode() == 1: // none is ignored
		return nil, nil
	case strings.Contains(stderr.String(), "not a git repository"):
		return nil, nil
	case strings.Contains(stderr.String(), "is in submodule") || strings.Contains(stderr.String(), "beyond a symbolic link"):
		return nil, errOtherRepository
	case errors.Is(err, exec.ErrNotFound):
		return nil, errors.New("git check-ignore: the git command is needed to tell which files git ignores, and is not installed (install git)")
	default:
		return nil, fmt.Errorf("git check-ignore in %s: %s", root, strings.Join(strings.Fields(stderr.String()+" "+err.Error()), " "))
	}
	var out []string
	for _, p := range strings.Split(stdout.String(), "\x00") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out, nil
}
