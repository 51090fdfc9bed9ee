package hallucination

import (
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
)

// TestFrontendSyntaxErrors: a file of a language the Go loader does not check is not
// passed when it does not parse: its frontend's syntax errors are reported.
func TestFrontendSyntaxErrors(t *testing.T) {
	set := &change.Set{Files: []*change.File{
		{Path: "a.py", Op: change.Modify, Base: []byte("x = 1\n"), Head: []byte("def f(:\n    pass\n"), Changed: []change.Range{{Start: 1, End: 2}}},
		{Path: "b.go", Op: change.Modify, Head: []byte("package b\n")},
		{Path: "notes.txt", Op: change.Create, Head: []byte("((( unbalanced\n")},
	}}
	p := &check.Pass{Changes: set, Languages: lang.Registry{fakeFrontend{}}, Files: check.NewFiles(lang.Registry{fakeFrontend{}})}
	got, err := frontendSyntaxErrors(p, nil)
	if err != nil || len(got) != 1 || got[0].Location.File != "a.py" || got[0].Location.Line != 1 || got[0].Kind != lang.SyntaxErrorKind {
		t.Fatalf("findings %+v, error %v; want one syntax error in a.py", got, err)
	}
}

// fakeFrontend parses .py files and calls any "def f(:" a syntax error.
type fakeFrontend struct{}

func (fakeFrontend) Name() string           { return "fake" }
func (fakeFrontend) Match(path string) bool { return strings.HasSuffix(path, ".py") }
func (fakeFrontend) Naming() string         { return "snake_case" }
func (fakeFrontend) Parse(path string, src []byte) (*lang.File, error) {
	f := &lang.File{Path: path}
	if strings.Contains(string(src), "(:") {
		f.SyntaxErrors = []lang.SyntaxError{{Pos: lang.Pos{Line: 1, Column: 7}, Message: "missing parameter"}}
	}
	return f, nil
}
