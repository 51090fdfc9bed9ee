package python

import (
	"github.com/agentverify/agentverify/lang"
)

// metrics computes the complexity numbers of a function definition (see the package doc
// for the exact definitions).
func (x *extractor) metrics(def *node, name string) *lang.Metrics {
	body := def.child("body")
	return &lang.Metrics{
		Lines:      x.bodyLines(def, body),
		Nesting:    nesting(body, 0),
		Cyclomatic: 1 + mccabeBlock(body),
		Cognitive:  cognitive(body, name, x.src),
	}
}

// bodyLines counts the lines of the body after the header's ':' that hold code, the
// docstring's lines excluded.
func (x *extractor) bodyLines(def, body *node) int {
	from := body.pos.Line
	if colon := colonBefore(def, body); colon != nil && colon.pos.Line >= from {
		from = colon.pos.Line + 1
	}
	skipFrom, skipTo := 0, -1
	if ds := docstring(body); ds != nil {
		skipFrom, skipTo = ds.pos.Line, ds.endPos.Line
	}
	n := 0
	for l := from; l <= body.endPos.Line && l < len(x.code); l++ {
		if x.code[l] && (l < skipFrom || l > skipTo) {
			n++
		}
	}
	return n
}

// colonBefore returns the ':' token that ends the header before body.
func colonBefore(def, body *node) *node {
	var colon *node
	for _, c := range def.children {
		if c == body {
			break
		}
		if c.kind == ":" {
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
func nesting(n *node, d int) int {
	if n == nil {
		return d
	}
	if nestKinds[n.kind] {
		d++
	}
	deepest := d
	for _, c := range n.children {
		deepest = max(deepest, nesting(c, d))
	}
	return deepest
}
