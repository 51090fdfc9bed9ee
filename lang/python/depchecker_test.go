package python_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/dimensions/hallucination"
	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python"
	"github.com/agentverify/agentverify/lang/python/pydeps"
)

// depsFrontend is the Python frontend with the dependency check as its resolver, as the
// pyright-backed resolver calls it; the cases under testdata/deps carry their own
// environment (.venv), so neither VIRTUAL_ENV nor python3 on PATH enters.
type depsFrontend struct {
	lang.Frontend
	deps *python.DepChecker
}

func (f depsFrontend) Resolve(req *lang.Request) ([]lang.Problem, error) {
	return f.deps.Problems(req)
}

func newDepsFrontend() depsFrontend {
	c := python.NewDepChecker()
	c.Locator = pydeps.Locator{Getenv: func(string) string { return "" }, Python: "agentverify-no-python"}
	return depsFrontend{Frontend: python.New(), deps: c}
}

func TestDepsCases(t *testing.T) {
	checktest.Run(t, "testdata/deps", hallucination.Dimension, lang.Registry{newDepsFrontend()})
}

// TestDepsSystemEnvironment runs the dependency check against the machine's own Python
// environment: python3 on PATH asked for its sys.path, and Debian's dist-packages.
func TestDepsSystemEnvironment(t *testing.T) {
	for _, p := range []string{"yaml", "pygments", "six.py"} {
		if _, err := os.Stat(filepath.Join("/usr/lib/python3/dist-packages", p)); err != nil {
			t.Skipf("no %s in /usr/lib/python3/dist-packages: apt-get install python3-yaml python3-pygments python3-six", p)
		}
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 on PATH: apt-get install python3")
	}
	c := python.NewDepChecker()
	c.Locator = pydeps.Locator{Getenv: func(string) string { return "" }}
	checktest.Run(t, "testdata/deps_system", hallucination.Dimension, lang.Registry{depsFrontend{Frontend: python.New(), deps: c}})
}

// TestDepsConcurrent runs one checker on one request from several goroutines sharing a
// Memo, as the passes of a verification do: the same problems every time (go test -race).
func TestDepsConcurrent(t *testing.T) {
	c := checktest.Load(t, "testdata/deps/declared.txtar")
	fe := newDepsFrontend()
	req := &lang.Request{Context: context.Background(), Changes: c.Changes, Memo: check.NewMemo()}
	want, err := fe.deps.Problems(req)
	if err != nil || len(want) != 5 {
		t.Fatalf("Problems = %d problems, %v; want 5", len(want), err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			got, err := fe.deps.Problems(req)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("concurrent Problems = %v, %v; want %v", got, err, want)
			}
		})
	}
	wg.Wait()
}

// TestDepsInterpreterFailure: an interpreter that cannot tell its sys.path is the
// environment's fault, not the change's: a lang.SetupError whose message names the
// interpreter and the command to try, never an internal error or an empty environment.
func TestDepsInterpreterFailure(t *testing.T) {
	py := filepath.Join(t.TempDir(), "python3")
	if err := os.WriteFile(py, []byte("#!/bin/sh\necho 'Fatal Python error' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	set := &change.Set{Root: root, HeadFS: os.DirFS(root), NoBase: true,
		Files: []*change.File{change.NewFile("app.py", "", nil, []byte("import yaml\n"))}}
	c := python.NewDepChecker()
	c.Locator = pydeps.Locator{Getenv: func(string) string { return "" }, Python: py}
	_, err := c.Problems(&lang.Request{Context: context.Background(), Changes: set})
	var se *lang.SetupError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), py+" failed to print its sys.path") {
		t.Fatalf("Problems error = %v (%T), want a lang.SetupError naming %s", err, err, py)
	}
}
