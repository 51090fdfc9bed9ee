package resolve

import (
	"os"
	"reflect"
	"testing"

	"github.com/agentverify/agentverify/lang/python/syntax"
)

// declSources are modules readDecl reads: decorators, overloads, version tests, classes
// whose methods nest definitions, and (when installed) typeshed's builtins stub and
// large real sources.
var declSources = map[string]string{
	"inline": `import sys
from typing import overload
from warnings import deprecated
if sys.version_info >= (3, 12):
    def new(): ...
else:
    class Old:
        @deprecated("use new")
        def m(self):
            class Inner:
                x = 1
            def helper(): pass
            self.y = 2
            return Inner
x: int = 1
@overload
def f(a: int) -> int: ...
@overload
@deprecated("Deprecated since Python 3.9")
def f(a: str) -> str: ...
class C(Base[int], metaclass=M):
    def __init__(self):
        global g
        g = 1
    z = 3
`,
}

var declFiles = []string{
	"/work/tools/pyright/node_modules/pyright/dist/typeshed-fallback/stdlib/builtins.pyi",
	"/usr/lib/python3/dist-packages/pkg_resources/__init__.py",
	"/usr/lib/python3/dist-packages/setuptools/dist.py",
}

// What a module declares is the same read from ParseDecls' tree, function bodies left
// out, as from the whole tree: readDecl never looks into a function's body.
func TestReadDeclWithoutBodies(t *testing.T) {
	g := syntax.NewGrammar()
	srcs := map[string][]byte{}
	for k, v := range declSources {
		srcs[k] = []byte(v)
	}
	if !testing.Short() {
		for _, p := range declFiles {
			if data, err := os.ReadFile(p); err == nil {
				srcs[p] = data
			}
		}
	}
	for name, src := range srcs {
		whole, err := g.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		decls, err := g.ParseDecls(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, stub := range []bool{false, true} {
			want, got := readDecl("m", whole, src, false, stub), readDecl("m", decls, src, false, stub)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (stub %t): without function bodies\n%+v\nwith them\n%+v", name, stub, got, want)
			}
		}
	}
	if d := readDecl("m", mustParse(t, g, declSources["inline"]), []byte(declSources["inline"]), false, false); !d.names["f"] || d.classes["C"] == nil || !d.classes["C"].members["z"] {
		t.Errorf("the inline module reads as %+v", d)
	}
}

func mustParse(t *testing.T, g *syntax.Grammar, src string) *syntax.Node {
	t.Helper()
	tree, err := g.ParseDecls([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tree
}
