package agentverify_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// TestSelfFromEmptyCaches: agentverify passes its own gate where users start — a new
// clone's committed source, an empty module cache and an empty build cache, the module
// proxy reachable — so a developer's warm cache can never hide a failure again (issue
// #22: a go/types panic, then hundreds of false findings, on exactly this). `check ./...`
// and `diff` of a one-line change exit 0 with no error finding.
//
// .ci/run's dogfood step does the same on the checkout itself, so this copy (minutes on
// two cores: it compiles every dependency) runs only when AGENTVERIFY_TEST_FRESH=1 asks:
// not in `go test ./...`, CI's included.
func TestSelfFromEmptyCaches(t *testing.T) {
	if os.Getenv("AGENTVERIFY_TEST_FRESH") != "1" {
		t.Skip("compiles every dependency from empty caches (minutes); .ci/run's dogfood step does the same: set AGENTVERIFY_TEST_FRESH=1 to run it here")
	}
	bin := binary(t) // skips under -short
	if err := proxyReachable(t); err != nil {
		t.Skipf("the module proxy is not reachable, and this test fetches this module's requirements from it: %v", err)
	}
	self, _ := filepath.Abs(".")
	dir := t.TempDir()
	archive := exec.Command("bash", "-c", `git -C "$1" archive --format=tar HEAD | tar -x -C "$2"`, "bash", self, dir)
	if out, err := archive.CombinedOutput(); err != nil {
		t.Fatalf("git archive: %v\n%s", err, out)
	}
	repo := &testrepo.Repo{Dir: dir}
	repo.GitTB(t, "init", "-q", "-b", "main")
	repo.GitTB(t, "add", "-A")
	repo.GitTB(t, "commit", "-q", "-m", "clone")
	gopath := t.TempDir()
	env := append(os.Environ(), "GOPATH="+gopath, "GOMODCACHE="+filepath.Join(gopath, "pkg", "mod"), "GOCACHE="+t.TempDir(),
		"GOFLAGS=-modcacherw -buildvcs=false", "AGENTVERIFY_NO_SERVER=1", "AGENTVERIFY_CACHE_DIR="+t.TempDir())
	agentverify := func(args ...string) {
		t.Helper()
		start := time.Now()
		cmd := exec.Command(bin, append(args, "--no-timings")...)
		cmd.Dir, cmd.Env = dir, append(env, testrepo.Env(t.TempDir())...)
		out, err := cmd.CombinedOutput()
		t.Logf("agentverify %s: %s", strings.Join(args, " "), time.Since(start).Round(time.Second))
		if err != nil || strings.Contains(string(out), ": error: ") {
			t.Errorf("agentverify %s from empty caches: %v\n%s", strings.Join(args, " "), err, errorLines(string(out)))
		}
	}
	agentverify("check", "--no-cache", "./...")
	repo.WriteTB(t, map[string]string{"agentverify.go": mustRead(t, filepath.Join(dir, "agentverify.go")) + "\n// The gate verifies itself from empty caches.\n"})
	agentverify("diff")
}

// proxyReachable asks the module proxy for one of this module's requirements, into a
// module cache of its own.
func proxyReachable(t *testing.T) error {
	cmd := exec.Command("go", "mod", "download", "-json", "golang.org/x/mod@v0.42.0")
	cmd.Dir = t.TempDir()
	gopath := t.TempDir()
	cmd.Env = append(os.Environ(), "GOPATH="+gopath, "GOMODCACHE="+filepath.Join(gopath, "pkg", "mod"), "GOFLAGS=-modcacherw")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return &exec.Error{Name: strings.TrimSpace(string(out)), Err: err}
	}
	return nil
}

// errorLines keeps the lines of a report that matter when it fails.
func errorLines(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, ": error: ") || strings.HasPrefix(l, "agentverify") || strings.Contains(l, "panic") {
			keep = append(keep, l)
		}
	}
	if len(keep) > 40 {
		keep = keep[:40]
	}
	return strings.Join(keep, "\n")
}
