package syntax

import (
	"github.com/agentverify/agentverify/lang"
)

// Node is one node of the syntax tree, copied out of tree-sitter so that the analyses
// run in Go without a cgo call per question.
type Node struct {
	Kind     string // tree-sitter's kind: "function_definition", "ERROR", ":", ...
	Field    string // the field its parent holds it in ("body", "name", ...), or ""
	Named    bool
	Missing  bool // inserted by error recovery: absent from the source
	Start    int  // byte offsets into the source, end exclusive
	End      int
	Pos      lang.Pos // position of the first byte
	EndPos   lang.Pos // position of the last byte (inclusive)
	Children []*Node
}

// Text is the source text of n.
func (n *Node) Text(src []byte) string {
	if n == nil || n.Start > n.End || n.End > len(src) {
		return ""
	}
	return string(src[n.Start:n.End])
}

// Child returns the first child held in field, or nil.
func (n *Node) Child(field string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Field == field {
			return c
		}
	}
	return nil
}

// NamedChildren returns the named children of n.
func (n *Node) NamedChildren() []*Node {
	var out []*Node
	for _, c := range n.Children {
		if c.Named {
			out = append(out, c)
		}
	}
	return out
}

// FirstOfKind returns the first child of n of the given kind, or nil.
func (n *Node) FirstOfKind(kind string) *Node {
	for _, c := range n.Children {
		if c.Kind == kind {
			return c
		}
	}
	return nil
}

// Walk calls fn for n and, while fn returns true, its descendants in source order.
func (n *Node) Walk(fn func(*Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, c := range n.Children {
		c.Walk(fn)
	}
}

// Span is the source range of n.
func (n *Node) Span() lang.Span { return lang.Span{Start: n.Pos, End: n.EndPos} }

// FirstNamed returns the first named child of n, or nil.
func (n *Node) FirstNamed() *Node {
	for _, c := range n.Children {
		if c.Named {
			return c
		}
	}
	return nil
}
