package python

import (
	"github.com/agentverify/agentverify/lang"
)

// node is one node of the syntax tree, copied out of tree-sitter so that the analyses
// run in Go without a cgo call per question.
type node struct {
	kind     string // tree-sitter's kind: "function_definition", "ERROR", ":", ...
	field    string // the field its parent holds it in ("body", "name", ...), or ""
	named    bool
	missing  bool // inserted by error recovery: absent from the source
	start    int  // byte offsets into the source, end exclusive
	end      int
	pos      lang.Pos // position of the first byte
	endPos   lang.Pos // position of the last byte (inclusive)
	children []*node
}

// text is the source text of n.
func (n *node) text(src []byte) string {
	if n == nil || n.start > n.end || n.end > len(src) {
		return ""
	}
	return string(src[n.start:n.end])
}

// child returns the first child held in field, or nil.
func (n *node) child(field string) *node {
	if n == nil {
		return nil
	}
	for _, c := range n.children {
		if c.field == field {
			return c
		}
	}
	return nil
}

// named returns the named children of n.
func (n *node) namedChildren() []*node {
	var out []*node
	for _, c := range n.children {
		if c.named {
			out = append(out, c)
		}
	}
	return out
}

// firstOfKind returns the first child of n of the given kind, or nil.
func (n *node) firstOfKind(kind string) *node {
	for _, c := range n.children {
		if c.kind == kind {
			return c
		}
	}
	return nil
}

// walk calls fn for n and, while fn returns true, its descendants in source order.
func (n *node) walk(fn func(*node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, c := range n.children {
		c.walk(fn)
	}
}

// span is the source range of n.
func (n *node) span() lang.Span { return lang.Span{Start: n.pos, End: n.endPos} }
