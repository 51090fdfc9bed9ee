//go:build cgo

package syntax

import (
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/agentverify/agentverify/lang/internal/treesitter"
)

// Grammar is tree-sitter's Python grammar, ready to parse. It is immutable.
type Grammar struct{ g *treesitter.Grammar }

// NewGrammar returns tree-sitter's Python grammar, ready to parse.
func NewGrammar() *Grammar { return &Grammar{treesitter.NewGrammar(tspython.Language())} }

// Parse parses src with tree-sitter's Python grammar and copies the tree out.
func (g *Grammar) Parse(src []byte) (*Node, error) { return treesitter.Parse(g.g, src, newNode) }

// newNode makes the node of f and adds it to parent's children.
func newNode(f treesitter.Fields, parent *Node) *Node {
	n := &Node{Kind: f.Kind, Field: f.Field, Named: f.Named, Missing: f.Missing,
		Start: f.Start, End: f.End, Pos: f.Pos, EndPos: f.EndPos}
	if parent != nil {
		parent.Children = append(parent.Children, n)
	}
	return n
}

// functionBodies are what ParseDecls leaves out.
var functionBodies = treesitter.Skip{Kind: "function_definition", Field: "body"}

// ParseDecls is Parse for a reader of declarations: each function's body is there, with
// its place, but empty. Copying a stub's or module's function bodies costs time that
// such a reader never uses.
func (g *Grammar) ParseDecls(src []byte) (*Node, error) {
	return treesitter.ParseSkipping(g.g, src, functionBodies, newNode)
}
