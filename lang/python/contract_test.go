package python

import (
	"testing"

	"github.com/agentverify/agentverify/lang"
)

// TestNaming: the frontend asks style for PEP 8's convention.
func TestNaming(t *testing.T) {
	if New().Naming() != "pep8" {
		t.Errorf("Naming() = %q", New().Naming())
	}
}

// TestConcurrentParse: one frontend value serves concurrent parses (the engine runs the
// dimensions in parallel); run with -race.
func TestConcurrentParse(t *testing.T) {
	fe := New()
	src := []byte("def f(a):\n    if a:\n        return 1\n    return 2\n")
	done := make(chan *lang.File)
	for range 8 {
		go func() {
			lf, err := fe.Parse("m.py", src)
			if err != nil {
				t.Error(err)
			}
			done <- lf
		}()
	}
	for range 8 {
		if lf := <-done; lf == nil || len(lf.Decls) != 1 || lf.Decls[0].Metrics.Cyclomatic != 2 {
			t.Errorf("concurrent parse gave %+v", lf)
		}
	}
}
