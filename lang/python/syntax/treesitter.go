//go:build cgo

package syntax

import (
	"errors"
	"sort"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/agentverify/agentverify/lang"
)

// errNoTree is returned when tree-sitter produces no tree, which only happens when it
// is cancelled or misconfigured.
var errNoTree = errors.New("tree-sitter returned no syntax tree")

// Grammar is tree-sitter's Python language with its kind and field names in Go tables,
// so that copying a tree costs no cgo call per name. It is immutable.
type Grammar struct {
	lang   *sitter.Language
	kinds  []string // by kind id
	named  []bool   // by kind id
	fields []string // by field id
}

// errorKind is tree-sitter's kind id of ERROR nodes.
const errorKind = 0xFFFF

// NewGrammar returns tree-sitter's Python grammar, ready to parse.
func NewGrammar() *Grammar {
	useLibcAllocator()
	l := sitter.NewLanguage(tspython.Language())
	g := &Grammar{lang: l}
	for id := uint32(0); id < l.NodeKindCount(); id++ {
		g.kinds = append(g.kinds, l.NodeKindForId(uint16(id)))
		g.named = append(g.named, l.NodeKindIsNamed(uint16(id)))
	}
	for id := uint32(0); id <= l.FieldCount(); id++ {
		g.fields = append(g.fields, l.FieldNameForId(uint16(id)))
	}
	return g
}

// copier copies a tree-sitter tree into nodes.
type copier struct {
	g          *Grammar
	lineStarts []int // byte offset of each line's first byte
}

// Parse parses src with tree-sitter's Python grammar and copies the tree out.
func (g *Grammar) Parse(src []byte) (*Node, error) {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(g.lang); err != nil {
		return nil, err
	}
	t := p.Parse(src, nil)
	if t == nil {
		return nil, errNoTree
	}
	defer t.Close()
	c := t.Walk()
	defer c.Close()
	cp := &copier{g: g, lineStarts: lineStarts(src)}
	return cp.copy(c), nil
}

// lineStarts returns the offset of the first byte of each line of src.
func lineStarts(src []byte) []int {
	out := []int{0}
	for i, b := range src {
		if b == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// pos turns a byte offset into a position; tree-sitter counts rows by '\n' and columns
// in bytes, as this does.
func (cp *copier) pos(off int) lang.Pos {
	line := sort.Search(len(cp.lineStarts), func(i int) bool { return cp.lineStarts[i] > off }) - 1
	line = max(line, 0)
	return lang.Pos{Line: line + 1, Column: off - cp.lineStarts[line] + 1}
}

// copy copies the subtree at the cursor's node, leaving the cursor where it was.
func (cp *copier) copy(c *sitter.TreeCursor) *Node {
	n := c.Node()
	id := n.KindId()
	out := &Node{Start: int(n.StartByte()), End: int(n.EndByte())}
	switch {
	case id == errorKind:
		out.Kind, out.Named = "ERROR", true
	case int(id) < len(cp.g.kinds):
		out.Kind, out.Named = cp.g.kinds[id], cp.g.named[id]
	default:
		out.Kind, out.Named = n.Kind(), n.IsNamed()
	}
	if f := int(c.FieldId()); f > 0 && f < len(cp.g.fields) {
		out.Field = cp.g.fields[f]
	}
	out.Pos = cp.pos(out.Start)
	out.EndPos = out.Pos
	if out.End > out.Start {
		out.EndPos = cp.pos(out.End - 1)
	} else {
		out.Missing = n.IsMissing() // only zero-width nodes can be missing
	}
	if c.GotoFirstChild() {
		for {
			out.Children = append(out.Children, cp.copy(c))
			if !c.GotoNextSibling() {
				break
			}
		}
		c.GotoParent()
	}
	return out
}
