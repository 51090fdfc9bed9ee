package python_test

import (
	"testing"

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
