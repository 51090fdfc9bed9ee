package resolve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// TestSysPathFailureFailsClosed: when the project's interpreter cannot tell its
// sys.path, the checks that read installed modules ran without them, so the resolution
// fails with a lang.SetupError naming the interpreter instead of passing on what they
// found.
func TestSysPathFailureFailsClosed(t *testing.T) {
	t.Setenv("VIRTUAL_ENV", "")
	root := t.TempDir()
	py := filepath.Join(root, ".venv", "bin", "python")
	if err := os.MkdirAll(filepath.Dir(py), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(py, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	set := &change.Set{Root: root, HeadFS: os.DirFS(root), NoBase: true}
	readsInstalled := func(j *job) ([]lang.Problem, error) {
		if dirs := j.sysPath(); dirs != nil {
			t.Errorf("sysPath = %v from a failing interpreter", dirs)
		}
		return []lang.Problem{{Message: "judged without installed modules"}}, nil
	}
	j := &job{fe: Resolver{g: syntax.NewGrammar(), cache: NewCache(), steps: []step{readsInstalled}},
		req: &lang.Request{Context: context.Background(), Changes: set}, members: map[string][]string{}, dyn: newDyn(),
		targets: []*target{{f: change.NewFile("app.py", "", nil, []byte("x = 1\n"))}}}
	ps, err := j.run()
	var se *lang.SetupError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), py+" failed to print its sys.path") {
		t.Fatalf("run = %v, %v (%T); want a lang.SetupError naming %s", ps, err, err, py)
	}
}
