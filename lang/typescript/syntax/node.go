package syntax

import (
	"path"
	"strings"

	"github.com/agentverify/agentverify/lang"
)

// Node is one node of the syntax tree.
type Node struct {
	Kind    string // tree-sitter's kind: "function_declaration", "ERROR", "(", ...
	Field   string // the field its parent holds it in ("body", "name", ...), or ""
	Named   bool
	Missing bool // inserted by error recovery: absent from the source
	// Start and End are byte offsets into the source, End exclusive.
	Start, End int
	// Pos is the position of the first byte, EndPos that of the last (inclusive).
	Pos, EndPos lang.Pos
	Parent      *Node
	Children    []*Node
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

// ChildrenOf returns every child held in field.
func (n *Node) ChildrenOf(field string) []*Node {
	if n == nil {
		return nil
	}
	var out []*Node
	for _, c := range n.Children {
		if c.Field == field {
			out = append(out, c)
		}
	}
	return out
}

// NamedChildren returns the named children of n.
func (n *Node) NamedChildren() []*Node {
	if n == nil {
		return nil
	}
	var out []*Node
	for _, c := range n.Children {
		if c.Named {
			out = append(out, c)
		}
	}
	return out
}

// OfKind returns the first child of n of the given kind, or nil.
func (n *Node) OfKind(kind string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Kind == kind {
			return c
		}
	}
	return nil
}

// Walk calls fn for n and, while fn returns true, for its descendants in source order.
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

// Unparen returns the expression inside any parentheses around n (and TypeScript's
// non-null assertion and satisfies wrappers are not unwrapped: they are expressions of
// their own in ESTree too).
func (n *Node) Unparen() *Node {
	for n != nil && n.Kind == "parenthesized_expression" {
		inner := n.NamedChildren()
		if len(inner) != 1 {
			break
		}
		n = inner[0]
	}
	return n
}

// Dialect is the grammar a file is read with.
type Dialect int

// The grammars.
const (
	TypeScript Dialect = iota // .ts .mts .cts
	TSX                       // .tsx and JavaScript
)

// Extensions are the file extensions of TypeScript and JavaScript sources.
var Extensions = []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

// DialectOf returns the grammar for the file at p.
func DialectOf(p string) Dialect {
	switch strings.ToLower(path.Ext(p)) {
	case ".ts", ".mts", ".cts":
		return TypeScript
	}
	return TSX
}

// IsJS reports whether the file at p is JavaScript (no type annotations of its own).
func IsJS(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".js", ".jsx", ".mjs", ".cjs":
		return true
	}
	return false
}

// IsDeclaration reports whether p is a declaration file (.d.ts, .d.mts, .d.cts).
func IsDeclaration(p string) bool {
	b := strings.ToLower(path.Base(p))
	return strings.HasSuffix(b, ".d.ts") || strings.HasSuffix(b, ".d.mts") || strings.HasSuffix(b, ".d.cts") ||
		strings.Contains(b, ".d.") && strings.HasSuffix(b, ".ts")
}

// SyntaxError is a place the grammar could not read.
type SyntaxError struct {
	Pos     lang.Pos
	Message string
}

// Tree is a parsed file.
type Tree struct {
	Root   *Node
	Src    []byte
	Errors []SyntaxError
}
