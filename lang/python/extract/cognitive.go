package extract

import "github.com/agentverify/agentverify/lang/python/syntax"

// cogWalker computes an approximation of SonarSource's cognitive complexity for one
// function (see the package doc).
type cogWalker struct {
	name  string // the function's name, for recursion
	src   []byte
	total int
}

// cogRule scores node n at nesting level lvl and walks what it contains.
type cogRule func(w *cogWalker, n *syntax.Node, lvl int)

var cogRules map[string]cogRule

func init() {
	cogRules = map[string]cogRule{
		"if_statement":           cogStructure,
		"for_statement":          cogStructure,
		"while_statement":        cogStructure,
		"match_statement":        cogStructure,
		"conditional_expression": cogStructure,
		"except_clause":          cogStructure,
		"except_group_clause":    cogStructure,
		"elif_clause":            cogBranch,
		"else_clause":            cogBranch,
		"function_definition":    cogNested,
		"lambda":                 cogNested,
		"boolean_operator":       cogBoolean,
		"call":                   cogCall,
	}
}

// cognitive is the cognitive complexity of the function named name with body body.
func cognitive(body *syntax.Node, name string, src []byte) int {
	w := &cogWalker{name: name, src: src}
	w.children(body, 0)
	return w.total
}

func (w *cogWalker) visit(n *syntax.Node, lvl int) {
	if rule := cogRules[n.Kind]; rule != nil {
		rule(w, n, lvl)
		return
	}
	w.children(n, lvl)
}

func (w *cogWalker) children(n *syntax.Node, lvl int) {
	if n == nil {
		return
	}
	for _, c := range n.Children {
		w.visit(c, lvl)
	}
}

// cogStructure: +1 plus the nesting level for if, loops, match, a conditional
// expression and an except clause; their bodies nest one level deeper. The condition
// stays at the structure's own level; elif and else clauses are scored by cogBranch.
func cogStructure(w *cogWalker, n *syntax.Node, lvl int) {
	w.total += 1 + lvl
	for _, c := range n.Children {
		if c.Kind == "block" {
			w.children(c, lvl+1)
			continue
		}
		w.visit(c, lvl)
	}
}

// cogBranch: +1 for elif and else (of if, loops and try); their bodies nest one level
// deeper than the statement they continue.
func cogBranch(w *cogWalker, n *syntax.Node, lvl int) {
	w.total++
	for _, c := range n.Children {
		if c.Kind == "block" {
			w.children(c, lvl+1)
			continue
		}
		w.visit(c, lvl)
	}
}

// cogNested: a nested function or lambda adds nothing itself but nests its body.
func cogNested(w *cogWalker, n *syntax.Node, lvl int) { w.children(n, lvl+1) }

// cogBoolean: +1 for each run of the same boolean operator (a and b and c is one run,
// a and b or c two).
func cogBoolean(w *cogWalker, n *syntax.Node, lvl int) {
	op := n.Child("operator").Text(w.src)
	for _, side := range []*syntax.Node{n.Child("left"), n.Child("right")} {
		if side != nil && side.Kind == "boolean_operator" && side.Child("operator").Text(w.src) == op {
			w.continueRun(side, op, lvl)
			continue
		}
		if side != nil {
			w.visit(side, lvl)
		}
	}
	w.total++
}

// continueRun walks a boolean operator that continues its parent's run: no score.
func (w *cogWalker) continueRun(n *syntax.Node, op string, lvl int) {
	w.total--
	cogBoolean(w, n, lvl)
}

// cogCall: +1 for a direct recursive call f(...) of the function itself.
func cogCall(w *cogWalker, n *syntax.Node, lvl int) {
	if f := n.Child("function"); f != nil && f.Kind == "identifier" && f.Text(w.src) == w.name {
		w.total++
	}
	w.children(n, lvl)
}
