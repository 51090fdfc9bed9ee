package typescript

import (
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// metrics computes the numbers of one function (its own code; see the package doc).
func (x *extractor) metrics(fn *syntax.Node) *lang.Metrics {
	return &lang.Metrics{
		Lines:      x.bodyLines(fn.Child("body")),
		Nesting:    nesting(fn),
		Cyclomatic: cyclomatic(fn),
		Cognitive:  cognitive(fn),
	}
}

// bodyLines counts the lines of a function body that hold code: for a block, the lines
// strictly between its braces' lines (a block on one line has 0); for an arrow
// function's expression body, every line of the expression.
func (x *extractor) bodyLines(body *syntax.Node) int {
	if body == nil {
		return 0
	}
	from, to := body.Pos.Line, body.EndPos.Line
	if body.Kind == "statement_block" {
		from, to = from+1, to-1
	}
	n := 0
	for l := from; l <= to && l < len(x.code); l++ {
		if x.code[l] {
			n++
		}
	}
	return n
}

// nestKinds are the structures that open a nesting level; the if of an else-if goes on
// its chain's level, and a try's catch and finally are on the try's.
var nestKinds = map[string]bool{
	"if_statement": true, "for_statement": true, "for_in_statement": true,
	"while_statement": true, "do_statement": true, "switch_statement": true,
	"try_statement": true,
}

// nesting is the deepest nesting of control structures in fn's own code.
func nesting(fn *syntax.Node) int {
	var deepest int
	var walk func(n *syntax.Node, d int)
	walk = func(n *syntax.Node, d int) {
		if nestKinds[n.Kind] && !elseIf(n) {
			d++
		}
		deepest = max(deepest, d)
		for _, c := range n.Children {
			if !separate(c) {
				walk(c, d)
			}
		}
	}
	for _, c := range fn.Children {
		if !separate(c) {
			walk(c, 0)
		}
	}
	return deepest
}

// codeLines marks the lines (1-based index) that hold a token that is not a comment;
// every line a multi-line token spans counts.
func codeLines(root *syntax.Node, nlines int) []bool {
	code := make([]bool, nlines+2)
	root.Walk(func(n *syntax.Node) bool {
		if n.Kind == "comment" {
			return false
		}
		if len(n.Children) == 0 && n.End > n.Start {
			for l := n.Pos.Line; l <= n.EndPos.Line && l < len(code); l++ {
				code[l] = true
			}
		}
		return true
	})
	return code
}
