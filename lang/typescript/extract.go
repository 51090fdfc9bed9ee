package typescript

import (
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// extractor fills a lang.File from one parsed file.
type extractor struct {
	src  []byte
	tree *syntax.Tree
	lf   *lang.File
	code []bool // lines holding code, by 1-based line number
	// fns maps a function node to the declaration it belongs to.
	fns map[*syntax.Node]int
	// exported holds the local names an export clause, `export default NAME` or a
	// CommonJS `module.exports = {…}` exports.
	exported map[string]bool
	// overloads holds the names of functions with at least one documented signature.
	documented map[string]bool
	// hidden holds the declarations of private, protected and #private class members.
	hidden map[int]bool
}

func newExtractor(tree *syntax.Tree, lf *lang.File) *extractor {
	return &extractor{src: tree.Src, tree: tree, lf: lf, code: codeLines(tree.Root, len(lf.Lines)),
		fns: map[*syntax.Node]int{}, exported: map[string]bool{}, documented: map[string]bool{}, hidden: map[int]bool{}}
}

// text is the source text of n.
func (x *extractor) text(n *syntax.Node) string { return n.Text(x.src) }

// add appends d and returns its index.
func (x *extractor) add(d lang.Decl) int {
	x.lf.Decls = append(x.lf.Decls, d)
	return len(x.lf.Decls) - 1
}

// comments collects the file's comments.
func (x *extractor) comments() {
	x.tree.Root.Walk(func(n *syntax.Node) bool {
		if n.Kind == "comment" {
			x.lf.Comments = append(x.lf.Comments, lang.Comment{Text: x.text(n), Pos: n.Pos, EndLine: n.EndPos.Line})
			return false
		}
		return true
	})
}

// jsdoc reports whether the statement or member n has a JSDoc comment (/** … */) right
// before it: the previous sibling, decorators skipped, ending on the line before n or
// on n's line.
func (x *extractor) jsdoc(n *syntax.Node) bool {
	p := n.Parent
	if p == nil {
		return false
	}
	i := indexOf(p.Children, n)
	for j := i - 1; j >= 0; j-- {
		c := p.Children[j]
		switch {
		case c.Kind == "decorator":
			continue
		case c.Kind == "comment":
			t := x.text(c)
			return strings.HasPrefix(t, "/**") && !strings.HasPrefix(t, "/**/") && c.EndPos.Line >= n.Pos.Line-1
		}
		return false
	}
	return false
}

func indexOf(ns []*syntax.Node, n *syntax.Node) int {
	for i, c := range ns {
		if c == n {
			return i
		}
	}
	return -1
}

// collapse returns s with runs of white space made one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
