package check_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
)

// crashing is a frontend that panics on every file.
type crashing struct{}

func (crashing) Name() string                             { return "crash" }
func (crashing) Naming() string                           { return "go" }
func (crashing) Match(string) bool                        { return true }
func (crashing) Parse(string, []byte) (*lang.File, error) { panic("frontend bug") }

// TestFrontendCrashIsAnErrorForEveryCaller checks that a frontend crash reaches every
// dimension that parses the file as an error, never as "no frontend" (a silent skip).
func TestFrontendCrashIsAnErrorForEveryCaller(t *testing.T) {
	files := check.NewFiles(lang.Registry{crashing{}})
	f := change.NewFile("x.go", "", nil, []byte("package x\n"))
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			lf, err := files.Parse(f, change.Head)
			if lf != nil {
				t.Errorf("caller %d got a file from a crashed frontend", i)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "x.go: the crash frontend crashed: frontend bug") {
			t.Errorf("caller %d: err = %v, want the crash", i, err)
		}
	}
}
