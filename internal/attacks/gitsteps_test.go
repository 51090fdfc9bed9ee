package attacks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// Steps that use git as a user does: the installed pre-commit hook run by a real 'git
// commit', and real submodules.

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
	goEnv   []string // this user's Go caches, for runs whose HOME is elsewhere
)

// TestMain removes the agentverify binary built for the hook attacks.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// binary builds agentverify once per test run: the hook git runs is the real command.
func binary() (string, error) {
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "agentverify-attacks-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "agentverify")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/agentverify/agentverify/cmd/agentverify").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		out, err = exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output()
		f := strings.Fields(string(out))
		if err != nil || len(f) != 2 {
			binErr = fmt.Errorf("go env: %v %q", err, out)
			return
		}
		goEnv = []string{"GOCACHE=" + f[0], "GOMODCACHE=" + f[1], "GOTELEMETRY=off"}
	})
	return binPath, binErr
}

// gitStep runs the steps hook-install, submodule and subcommit.
func (r *runner) gitStep(st step) error {
	switch st.verb {
	case "hook-install":
		bin, err := binary()
		if err != nil {
			return err
		}
		cmd := exec.Command(bin, "hook", "install")
		cmd.Dir = r.root
		cmd.Env = r.binEnv(false)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("hook install: %v %s", err, out)
		}
		return nil
	case "submodule":
		lib := testrepo.New(r.t, map[string]string{"lib.go": "// Package lib is a library.\npackage lib\n"})
		r.repo.Git("-c", "protocol.file.allow=always", "submodule", "add", "-q", lib.Dir, st.args[0])
		return nil
	case "subcommit":
		sub := &testrepo.Repo{Dir: r.path(st.args[0])}
		sub.GitTB(r.t, "add", "-A")
		sub.GitTB(r.t, "commit", "-q", "-m", "inside the submodule")
		return nil
	}
	return fmt.Errorf("unknown step %q", st.verb)
}

// binEnv is the environment of the real command and of git running its hook: the
// built binary as the hook's agentverify, the shared server on or off, and a cache
// directory of the run's own for the server's socket.
func (r *runner) binEnv(served bool) []string {
	if r.home == "" {
		r.home = r.t.TempDir()
	}
	env := append(append(testrepo.Env(r.home), goEnv...), "AGENTVERIFY="+binPath, "AGENTVERIFY_SERVER_IDLE=1m")
	if served {
		return append(env, "XDG_CACHE_HOME="+r.cacheDir())
	}
	return append(env, "AGENTVERIFY_NO_SERVER=1")
}

// cacheDir is the run's cache directory; the servers started in it are stopped when the
// test ends.
func (r *runner) cacheDir() string {
	if r.cache == "" {
		r.cache = r.t.TempDir()
		r.t.Cleanup(func() {
			cmd := exec.Command(binPath, "server", "stop")
			cmd.Env = append(testrepo.Env(r.home), "XDG_CACHE_HOME="+r.cache)
			cmd.Run()
		})
	}
	return r.cache
}

// gitRun runs a real process for `run git ARGS` (git, its hook verifying in its own
// process), `run git-served ARGS` (git, its hook verifying on the shared server) and
// `run av-served ARGS` (the agentverify command with the shared server), and returns its
// exit code and output: a commit the hook refuses exits 1.
func (r *runner) gitRun(ctx context.Context, args []string) outcome {
	bin, err := binary()
	if err != nil {
		return outcome{exit: -1, out: err.Error()}
	}
	name, served := "git", args[0] != "git"
	if args[0] == "av-served" {
		name = bin
	}
	cmd := exec.CommandContext(ctx, name, args[1:]...)
	cmd.Dir = r.root
	cmd.Env = r.binEnv(served)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return outcome{exit: exit.ExitCode(), out: string(out)}
	case err != nil:
		return outcome{exit: -1, out: err.Error()}
	}
	return outcome{out: string(out)}
}

// gitArgs expands the arguments of a `run git` step.
func (r *runner) gitArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = r.expand(a)
	}
	return out
}
