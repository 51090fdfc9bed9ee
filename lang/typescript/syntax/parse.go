//go:build cgo

package syntax

import (
	"errors"
	"fmt"
	"sort"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tstypescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/agentverify/agentverify/lang"
)

// errNoTree is returned when tree-sitter produces no tree, which only happens when it
// is cancelled or misconfigured.
var errNoTree = errors.New("tree-sitter returned no syntax tree")

// grammar is one tree-sitter language with its kind and field names in Go tables, so
// that copying a tree costs no cgo call per name. It is immutable once built.
type grammar struct {
	lang   *sitter.Language
	kinds  []string // by kind id
	named  []bool   // by kind id
	fields []string // by field id
}

// errorKind is tree-sitter's kind id of ERROR nodes.
const errorKind = 0xFFFF

var (
	grammarsOnce sync.Once
	grammars     [2]*grammar
)

func load() {
	useLibcAllocator()
	grammars[TypeScript] = newGrammar(sitter.NewLanguage(tstypescript.LanguageTypescript()))
	grammars[TSX] = newGrammar(sitter.NewLanguage(tstypescript.LanguageTSX()))
}

func newGrammar(l *sitter.Language) *grammar {
	g := &grammar{lang: l}
	for id := uint32(0); id < l.NodeKindCount(); id++ {
		g.kinds = append(g.kinds, l.NodeKindForId(uint16(id)))
		g.named = append(g.named, l.NodeKindIsNamed(uint16(id)))
	}
	for id := uint32(0); id <= l.FieldCount(); id++ {
		g.fields = append(g.fields, l.FieldNameForId(uint16(id)))
	}
	return g
}

// Parse parses src with the grammar of d. The tree holds whatever tree-sitter recovered;
// Tree.Errors lists every ERROR and MISSING node.
func Parse(d Dialect, src []byte) (*Tree, error) {
	grammarsOnce.Do(load)
	g := grammars[d]
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
	cp := &copier{g: g, lineStarts: lineStarts(src)}
	root := cp.copy(c, nil)
	return &Tree{Root: root, Src: src, Errors: errorsOf(root, src)}, nil
}

// copier copies a tree-sitter tree into Nodes.
type copier struct {
	g          *grammar
	lineStarts []int // byte offset of each line's first byte
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

// pos turns a byte offset into a position.
func (cp *copier) pos(off int) lang.Pos {
	line := sort.Search(len(cp.lineStarts), func(i int) bool { return cp.lineStarts[i] > off }) - 1
	line = max(line, 0)
	return lang.Pos{Line: line + 1, Column: off - cp.lineStarts[line] + 1}
}

// copy copies the subtree at the cursor's node, leaving the cursor where it was.
func (cp *copier) copy(c *sitter.TreeCursor, parent *Node) *Node {
	n := c.Node()
	id := n.KindId()
	out := &Node{Start: int(n.StartByte()), End: int(n.EndByte()), Parent: parent}
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
			out.Children = append(out.Children, cp.copy(c, out))
			if !c.GotoNextSibling() {
				break
			}
		}
		c.GotoParent()
	}
	return out
}
