package extract

import "github.com/agentverify/agentverify/lang/python/syntax"

// mccabe computes the decision count of mccabe 0.7.0 (the C901 checker of flake8 and
// ruff): it builds a path graph from statements only, so this walks statements only.
// The function's complexity is 1 + mccabeBlock(body).

// mccabeRules score one statement kind: the decisions it adds, its nested blocks
// included. Statements of other kinds — simple statements, and also match and
// try/except*, which mccabe 0.7.0 treats as simple statements — add nothing, and
// neither do expressions (boolean operators, comprehensions, lambdas).
var mccabeRules map[string]func(*syntax.Node) int

func init() {
	mccabeRules = map[string]func(*syntax.Node) int{
		"if_statement":         mccabeIf,
		"for_statement":        mccabeLoop,
		"while_statement":      mccabeLoop,
		"try_statement":        mccabeTry,
		"with_statement":       func(n *syntax.Node) int { return mccabeBlock(n.Child("body")) },
		"class_definition":     func(n *syntax.Node) int { return mccabeBlock(n.Child("body")) },
		"function_definition":  func(n *syntax.Node) int { return 1 + mccabeBlock(n.Child("body")) }, // a closure
		"decorated_definition": func(n *syntax.Node) int { return mccabeStmt(n.Child("definition")) },
	}
}

// mccabeBlock scores the statements of a block.
func mccabeBlock(b *syntax.Node) int {
	if b == nil {
		return 0
	}
	total := 0
	for _, s := range b.Children {
		total += mccabeStmt(s)
	}
	return total
}

func mccabeStmt(s *syntax.Node) int {
	if s == nil {
		return 0
	}
	if rule := mccabeRules[s.Kind]; rule != nil {
		return rule(s)
	}
	return 0
}

// mccabeIf: one decision for the if and one for each elif (an If in the orelse).
func mccabeIf(n *syntax.Node) int {
	total := 1 + mccabeBlock(n.Child("consequence"))
	for _, c := range n.Children {
		switch c.Kind {
		case "elif_clause":
			total += 1 + mccabeBlock(c.Child("consequence"))
		case "else_clause":
			total += mccabeBlock(c.Child("body"))
		}
	}
	return total
}

// mccabeLoop: one decision for a for or while loop, its else block walked too.
func mccabeLoop(n *syntax.Node) int {
	total := 1 + mccabeBlock(n.Child("body"))
	if e := n.Child("alternative"); e != nil {
		total += mccabeBlock(e.Child("body"))
	}
	return total
}

// mccabeTry: the try body, each handler and the else (or the fall-through) are paths
// to the join, so a try adds 1 + handlers; mccabe never walks the finally block. A
// try/except* is a simple statement to mccabe 0.7.0.
func mccabeTry(n *syntax.Node) int {
	if n.FirstOfKind("except_group_clause") != nil {
		return 0
	}
	total := 1 + mccabeBlock(n.Child("body"))
	for _, c := range n.Children {
		switch c.Kind {
		case "except_clause":
			total += 1 + mccabeBlock(c.FirstOfKind("block"))
		case "else_clause":
			total += mccabeBlock(c.Child("body"))
		}
	}
	return total
}
