package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/server"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// The command in the git configurations users and CI have, each made by the real git
// command: a checkout with core.autocrlf, sparse checkouts, a shallow clone, a rename with
// an edit, a plain -p1 patch. Each used to fail a clean change or refuse to run.

// gitClone runs git in dir with the test environment.
func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = testrepo.Env(dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// apiGo is a package with an export, so that a file taken for deleted is
// semantics/removed-export.
const apiGo = "// Package api is a small API.\npackage api\n\n// Answer is the answer.\nfunc Answer() int { return 42 }\n"

// policyRenameNoDelete allows renames but not deletes.
const policyRenameNoDelete = "version: 1\nscope:\n  allowed_paths: [\"**\"]\n  allowed_operations: [create, modify, rename]\n"

func wantPass(t *testing.T, dir, what string, args ...string) {
	t.Helper()
	code, out, errs := run(t, dir, "", args...)
	if code != ExitOK || !strings.Contains(out, "PASSED") {
		t.Errorf("%s: exit %d\n%s%s", what, code, out, errs)
	}
}

// TestDiffAutocrlfCheckout: a checkout with core.autocrlf=true, which git calls clean, has
// no changed file: the untouched policy is not scope/policy-changed, old warnings stay old.
func TestDiffAutocrlfCheckout(t *testing.T) {
	t.Parallel()
	up := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo + "\nfunc undocumented() {}\n", ".agentverify.yaml": policyRenameNoDelete})
	dir := filepath.Join(t.TempDir(), "clone")
	gitRun(t, up.Dir, "clone", "-q", "-c", "core.autocrlf=true", up.Dir, dir)
	code, out, errs := run(t, dir, "", "diff")
	if code != ExitOK || !strings.Contains(out, "0 files") {
		t.Errorf("clean autocrlf checkout: exit %d\n%s%s", code, out, errs)
	}
}

// TestDiffSparseCheckout: a sparse checkout, cone or not (with the worktreeConfig
// extension), runs, and the files outside the sparse set are not deleted.
func TestDiffSparseCheckout(t *testing.T) {
	shorttest.Slow(t, "runs the CLI through real git repositories and Go loads; siblings cover the path in -short")
	t.Parallel()
	for _, mode := range [][]string{{"--no-cone", "/m.go", "/go.mod", "/.agentverify.yaml"}, {"--cone", "app"}} {
		t.Run(mode[0], func(t *testing.T) {
			up := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, "api/api.go": apiGo, "app/app.go": "// Package app is an app.\npackage app\n"})
			dir := filepath.Join(t.TempDir(), "clone")
			gitRun(t, up.Dir, "clone", "-q", "--no-checkout", up.Dir, dir)
			gitRun(t, dir, append([]string{"sparse-checkout", "set"}, mode...)...)
			gitRun(t, dir, "checkout", "-q", "main")
			if _, err := os.Stat(filepath.Join(dir, "api", "api.go")); err == nil {
				t.Fatal("api/api.go is checked out")
			}
			code, out, errs := run(t, dir, "", "diff")
			if code != ExitOK || !strings.Contains(out, "0 files") {
				t.Errorf("sparse checkout: exit %d\n%s%s", code, out, errs)
			}
		})
	}
}

