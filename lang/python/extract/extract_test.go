package extract

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// parse parses src and extracts the file at path, as the frontend's Parse does.
func parse(path string, src []byte) (*lang.File, error) {
	root, err := syntax.NewGrammar().Parse(src)
	if err != nil {
		return nil, err
	}
	return File(path, src, root), nil
}

func parseT(t *testing.T, path, src string) *lang.File {
	t.Helper()
	lf, err := parse(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return lf
}

// declSummary is one declaration in a comparable line: "kind name@line:col flags sig".
func declSummary(d lang.Decl) string {
	flags := ""
	for _, f := range []struct {
		on bool
		c  string
	}{{d.Exported, "E"}, {d.Documented, "D"}, {d.Test, "T"}} {
		if f.on {
			flags += f.c
		}
	}
	parts := []string{fmt.Sprintf("%s %s@%d:%d", d.Kind, d.Name, d.NamePos.Line, d.NamePos.Column)}
	for _, p := range []string{flags, d.Signature} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

func TestDecls(t *testing.T) {
	tests := []struct {
		name, path, src string
		want            []string
	}{
		{"functions and classes", "pkg/mod.py", `
def public(a, b=1):
    """Doc."""

async def _private(*args, **kw):
    pass

class Shape(Base, metaclass=Meta):
    """A shape."""
    sides: int = 0
    def area(self, /, scale, *, unit="m"):
        return 0
    def __init__(self):
        pass
    @property
    def name(self):
        """The name."""
    @name.setter
    def name(self, v):
        pass
    @staticmethod
    def make(): ...
    class Inner:
        def go(self): ...
`, []string{
			"func public@2:5 ED def(a, b=...)",
			"func _private@5:11 async def(*args, **kw)",
			"type Shape@8:7 ED class(Base, metaclass=Meta)",
			"field Shape.sides@10:5 E int",
			"method Shape.area@11:9 E def(self, /, scale, *, unit=...)",
			"method Shape.__init__@13:9 ED def(self)", // special methods count as documented
			"method Shape.name@16:9 ED @property def(self)",
			"method Shape.name@19:9 ED def(self, v)", // a setter: documented by its getter
			"method Shape.make@22:9 E @staticmethod def()",
			"type Shape.Inner@23:11 E class()",
			"method Shape.Inner.go@24:13 E def(self)",
		}},
		{"module variables and constants", "m.py", `
MAX_SIZE = 10
# The default name.
default_name: str = "x"
a, (b, *c) = 1, (2, 3)
a = 5
_hidden = 1
Alias = dict[str, int]
"""Alias's docstring."""
type Pair = tuple[int, int]
x.attr = 1
`, []string{
			"const MAX_SIZE@2:1 E",
			"var default_name@4:1 ED str",
			"var a@5:1 E", "var b@5:5 E", "var c@5:9 E",
			"var _hidden@7:1",
			"var Alias@8:1 ED",
			"type Pair@10:6 E = tuple[int, int]",
		}},
		{"__all__ decides what is exported", "m.py", `
__all__ = ["api", 'Klass']
__all__ += ("more",)
def api(): pass
def helper(): pass
def more(): pass
class Klass:
    def method(self): pass
`, []string{
			"func api@4:5 E def()", "func helper@5:5 def()", "func more@6:5 E def()",
			"type Klass@7:7 E class()", "method Klass.method@8:9 E def(self)",
		}},
		{"conditional definitions count as module level", "m.py", `
from typing import TYPE_CHECKING, overload
if TYPE_CHECKING:
    from x import Y
try:
    import fast
except ImportError:
    def fast(): pass
@overload
def f(x: int) -> int: ...
def f(x): return x
`, []string{"func fast@8:9 E def()", "func f@11:5 E def(x)"}},
		{"pytest module", "tests/test_api.py", `
def test_one(): pass
def helper(): pass
class TestThing:
    def test_method(self): pass
    def check(self): pass
`, []string{
			"func test_one@2:5 T def()", "func helper@3:5 def()",
			"type TestThing@4:7 class()", "method TestThing.test_method@5:9 T def(self)",
			"method TestThing.check@6:9 def(self)",
		}},
		{"unittest in any file", "pkg/checks.py", `
import unittest
class Checks(unittest.TestCase):
    def testAdd(self): pass
    def setUp(self): pass
def test_not_a_test(): pass
`, []string{
			"type Checks@3:7 E class(unittest.TestCase)",
			"method Checks.testAdd@4:9 ET def(self)", "method Checks.setUp@5:9 E def(self)",
			"func test_not_a_test@6:5 E def()",
		}},
		{"conftest holds no tests and no API", "conftest.py", `
def test_helper(): pass
`, []string{"func test_helper@2:5 def()"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lf := parseT(t, tt.path, tt.src)
			if len(lf.SyntaxErrors) > 0 {
				t.Fatalf("syntax errors: %v", lf.SyntaxErrors)
			}
			var got []string
			for _, d := range lf.Decls {
				got = append(got, declSummary(d))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("decls:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestIdents(t *testing.T) {
	src := `
import numpy as np
LIMIT = 3
TypeT = TypeVar("TypeT")
myGlobal = 1
class HttpServer:
    maxConn = 5
    def handleRequest(self, reqId, *Args, **kw):
        global myGlobal
        myGlobal = 2
        localVar = [itemX for itemX in reqId]
        Model = make_model()
        if (nVal := 3):
            pass
        with open(p) as fH, ctx():
            pass
        try:
            pass
        except E as errX:
            pass
        f = lambda lamP: lamP
        def innerFn(): pass
        for i, jJ in []:
            pass
        _ = 1
        __dunder__ = 2
    def setUp(self): pass
    def visit_FunctionDef(self, node): pass
    def do_GET(self): pass
    @override
    def baseMethod(self): pass
`
	lf := parseT(t, "m.py", src)
	var got []string
	for _, id := range lf.Idents {
		got = append(got, fmt.Sprintf("%s %s@%d:%d", id.Kind, id.Name, id.Pos.Line, id.Pos.Column))
	}
	want := []string{
		"const LIMIT@3:1", "type TypeT@4:1", "var myGlobal@5:1",
		"type HttpServer@6:7", "field maxConn@7:5",
		"method handleRequest@8:9", "param self@8:23", "param reqId@8:29", "param Args@8:37", "param kw@8:45",
		"var localVar@11:9", "var itemX@11:31", "type Model@12:9", "var nVal@13:13",
		"var fH@15:25", "var errX@19:21", "var f@21:9", "param lamP@21:20",
		"func innerFn@22:13", "var i@23:13", "var jJ@23:16",
		"param self@27:15", "param self@28:27", "param node@28:33", "param self@29:16",
		"param self@31:20",
	}
	if !slices.Equal(got, want) {
		t.Errorf("idents:\n got %q\nwant %q", got, want)
	}
}

func TestCommentsAndLines(t *testing.T) {
	src := "x = '# not a comment'  # noqa: E501\n" +
		"s = \"\"\"\n# inside a string\n\"\"\"  # type: ignore\n" +
		"# pyright: ignore\r\n" +
		"y = f'{x!r:>10}'  # trailing\n"
	lf := parseT(t, "m.py", src)
	var got []string
	for _, c := range lf.Comments {
		got = append(got, fmt.Sprintf("%d:%d-%d %s", c.Pos.Line, c.Pos.Column, c.EndLine, c.Text))
	}
	want := []string{"1:24-1 # noqa: E501", "4:6-4 # type: ignore", "5:1-5 # pyright: ignore", "6:19-6 # trailing"}
	if !slices.Equal(got, want) {
		t.Errorf("comments:\n got %q\nwant %q", got, want)
	}
	if len(lf.Lines) != 6 || lf.Lines[4] != "# pyright: ignore" {
		t.Errorf("lines = %q", lf.Lines)
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // "line:col message-substring"
	}{
		{"valid modern syntax", `
def f[T](x: T, /) -> T:
    match x:
        case {"k": [1, *rest]} if rest:
            return x
    type A = list[T]
    return (y := x)
try:
    pass
except* ValueError:
    pass
print(f"{x=!r:>{width}}")
async def g():
    async with a as b:
        await b
`, nil},
		{"every error is reported", "def f(:\n    pass\nx = = 1\nclass C\n    pass\n", []string{"1:", "3:", "4:"}},
		{"missing token", "def f(:\n    pass\n", []string{`1:7 missing ")"`}},
		{"python 2 print", "print 'hi'\n", []string{"1:1 Python 2 print statement"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lf := parseT(t, "m.py", tt.src)
			var got []string
			for _, e := range lf.SyntaxErrors {
				got = append(got, fmt.Sprintf("%d:%d %s", e.Pos.Line, e.Pos.Column, e.Message))
			}
			if len(got) < len(tt.want) || len(tt.want) == 0 && len(got) > 0 {
				t.Fatalf("syntax errors %q, want %q", got, tt.want)
			}
			for _, w := range tt.want {
				pos, msg, _ := strings.Cut(w, " ")
				if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, pos) && strings.Contains(g, msg) }) {
					t.Errorf("no syntax error %q among %q", w, got)
				}
			}
		})
	}
}

// TestPython3Only: what tree-sitter's grammar accepts (it covers Python 2 too) but
// Python 3 rejects is a syntax error; the valid spellings next to them are not.
func TestPython3Only(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a <> b\n", "1:3 '<>' is Python 2"},
		{"x = 10L\n", "1:5 Python 2 long literal"},
		{"x = 0777\n", "1:5 leading zeros"},
		{"x = `y`\n", "1:5 backquotes"},
		{"x = ur'a'\n", "1:5 invalid string prefix ur"},
		{"raise E, 'm'\n", "1:7 raise E, msg"},
		{"try:\n    pass\nexcept E, e:\n    pass\n", "3:9 except E, e"},
		{"def f(a, (b, c)): pass\n", "1:10 tuple parameters"},
		{"def f(a=1, b): pass\n", "1:12 parameter without a default"},
		{"def f(a=1, b: int): pass\n", "1:12 parameter without a default"},
		{"lambda a=1, b: 0\n", "1:13 parameter without a default"},
		{"f(a=1, 2)\n", "1:8 positional argument follows keyword argument"},
		{"f(**a, *b)\n", "1:8 iterable argument unpacking"},
		{"exec 'x'\n", "1:1 Python 2 exec"},
		{"x = 00 + 0_0 + 0o777 + 0x1F + 1_000 + 0.5 + 10j\n", ""},
		{"s = rb'a' + Rb'b' + f'{x}' + Fr'{y}' + u'z' + b'w'\n", ""},
		{"def f(a=1, *args, b, c=2, **kw): pass\ndef g(a=1, /, b=2, *, c): pass\n", ""},
		{"def h(a=1, *args: int, b): pass\n", ""},
		{"f(1, *a, b=2, *c, **d, e=3)\nf(x for x in y)\nprint(a != b)\n", ""},
	}
	for _, tt := range tests {
		lf := parseT(t, "m.py", tt.src)
		var got []string
		for _, e := range lf.SyntaxErrors {
			got = append(got, fmt.Sprintf("%d:%d %s", e.Pos.Line, e.Pos.Column, strings.TrimPrefix(e.Message, "invalid syntax: ")))
		}
		switch {
		case tt.want == "" && len(got) > 0:
			t.Errorf("%q: unexpected syntax errors %q", tt.src, got)
		case tt.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tt.want)):
			t.Errorf("%q: syntax errors %q, want one starting %q", tt.src, got, tt.want)
		}
	}
}

func TestValidOddities(t *testing.T) {
	for _, src := range []string{
		"f(a=1, \\\n  b=2)\n",
		"print >> sys.stderr, 'x'\n",
	} {
		if lf := parseT(t, "m.py", src); len(lf.SyntaxErrors) > 0 {
			t.Errorf("%q: syntax errors %v", src, lf.SyntaxErrors)
		}
	}
}
