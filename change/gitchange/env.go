package gitchange

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

// GitVars returns the variables of environ through which git is told which repository,
// index and configuration to use (every GIT_* variable): git sets some of them for its
// hooks (GIT_INDEX_FILE for 'git commit -a' and 'git commit PATH', GIT_DIR in a linked
// worktree, GIT_CONFIG_PARAMETERS for 'git -c'), a user sets others. A caller that
// verifies on behalf of another process (the shared server) passes that process's
// variables, never its own.
func GitVars(environ []string) []string {
	out := []string{}
	for _, kv := range environ {
		if strings.HasPrefix(kv, "GIT_") && strings.Contains(kv, "=") {
			out = append(out, kv)
		}
	}
	return out
}

// unsupportedVars are git variables whose meaning the repository reader does not follow:
// a run with one of them set is refused rather than answered about another repository.
var unsupportedVars = []string{"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE"}

// layoutVars are the variables that move the repository away from where the directory
// walk finds it: with one of them set, git itself says where it is.
var layoutVars = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR"}

// callerEnv is the caller's git environment: its GIT_* variables and the directory it runs in.
type callerEnv struct {
	vars map[string]string
	list []string
}

func newCallerEnv(vars []string) *callerEnv {
	e := &callerEnv{vars: map[string]string{}, list: vars}
	for _, kv := range vars {
		k, v, _ := strings.Cut(kv, "=")
		e.vars[k] = v
	}
	return e
}

// environ is the environment of a git command run for the caller: this process's
// environment without its own git variables, with the caller's.
func (e *callerEnv) environ() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			out = append(out, kv)
		}
	}
	return append(out, e.list...)
}

// git runs the user's git command in dir with the caller's environment and returns its
// standard output. The error names the command and carries git's own message.
func (e *callerEnv) git(ctx context.Context, dir string, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = e.environ()
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if errors.Is(err, exec.ErrNotFound) {
		return nil, fmt.Errorf("git %s: the git command is needed here and is not installed (install git)", args[0])
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], strings.Join(strings.Fields(msg), " "))
	}
	return out, nil
}

// layout is where a repository lives: its git directory, the common directory of a linked
// worktree (the git directory itself otherwise) and the top of its working tree.
type layout struct {
	gitDir, commonDir, root string
}

// discover finds the repository containing dir as git would for the caller: by the
// caller's GIT_DIR, GIT_WORK_TREE or GIT_COMMON_DIR when set (asking git, which alone knows
// all their rules), else by looking for .git in dir and its parents.
func (e *callerEnv) discover(dir string) (layout, error) {
	for _, k := range unsupportedVars {
		if e.vars[k] != "" {
			return layout{}, fmt.Errorf("%s is set: agentverify does not read repositories through it; run without it", k)
		}
	}
	for _, k := range layoutVars {
		if e.vars[k] != "" {
			return e.askLayout(dir)
		}
	}
	for d := dir; ; d = filepath.Dir(d) {
		if l, ok, err := dotGit(d); ok || err != nil {
			return l, err
		}
		if filepath.Dir(d) == d {
			return layout{}, ErrNotRepository
		}
	}
}

// ErrNotRepository is the error of opening a directory that no git repository holds;
// any other error of OpenEnv is a repository that is there but cannot be read.
var ErrNotRepository = errors.New("not a git repository")

// askLayout asks git where the repository of dir is.
func (e *callerEnv) askLayout(dir string) (layout, error) {
	out, err := e.git(context.Background(), dir, nil, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--show-toplevel")
	if err != nil {
		return layout{}, err
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 3 || lines[2] == "" {
		return layout{}, fmt.Errorf("%s: a bare repository has no working tree to verify", dir)
	}
	return layout{gitDir: lines[0], commonDir: lines[1], root: lines[2]}, nil
}

// dotGit reads the .git entry of dir: a directory, or a file "gitdir: PATH" (a linked
// worktree or a submodule) whose directory may name a common one.
func dotGit(dir string) (layout, bool, error) {
	dot := filepath.Join(dir, ".git")
	fi, err := os.Stat(dot)
	if err != nil {
		return layout{}, false, nil
	}
	if fi.IsDir() {
		return layout{gitDir: dot, commonDir: dot, root: dir}, true, nil
	}
	b, err := os.ReadFile(dot)
	if err != nil {
		return layout{}, true, err
	}
	d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return layout{}, true, fmt.Errorf("%s: no gitdir line", dot)
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(dir, d)
	}
	l := layout{gitDir: filepath.Clean(d), commonDir: filepath.Clean(d), root: dir}
	if c, err := os.ReadFile(filepath.Join(l.gitDir, "commondir")); err == nil {
		common := strings.TrimSpace(string(c))
		if !filepath.IsAbs(common) {
			common = filepath.Join(l.gitDir, common)
		}
		l.commonDir = filepath.Clean(common)
	}
	return l, true, nil
}

// indexPath is the index file git uses for the caller: GIT_INDEX_FILE (relative to the
// directory git runs in, cwd) or the git directory's index.
func (e *callerEnv) indexPath(l layout, cwd string) string {
	p := e.vars["GIT_INDEX_FILE"]
	switch {
	case p == "":
		return filepath.Join(l.gitDir, "index")
	case filepath.IsAbs(p):
		return p
	}
	return filepath.Join(cwd, p)
}