// TestDiffShallowClone: CI's shallow clone finds the merge-base whenever the history
// fetched has it, also when the base branch moved on since the topic branched.
func TestDiffShallowClone(t *testing.T) {
	shorttest.Slow(t, "runs the CLI through real git repositories and Go loads; siblings cover the path in -short")
	t.Parallel()
	up := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	for i := 0; i < 3; i++ {
		up.Write(map[string]string{"n.txt": strings.Repeat("x", i+1) + "\n"})
		up.Commit("more")
	}
	dir := filepath.Join(t.TempDir(), "clone")
	gitRun(t, up.Dir, "clone", "-q", "--depth", "3", "file://"+up.Dir, dir)
	gitRun(t, dir, "checkout", "-q", "-b", "topic", "HEAD~1") // main moved on since
	if err := os.WriteFile(filepath.Join(dir, "extra.txt"), []byte("more\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "add", "extra.txt")
	gitRun(t, dir, "commit", "-q", "-m", "topic")
	code, out, errs := run(t, dir, "", "diff", "--base", "origin/main")
	if code != ExitOK || !strings.Contains(out, "1 file") {
		t.Errorf("shallow clone: exit %d\n%s%s", code, out, errs)
	}
}

// TestDiffRenameWithEdit: a rename git reports as R0xx is a rename, which a policy that
// allows renames but not deletes accepts.
func TestDiffRenameWithEdit(t *testing.T) {
	t.Parallel()
	body := cleanGo + "\n// Sub returns a minus b.\nfunc Sub(a, b int) int { return a - b }\n\n// Mul returns a times b.\nfunc Mul(a, b int) int { return a * b }\n"
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": body, ".agentverify.yaml": policyRenameNoDelete})
	os.Remove(filepath.Join(r.Dir, "m.go"))
	r.Write(map[string]string{"ops.go": strings.Replace(body, "a * b", "b * a", 1)})
	wantPass(t, r.Dir, "rename with an edit", "diff")
	r.Git("add", "-A")
	wantPass(t, r.Dir, "staged rename with an edit", "diff", "--staged")
}

// TestDiffPlainPatch: a unified diff with a/ and b/ prefixes and no "diff --git" header,
// as 'git apply' takes it.
func TestDiffPlainPatch(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	patch := "--- a/m.go\n+++ b/m.go\n@@ -3,3 +3,3 @@\n \n // Add returns the sum of a and b.\n-func Add(a, b int) int { return a + b }\n+func Add(a, b int) int { return b + a }\n"
	code, out, errs := run(t, r.Dir, patch, "diff", "--patch", "-")
	if code != ExitOK || !strings.Contains(out, "1 file") {
		t.Errorf("plain -p1 patch: exit %d\n%s%s", code, out, errs)
	}
}

// TestServedRequestGitEnv: the shared server verifies each request with the git variables
// the request brings (a hook's GIT_INDEX_FILE), never with its own or an earlier client's.
func TestServedRequestGitEnv(t *testing.T) {
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	r.Write(map[string]string{"m.go": cleanGo + "\n// Bad is broken.\nfunc Bad() int { return notDefined }\n"})
	tmp := filepath.Join(t.TempDir(), "index.tmp")
	cmd := exec.Command("git", "add", "m.go")
	cmd.Dir, cmd.Env = r.Dir, append(testrepo.Env(r.Dir), "GIT_INDEX_FILE="+tmp)
	if err := exec.Command("cp", filepath.Join(r.Dir, ".git", "index"), tmp).Run(); err != nil {
		t.Fatal(err)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git add: %v %s", err, out)
	}
	handle := serveRequest(nil)
	ask := func(env []string) (int, string) {
		cwd, _ := os.Getwd()
		defer os.Chdir(cwd)
		code, out, errs, err := handle(context.Background(), &server.Request{Op: server.OpRun, Args: []string{"diff", "--staged"}, Dir: r.Dir, Cwd: r.Dir, Env: env})
		if err != nil {
			t.Fatal(err)
		}
		return code, string(out) + string(errs)
	}
	// The server process was started by a hook: its own environment has that hook's index.
	t.Setenv("GIT_INDEX_FILE", tmp)
	if code, out := ask([]string{"GIT_INDEX_FILE=" + tmp}); code != ExitFailed || !strings.Contains(out, "hallucination/undefined") {
		t.Errorf("request with the hook's GIT_INDEX_FILE: exit %d\n%s", code, out)
	}
	if code, out := ask(nil); code != ExitOK || !strings.Contains(out, "0 files") {
		t.Errorf("request without GIT_INDEX_FILE answered with the server's own: exit %d\n%s", code, out)
	}
}
