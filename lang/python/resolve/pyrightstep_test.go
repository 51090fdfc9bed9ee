package resolve

import (
	"context"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/internal/testkit/pyrighttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// TestProblemMapping: which of pyright's diagnostics become which problems, and which
// are left out.
func TestProblemMapping(t *testing.T) {
	pyrighttest.Require(t)
	src := "from json import dumpz\nimport json\njson.laods('x')\n"
	fe := New(syntax.NewGrammar(), NewCache(), nil)
	f := change.NewFile("a.py", "", nil, []byte(src))
	j := &job{fe: fe, req: &lang.Request{Context: context.Background(), Changes: &change.Set{Files: []*change.File{f}}}, members: map[string][]string{}}
	if err := j.collect(); err != nil {
		t.Fatal(err)
	}
	tg := j.targets[0]
	for _, tt := range []struct {
		rule, msg string
		want      lang.Kind // "" means left out
		sugg      string
	}{
		{"reportAttributeAccessIssue", `"laods" is not a known attribute of module "json"`, lang.UnknownSymbol, "did you mean loads, load?"},
		{"reportAttributeAccessIssue", `"dumpz" is unknown import symbol`, lang.UnknownSymbol, "did you mean dumps, dump?"},
		{"reportAttributeAccessIssue", "Cannot access attribute \"uper\" for class \"Literal['x']\"\n  Attribute \"uper\" is unknown", lang.UnknownMember, "did you mean upper?"},
		{"reportAttributeAccessIssue", "Cannot assign to attribute \"x\" for class \"C*\"\n  Attribute \"x\" is unknown", lang.UnknownMember, ""},
		{"reportAttributeAccessIssue", "Cannot assign to attribute \"encoding\" for class \"Response\"\n  Expression of type \"Literal['utf-8']\" cannot be assigned to attribute \"encoding\" of class \"Response\"\n    \"Literal['utf-8']\" is not assignable to \"None\"", "", ""},
		{"reportAttributeAccessIssue", "Cannot access attribute \"read\" for class \"None\"\n  Attribute \"read\" is unknown", "", ""},
		{"reportMissingImports", `Import "nosuch" could not be resolved`, lang.UnknownImport, ""},
		{"reportUndefinedVariable", `"jsno" is not defined`, lang.Undefined, "did you mean json?"},
		{"reportCallIssue", `Expected 1 positional argument`, lang.WrongArity, ""},
		{"reportCallIssue", `Arguments missing for parameters "a", "b"`, lang.WrongArity, ""},
		{"reportCallIssue", `No parameter named "sort"`, lang.UnknownKeyword, ""},
		{"reportCallIssue", `No overloads for "get" match the provided arguments`, lang.WrongSignature, ""},
		{"reportCallIssue", `Object of type "None" is not callable`, lang.TypeError, ""},
		{"reportArgumentType", `Argument of type "str" cannot be assigned to parameter "n" of type "int"`, lang.TypeMismatch, ""},
		{"reportAttributeAccessIssue", "Cannot access attribute \"color\" for class \"TextIO\"\n  Attribute \"color\" is unknown", lang.UnknownMember, ""},
		{"reportArgumentType", `Argument of type "list[str | Unknown | None]" cannot be assigned to parameter "iterable" of type "Iterable[str]" in function "join"`, "", ""},
		{"reportArgumentType", `Argument of type "Self@BaseDumper" cannot be assigned to parameter "self" of type "frontend" in function "__init__"`, "", ""},
		{"reportArgumentType", `Argument of type "LassoLexer*" cannot be assigned to parameter "string" of type "str" in function "search"`, "", ""},
		{"reportArgumentType", `Argument of type "bytes | Literal[True]" cannot be assigned to parameter "obj" of type "Sized" in function "len"`, "", ""},
		{"", `Match statement requires Python 3.10 or newer`, lang.APITooNew, ""},
		{"", `Expected expression`, lang.SyntaxErrorKind, ""},
		{"reportOptionalMemberAccess", `"x" is not a known attribute of "None"`, "", ""},
		{"reportIndexIssue", `__getitem__ method not defined`, "", ""},
		{"reportRedeclaration", `Class declaration "A" is obscured`, "", ""},
	} {
		d := pyright.Diagnostic{File: "a.py", Severity: "error", Message: tt.msg, Rule: tt.rule,
			Range: pyright.Range{Start: pyright.Position{Line: 0, Character: 17}, End: pyright.Position{Line: 0, Character: 22}}}
		p, ok := j.problem(tg, d)
		switch {
		case tt.want == "" && ok:
			t.Errorf("%s %q: reported as %s, want left out", tt.rule, tt.msg, p.Kind)
		case tt.want != "" && (!ok || p.Kind != tt.want):
			t.Errorf("%s %q: %v %s, want %s", tt.rule, tt.msg, ok, p.Kind, tt.want)
		case ok && p.Suggestion != tt.sugg:
			t.Errorf("%s %q: suggestion %q, want %q", tt.rule, tt.msg, p.Suggestion, tt.sugg)
		case ok && (p.Location.Line != 1 || p.Location.Column != 18):
			t.Errorf("%s %q: at %d:%d, want 1:18", tt.rule, tt.msg, p.Location.Line, p.Location.Column)
		}
	}
}

func TestByteColumn(t *testing.T) {
	for _, tt := range []struct {
		line  string
		units int
		want  int
	}{
		{"abc", 0, 1}, {"abc", 2, 3}, {"é = x", 2, 4}, {"😀x", 2, 5}, {"😀x", 3, 6}, {"ab", 10, 3}, {"\xffx", 1, 2},
	} {
		if got := byteColumn(tt.line, tt.units); got != tt.want {
			t.Errorf("byteColumn(%q, %d) = %d, want %d", tt.line, tt.units, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	cands := []string{"dumps", "dump", "loads", "load", "JSONDecoder", "JSONEncoder", "JSONDecodeError"}
	for _, tt := range []struct {
		name string
		want string
	}{
		{"dumpz", "dumps dump"}, {"laods", "loads load"}, {"jsondecoder", "JSONDecoder JSONEncoder JSONDecodeError"},
		{"xyz", ""}, {"JSONDecodeErr", "JSONDecodeError JSONDecoder JSONEncoder"}, {"sort", ""},
	} {
		got := closest(tt.name, cands)
		if s := join(got); s != tt.want {
			t.Errorf("closest(%q) = %q, want %q", tt.name, s, tt.want)
		}
	}
	if got := closest("sort", []string{"sort_keys", "indent"}); join(got) != "sort_keys" {
		t.Errorf("closest(sort) = %q, want sort_keys (a prefix)", got)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
