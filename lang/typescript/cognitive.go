package typescript

import "github.com/agentverify/agentverify/lang/typescript/syntax"

// cognitive is the cognitive complexity eslint-plugin-sonarjs (rule S3776) reports for
// one function, its own code only (nested functions are reported on their own, as
// sonarjs does):
//
//   - +1 plus the nesting level for if (not an else-if), for, for-in/of, while, do-while,
//     switch, catch and ?:;
//   - +1 for else-if and for else;
//   - +1 for a labelled break or continue;
//   - +1 for each && in a flattened chain of logical operators whose previous operator
//     is not && (sonarjs counts no || or ??), except for a chain of one operator that is
//     the whole expression of a JSX container ({cond && <X/>});
//
// where the nesting level rises inside the branches of an if or ?:, the body of a loop,
// each case of a switch and the body of a catch. One quirk of sonarjs is kept: a branch
// of ?: that is itself a function raises the nesting level of the rest of the enclosing
// function by one (its visitor enters the branch as a nesting node before it sees the
// function, and leaves it after the function's own level is gone).
func cognitive(fn *syntax.Node) int {
	c := &cognition{counted: map[*syntax.Node]bool{}}
	for _, ch := range fn.Children {
		if !separate(ch) {
			c.visit(ch, 0)
		}
	}
	return c.total
}

type cognition struct {
	total   int
	leak    int                   // levels added by ?: branches that are functions (see cognitive)
	counted map[*syntax.Node]bool // logical expressions already in a counted chain
}

// visit scores n at nesting level lvl and goes on into its children.
func (c *cognition) visit(n *syntax.Node, depth int) {
	nested := c.score(n, depth+c.leak)
	for _, ch := range n.Children {
		switch {
		case nested[ch] && isFunction(ch.Unparen()):
			c.leak++
		case separate(ch):
		case nested[ch]:
			c.visit(ch, depth+1)
		default:
			c.visit(ch, depth)
		}
	}
}

// score adds what n scores at level lvl and returns its children that are one level
// deeper.
func (c *cognition) score(n *syntax.Node, lvl int) map[*syntax.Node]bool {
	nested := map[*syntax.Node]bool{}
	switch n.Kind {
	case "if_statement":
		c.ifStatement(n, lvl, nested)
	case "for_statement", "for_in_statement", "while_statement", "do_statement":
		c.total += lvl + 1
		nested[n.Child("body")] = true
	case "switch_statement":
		c.total += lvl + 1
		nested[n.Child("body")] = true // every case
	case "catch_clause":
		c.total += lvl + 1
		nested[n.Child("body")] = true
	case "ternary_expression":
		c.total += lvl + 1
		nested[n.Child("consequence")] = true
		nested[n.Child("alternative")] = true
	case "break_statement", "continue_statement":
		if n.Child("label") != nil {
			c.total++
		}
	case "binary_expression":
		c.logical(n)
	}
	return nested
}

// ifStatement scores an if: +1 plus the level, or +1 for an else-if; +1 for an else.
func (c *cognition) ifStatement(n *syntax.Node, lvl int, nested map[*syntax.Node]bool) {
	if elseIf(n) {
		c.total++
	} else {
		c.total += lvl + 1
	}
	nested[n.Child("consequence")] = true
	if e := n.Child("alternative"); e != nil {
		if body := elseBody(e); body != nil && body.Kind != "if_statement" {
			c.total++
			nested[e] = true
		}
	}
}

// elseIf reports whether the if statement n is the if of an else-if.
func elseIf(n *syntax.Node) bool {
	return n.Parent != nil && n.Parent.Kind == "else_clause"
}

// elseBody is the statement of an else clause.
func elseBody(e *syntax.Node) *syntax.Node {
	for _, c := range e.Children {
		if c.Named && c.Kind != "comment" {
			return c
		}
	}
	return nil
}

// logical scores the chain of logical operators n heads, once per chain.
func (c *cognition) logical(n *syntax.Node) {
	if !logical[operator(n)] || c.counted[n] {
		return
	}
	if chain := jsxShortCircuit(n); chain != nil {
		for _, x := range chain {
			c.counted[x] = true
		}
		return
	}
	prev := ""
	for _, x := range c.flatten(n) {
		op := operator(x)
		if op == "&&" && prev != "&&" {
			c.total++
		}
		prev = op
	}
}

// flatten lists the logical expressions of the chain at n in source order (through
// parentheses, as ESTree has none), marking them counted.
func (c *cognition) flatten(n *syntax.Node) []*syntax.Node {
	n = n.Unparen()
	if n == nil || n.Kind != "binary_expression" || !logical[operator(n)] {
		return nil
	}
	c.counted[n] = true
	out := c.flatten(n.Child("left"))
	out = append(out, n)
	return append(out, c.flatten(n.Child("right"))...)
}

// jsxShortCircuit returns the logical expressions of a chain of one operator that is
// the whole expression of a JSX container, which sonarjs does not count; nil otherwise.
func jsxShortCircuit(n *syntax.Node) []*syntax.Node {
	p := n.Parent
	for p != nil && p.Kind == "parenthesized_expression" {
		p = p.Parent
	}
	if p == nil || p.Kind != "jsx_expression" {
		return nil
	}
	out, ok := sameOperator(n, operator(n))
	if !ok {
		return nil
	}
	return out
}

func sameOperator(n *syntax.Node, op string) ([]*syntax.Node, bool) {
	n = n.Unparen()
	switch {
	case n == nil:
		return nil, true
	case n.Kind == "ternary_expression":
		return nil, false
	case n.Kind != "binary_expression" || !logical[operator(n)]:
		return nil, true
	case operator(n) != op:
		return nil, false
	}
	left, ok1 := sameOperator(n.Child("left"), op)
	right, ok2 := sameOperator(n.Child("right"), op)
	if !ok1 || !ok2 {
		return nil, false
	}
	out := append(left, n)
	return append(out, right...), true
}
