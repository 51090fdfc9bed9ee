//go:build cgo

package syntax

import (
	"sync"

	tstypescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/agentverify/agentverify/lang/internal/treesitter"
)

var (
	grammarsOnce sync.Once
	grammars     [2]*treesitter.Grammar
)

func load() {
	grammars[TypeScript] = treesitter.NewGrammar(tstypescript.LanguageTypescript())
	grammars[TSX] = treesitter.NewGrammar(tstypescript.LanguageTSX())
}

// Parse parses src with the grammar of d. The tree holds whatever tree-sitter recovered;
// Tree.Errors lists every ERROR and MISSING node.
func Parse(d Dialect, src []byte) (*Tree, error) {
	grammarsOnce.Do(load)
	root, err := treesitter.Parse(grammars[d], src, newNode)
	if err != nil {
		return nil, err
	}
	return &Tree{Root: root, Src: src, Errors: errorsOf(root, src)}, nil
}

// newNode makes the node of f and adds it to parent's children.
func newNode(f treesitter.Fields, parent *Node) *Node {
	n := &Node{Kind: f.Kind, Field: f.Field, Named: f.Named, Missing: f.Missing,
		Start: f.Start, End: f.End, Pos: f.Pos, EndPos: f.EndPos, Parent: parent}
	if parent != nil {
		parent.Children = append(parent.Children, n)
	}
	return n
}
