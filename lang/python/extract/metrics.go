package extract

import (
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// metrics computes the complexity numbers of a function definition (see the package doc
// for the exact definitions).
func (x *extractor) metrics(def *syntax.Node, name string) *lang.Metrics {
	body := def.Child("body")
	return &lang.Metrics{
		Lines:      x.bodyLines(def, body),
		Nesting:    nesting(body, 0),
		Cyclomatic: 1 + mccabeBlock(body),
		Cognitive:  cognitive(body, name, x.src),
	}
}

// bodyLines counts the lines of the body after the header's ':' that hold code, the
// docstring's lines excluded.
func (x *extractor) bodyLines(def, body *syntax.Node) int {
	from := body.Pos.Line
	if colon := colonBefore(def, body); colon != nil && colon.Pos.Line >= from {
		from = colon.Pos.Line + 1
	}
	skipFrom, skipTo := 0, -1
	if ds := docstring(body); ds != nil {
		skipFrom, skipTo = ds.Pos.Line, ds.EndPos.Line
	}
	n := 0
	for l := from; l <= body.EndPos.Line && l < len(x.code); l++ {
		if x.code[l] && (l < skipFrom || l > skipTo) {
			n++
		}
	}
	return n
}

// colonBefore returns the ':' token that ends the header before body.
func colonBefore(def, body *syntax.Node) *syntax.Node {
	var colon *syntax.Node
	for _, c := range def.Children {
		if c == body {
			break
		}
		if c.Kind == ":" {
			colon = c
		}
	}
	return colon
}

// nestKinds are the structures that open a nesting level. The clauses of an if (elif,
// else), a try (except, else, finally) and a match (case) are inside their statement's
// level, so an elif chain of any length is one level.
var nestKinds = map[string]bool{
	"if_statement":        true,
	"for_statement":       true,
	"while_statement":     true,
	"try_statement":       true,
	"with_statement":      true,
	"match_statement":     true,
	"function_definition": true,
	"lambda":              true,
}

// nesting returns the deepest nesting under n, which is at depth d.
func nesting(n *syntax.Node, d int) int {
	if n == nil {
		return d
	}
	if nestKinds[n.Kind] {
		d++
	}
	deepest := d
	for _, c := range n.Children {
		deepest = max(deepest, nesting(c, d))
	}
	return deepest
}
