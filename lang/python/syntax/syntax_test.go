//go:build cgo

package syntax

import (
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang"
)

func TestParsePositions(t *testing.T) {
	src := []byte("import os\n\ndef f(a):\n    return a\n")
	root, err := NewGrammar().Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if root.Kind != "module" {
		t.Fatalf("root kind = %q, want module", root.Kind)
	}
	def := root.FirstOfKind("function_definition")
	if def == nil {
		t.Fatal("no function_definition")
	}
	want := lang.Span{Start: lang.Pos{Line: 3, Column: 1}, End: lang.Pos{Line: 4, Column: 12}}
	if got := def.Span(); got != want {
		t.Errorf("span = %+v, want %+v", got, want)
	}
	if got := def.Child("name").Text(src); got != "f" {
		t.Errorf("name = %q, want f", got)
	}
	if got := def.Child("parameters").FirstNamed().Text(src); got != "a" {
		t.Errorf("first parameter = %q, want a", got)
	}
}

func TestPython3Error(t *testing.T) {
	tests := []struct {
		src, want string // want: a part of the message, "" for valid Python 3
	}{
		{"print(x)\n", ""},
		{"print x\n", "print statement"},
		{"exec code\n", "exec statement"},
		{"a <> b\n", "'<>'"},
		{"x = 10L\n", "10L"},
		{"raise E, msg\n", "raise"},
		{"def f(a=1, b): pass\n", "default"},
		{"f(a=1, b)\n", "positional argument"},
		{"x = rb'ok'\n", ""},
	}
	g := NewGrammar()
	for _, tt := range tests {
		src := []byte(tt.src)
		root, err := g.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		var msg string
		root.Walk(func(n *Node) bool {
			if at, m := Python3Error(n, src); at != nil && msg == "" {
				msg = m
			}
			return msg == ""
		})
		if tt.want == "" && msg != "" || !strings.Contains(msg, tt.want) {
			t.Errorf("%q: message %q, want one containing %q", tt.src, msg, tt.want)
		}
	}
}

// FuzzParse: no input makes Parse fail or panic, and every node lies within the source
// and within its parent, in order.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "def f(:\n", "x = '''\n", "class C:\n\tpass\n", "\x00\xff"} {
		f.Add([]byte(s))
	}
	g := NewGrammar()
	f.Fuzz(func(t *testing.T, src []byte) {
		root, err := g.Parse(src)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		root.Walk(func(n *Node) bool {
			if n.Start < 0 || n.Start > n.End || n.End > len(src) {
				t.Fatalf("node %s at [%d,%d) outside the source (%d bytes)", n.Kind, n.Start, n.End, len(src))
			}
			for _, c := range n.Children {
				if c.Start < n.Start || c.End > n.End {
					t.Fatalf("child %s [%d,%d) outside its parent %s [%d,%d)", c.Kind, c.Start, c.End, n.Kind, n.Start, n.End)
				}
			}
			return true
		})
	})
}
