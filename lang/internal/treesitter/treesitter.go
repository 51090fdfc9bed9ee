//go:build cgo

package treesitter

import (
	"errors"
	"fmt"
	"sort"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/agentverify/agentverify/lang"
)

// errNoTree is returned when tree-sitter produces no tree, which only happens when it
// is cancelled or misconfigured.
var errNoTree = errors.New("tree-sitter returned no syntax tree")

// Grammar is one tree-sitter language with its kind and field names in Go tables, so
// that copying a tree costs no cgo call per name. It is immutable.
type Grammar struct {
	lang   *sitter.Language
	kinds  []string // by kind id
	named  []bool   // by kind id
	fields []string // by field id
}

// errorKind is tree-sitter's kind id of ERROR nodes.
const errorKind = 0xFFFF

// NewGrammar returns the grammar of a language as its Go binding gives it
// (tree_sitter_python.Language()).
func NewGrammar(language unsafe.Pointer) *Grammar {
	useLibcAllocator()
	l := sitter.NewLanguage(language)
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

// skipIDs numbers skip as g does; a name g does not have skips nothing.
func (g *Grammar) skipIDs(skip Skip) skipIDs {
	if skip == (Skip{}) {
		return skipIDs{}
	}
	kind, field := g.lang.IdForNodeKind(skip.Kind, true), g.lang.FieldIdForName(skip.Field)
	if kind == 0 || field == 0 {
		return skipIDs{}
	}
	return skipIDs{kind, field}
}

// Fields are what one node of the tree holds, copied out of C.
type Fields struct {
	Kind    string // tree-sitter's kind, "ERROR" for an ERROR node
	Field   string // the field its parent holds it in, or ""
	Named   bool
	Missing bool // inserted by error recovery: absent from the source
	// Start and End are byte offsets into the source, End exclusive.
	Start, End int
	// Pos is the position of the first byte, EndPos that of the last (inclusive).
	Pos, EndPos lang.Pos
}

// Parse parses src with g and copies the tree out: node makes the Go value of one node
// under parent (nil for the root) and adds it to parent's children. It is called in
// source order, for a parent before its children.
func Parse[N any](g *Grammar, src []byte, node func(f Fields, parent *N) *N) (*N, error) {
	return ParseSkipping(g, src, Skip{}, node)
}

// Skip names the nodes a parse copies without what is under them: those held in Field
// by a node of kind Kind (a function's body, for a reader of declarations). The zero
// Skip copies everything.
type Skip struct{ Kind, Field string }

// ParseSkipping is Parse without the contents of the nodes skip names: what is under
// them costs nothing to copy, and is absent from the copy.
func ParseSkipping[N any](g *Grammar, src []byte, skip Skip, node func(f Fields, parent *N) *N) (*N, error) {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(g.lang); err != nil {
		return nil, fmt.Errorf("tree-sitter: %w", err)
	}
	t := p.Parse(src, nil)
	if t == nil {
		return nil, errNoTree
	}
	defer t.Close()
	c := t.Walk()
	defer c.Close()
	cp := &copier[N]{g: g, lineStarts: lineStarts(src), node: node}
	var root *N
	err := walk(c, g.skipIDs(skip), func(nodes []flatNode) { root = cp.copy(nodes) })
	return root, err
}

// copier copies a tree-sitter tree into Go nodes.
type copier[N any] struct {
	g          *Grammar
	lineStarts []int // byte offset of each line's first byte
	line       int   // the line of the last start offset asked (they only grow)
	node       func(Fields, *N) *N
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
func (cp *copier[N]) pos(off int) lang.Pos {
	line := sort.Search(len(cp.lineStarts), func(i int) bool { return cp.lineStarts[i] > off }) - 1
	line = max(line, 0)
	return lang.Pos{Line: line + 1, Column: off - cp.lineStarts[line] + 1}
}

// startPos is pos of a node's start: in source order they never decrease, so the line
// is found by stepping on from the last one.
func (cp *copier[N]) startPos(off int) lang.Pos {
	if cp.line >= len(cp.lineStarts) || cp.lineStarts[cp.line] > off {
		return cp.pos(off)
	}
	for cp.line+1 < len(cp.lineStarts) && cp.lineStarts[cp.line+1] <= off {
		cp.line++
	}
	return lang.Pos{Line: cp.line + 1, Column: off - cp.lineStarts[cp.line] + 1}
}

// copy makes the Go nodes of the listed tree, a parent before its children, and
// returns the root's.
func (cp *copier[N]) copy(nodes []flatNode) *N {
	var root *N
	var parents []*N // by depth
	for i := range nodes {
		f := cp.fields(&nodes[i])
		depth := int(nodes[i].depth)
		var parent *N
		if depth > 0 && depth <= len(parents) {
			parent = parents[depth-1]
		}
		out := cp.node(f, parent)
		parents = append(parents[:min(depth, len(parents))], out)
		if i == 0 {
			root = out
		}
	}
	return root
}

// fields are what the node r holds, with names and positions.
func (cp *copier[N]) fields(r *flatNode) Fields {
	id := uint16(r.kind)
	f := Fields{Start: int(r.start), End: int(r.end)}
	switch {
	case id == errorKind:
		f.Kind, f.Named = "ERROR", true
	case int(id) < len(cp.g.kinds):
		f.Kind, f.Named = cp.g.kinds[id], cp.g.named[id]
	default:
		f.Kind, f.Named = cp.g.lang.NodeKindForId(id), cp.g.lang.NodeKindIsNamed(id)
	}
	if i := int(r.field); i > 0 && i < len(cp.g.fields) {
		f.Field = cp.g.fields[i]
	}
	f.Pos = cp.startPos(f.Start)
	f.EndPos = f.Pos
	if f.End > f.Start {
		f.EndPos = cp.pos(f.End - 1)
	} else {
		f.Missing = r.missing != 0
	}
	return f
}
