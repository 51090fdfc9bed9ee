package hallucination

import (
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
)

func TestOutsideFindings(t *testing.T) {
	mod := "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\n"
	for _, c := range []struct {
		name, path, base, head string
		want                   string // substring of the one finding's message, "" for none
	}{
		{"replace outside", "go.mod", "", mod + "replace example.com/dep => ../dep\n", "replaces example.com/dep with ../dep"},
		{"replace inside", "go.mod", "", mod + "replace example.com/dep => ./third_party/dep\n", ""},
		{"nested module climbing out", "sub/go.mod", "", mod + "replace example.com/dep => ../../dep\n", "../../dep"},
		{"nested module staying in", "sub/go.mod", "", mod + "replace example.com/dep => ../dep\n", ""},
		{"absolute path", "go.mod", "", mod + "replace example.com/dep => /opt/dep\n", "/opt/dep"},
		{"versioned replace", "go.mod", "", mod + "replace example.com/dep => example.com/fork v1.0.0\n", ""},
		{"already at base", "go.mod", mod + "replace example.com/dep => ../dep\n", mod + "replace example.com/dep => ../dep\n", ""},
		{"go.work use outside", "go.work", "", "go 1.22\n\nuse (\n\t.\n\t../dep\n)\n", "uses ../dep"},
		{"go.work use inside", "go.work", "", "go 1.22\n\nuse ./a\n", ""},
		{"unparsable", "go.mod", "", "module\n", ""},
	} {
		f := &change.File{Path: c.path, Head: []byte(c.head)}
		if c.base != "" {
			f.Base = []byte(c.base)
		}
		got := outsideFindings(f)
		switch {
		case c.want == "" && len(got) != 0:
			t.Errorf("%s: %+v, want none", c.name, got)
		case c.want != "" && (len(got) != 1 || !strings.Contains(got[0].Message, c.want) || got[0].Rule != RuleOutsideRepository):
			t.Errorf("%s: %+v, want one %s naming %q", c.name, got, RuleOutsideRepository, c.want)
		}
	}
}

// TestFrontendSyntaxErrors: a file of a language the Go loader does not check is not
// passed when it does not parse: its frontend's syntax errors are reported.
func TestFrontendSyntaxErrors(t *testing.T) {
	set := &change.Set{Files: []*change.File{
		{Path: "a.py", Op: change.Modify, Base: []byte("x = 1\n"), Head: []byte("def f(:\n    pass\n"), Changed: []change.Range{{Start: 1, End: 2}}},
		{Path: "b.go", Op: change.Modify, Head: []byte("package b\n")},
		{Path: "notes.txt", Op: change.Create, Head: []byte("((( unbalanced\n")},
	}}
	p := &check.Pass{Changes: set, Files: check.NewFiles(lang.Registry{fakeFrontend{}})}
	got, err := frontendSyntaxErrors(p)
	if err != nil || len(got) != 1 || got[0].Location.File != "a.py" || got[0].Location.Line != 1 || got[0].Rule != RuleSyntaxError {
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
