//go:build cgo

package treesitter

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// cursorCopy is the copy made with the binding's cursor, a cgo call per node and
// question: the reference the one-call walk must match.
func cursorCopy(t testing.TB, g *Grammar, src []byte) *node {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(g.lang); err != nil {
		t.Fatal(err)
	}
	tree := p.Parse(src, nil)
	defer tree.Close()
	c := tree.Walk()
	defer c.Close()
	cp := &copier[node]{g: g, lineStarts: lineStarts(src)}
	var rec func(parent *node) *node
	rec = func(parent *node) *node {
		n := c.Node()
		f := Fields{Start: int(n.StartByte()), End: int(n.EndByte())}
		switch id := n.KindId(); {
		case id == errorKind:
			f.Kind, f.Named = "ERROR", true
		default:
			f.Kind, f.Named = n.Kind(), n.IsNamed()
		}
		if i := int(c.FieldId()); i > 0 {
			f.Field = g.fields[i]
		}
		f.Pos, f.EndPos = cp.pos(f.Start), cp.pos(f.Start)
		if f.End > f.Start {
			f.EndPos = cp.pos(f.End - 1)
		} else {
			f.Missing = n.IsMissing()
		}
		out := &node{Fields: f}
		if parent != nil {
			parent.kids = append(parent.kids, out)
		}
		if c.GotoFirstChild() {
			for {
				rec(out)
				if !c.GotoNextSibling() {
					break
				}
			}
			c.GotoParent()
		}
		return out
	}
	return rec(nil)
}

// The binding's TreeCursor must be tree-sitter's TSTreeCursor and nothing else: walk
// hands its address to C.
func TestCursorLayout(t *testing.T) {
	if a, b := unsafe.Sizeof(sitter.TreeCursor{}), unsafe.Sizeof(flatCursor{}); a != b {
		t.Fatalf("sitter.TreeCursor is %d bytes, TSTreeCursor %d: the binding changed; update walk.go", a, b)
	}
}

// The walk copies every node, unnamed, missing and ERROR ones included, exactly as the
// cursor does: kinds, fields, offsets, positions and the shape of the tree.
func TestWalkMatchesCursor(t *testing.T) {
	g := NewGrammar(tspython.Language())
	srcs := []string{"", "x", "x = 1\n", "def f(:\n    pass\n", "print(1\n", "class A(B):\n\tdef g(self): return [i for i in 'é']\n",
		"\n\n\n", "if x:\n  pass\nelif y:\n  )\n", "s = '''\n\n'''\nz = s\n"}
	// past the C walk's first allocations: 64 levels deep, 1024 nodes long
	srcs = append(srcs, "x = "+strings.Repeat("(", 300)+"1"+strings.Repeat(")", 300)+"\n",
		"def f():\n"+strings.Repeat("    x = [1, 2]\n", 300))
	if testing.Short() {
		// the standard library's decimal module below: seconds through the cursor
	} else if out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output(); err == nil {
		if data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "_pydecimal.py")); err == nil {
			srcs = append(srcs, string(data), string(data[:len(data)/3]))
		}
	}
	skip := Skip{"function_definition", "body"}
	for _, src := range srcs {
		want, got := cursorCopy(t, g, []byte(src)), parse(t, src)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the walk's copy of %.40q differs from the cursor's", src)
		}
		pruned, err := ParseSkipping(g, []byte(src), skip, func(f Fields, parent *node) *node {
			n := &node{Fields: f}
			if parent != nil {
				parent.kids = append(parent.kids, n)
			}
			return n
		})
		if err != nil {
			t.Fatal(err)
		}
		prune(want, skip)
		if !reflect.DeepEqual(pruned, want) {
			t.Errorf("the copy of %.40q skipping function bodies is not the whole copy without them", src)
		}
	}
}

// prune drops what skip names from n's copy.
func prune(n *node, skip Skip) {
	for _, k := range n.kids {
		if n.Kind == skip.Kind && k.Field == skip.Field {
			k.kids = nil
		}
		prune(k, skip)
	}
}

func FuzzWalk(f *testing.F) {
	for _, s := range []string{"x = 1\n", "def f(:\n", "class A:\n  def g(self):\n    return self.x\n", "print(1\n"} {
		f.Add(s)
	}
	g := NewGrammar(tspython.Language())
	f.Fuzz(func(t *testing.T, src string) {
		if !reflect.DeepEqual(parse(t, src), cursorCopy(t, g, []byte(src))) {
			t.Errorf("the walk's copy of %q differs from the cursor's", src)
		}
	})
}
