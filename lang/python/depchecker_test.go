package python_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

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
