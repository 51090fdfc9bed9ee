package check_test

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/policy"
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

// TestFrontendCrashNamesSite: a frontend's crash says where it happened, as every other
// crash does (crash.Error): the first frame of agentverify's code.
func TestFrontendCrashNamesSite(t *testing.T) {
	f := change.NewFile("x.go", "", nil, []byte("package x\n"))
	_, err := check.NewFiles(lang.Registry{crashing{}}).Parse(f, change.Head)
	if err == nil || !regexp.MustCompile(`^x\.go: the crash frontend crashed: frontend bug at check_test\.crashing\.Parse \(check/files_test\.go:\d+\)$`).MatchString(err.Error()) {
		t.Errorf("err = %v, want the crash and its site in check/files_test.go", err)
	}
}

// crashingResolver is a frontend whose resolver panics.
type crashingResolver struct{ crashing }

func (crashingResolver) Resolve(*lang.Request) ([]lang.Problem, error) { panic("resolver bug") }

// TestResolverCrashNamesSite: a resolver's crash is an error for the dimension that asks,
// saying where it happened.
func TestResolverCrashNamesSite(t *testing.T) {
	langs := lang.Registry{crashingResolver{}}
	pass := &check.Pass{Context: context.Background(), Changes: &change.Set{}, Policy: policy.Default(), Languages: langs,
		Files: check.NewFiles(langs), Memo: check.NewMemo()}
	_, err := pass.Resolved(policy.Hallucination, nil)
	if err == nil || !regexp.MustCompile(`^the crash resolver crashed: resolver bug at check_test\.crashingResolver\.Resolve \(check/files_test\.go:\d+\)$`).MatchString(err.Error()) {
		t.Errorf("err = %v, want the crash and its site in check/files_test.go", err)
	}
}
