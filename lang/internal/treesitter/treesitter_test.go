//go:build cgo

package treesitter

import (
	"fmt"
	"strings"
	"testing"

	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

type node struct {
	Fields
	kids []*node
}

func parse(t *testing.T, src string) *node {
	t.Helper()
	g := NewGrammar(tspython.Language())
	root, err := Parse(g, []byte(src), func(f Fields, parent *node) *node {
		n := &node{Fields: f}
		if parent != nil {
			parent.kids = append(parent.kids, n)
		}
		return n
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// dump lists the named nodes as "kind[field]@line:col-line:col", one a line.
func dump(n *node, depth int, b *strings.Builder) {
	if n.Named || n.Missing {
		fmt.Fprintf(b, "%s%s", strings.Repeat(" ", depth), n.Kind)
		if n.Field != "" {
			fmt.Fprintf(b, "[%s]", n.Field)
		}
		if n.Missing {
			b.WriteString(" missing")
		}
		fmt.Fprintf(b, "@%d:%d-%d:%d\n", n.Pos.Line, n.Pos.Column, n.EndPos.Line, n.EndPos.Column)
	}
	for _, k := range n.kids {
		dump(k, depth+1, b)
	}
}

// The copy keeps kinds, fields, byte offsets and 1-based positions whose end is the
// last byte; ERROR nodes and the zero-width nodes error recovery inserts are marked.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"positions", "x = 1\ndef f(a):\n    return a\n", `module@1:1-3:13
 expression_statement@1:1-1:5
  assignment@1:1-1:5
   identifier[left]@1:1-1:1
   integer[right]@1:5-1:5
 function_definition@2:1-3:12
  identifier[name]@2:5-2:5
  parameters[parameters]@2:6-2:8
   identifier@2:7-2:7
  block[body]@3:5-3:12
   return_statement@3:5-3:12
    identifier@3:12-3:12
`},
		{"multibyte columns are bytes", "s = \"é\"; t = 2\n", `module@1:1-1:16
 expression_statement@1:1-1:8
  assignment@1:1-1:8
   identifier[left]@1:1-1:1
   string[right]@1:5-1:8
    string_start@1:5-1:5
    string_content@1:6-1:7
    string_end@1:8-1:8
 expression_statement@1:11-1:15
  assignment@1:11-1:15
   identifier[left]@1:11-1:11
   integer[right]@1:15-1:15
`},
		{"missing", "def f(:\n    pass\n", `module@1:1-2:9
 function_definition@1:1-2:8
  identifier[name]@1:5-1:5
  parameters[parameters]@1:6-1:6
   ) missing@1:7-1:7
  block[body]@2:5-2:8
   pass_statement@2:5-2:8
`},
		{"error", "print(1\n", `module@1:1-1:8
 ERROR@1:1-1:7
  integer@1:7-1:7
`},
		{"empty", "", "module@1:1-1:1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			dump(parse(t, tc.src), 0, &b)
			if got := b.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
