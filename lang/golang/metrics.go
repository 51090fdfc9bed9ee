package golang

import (
	"go/ast"
	"go/token"

	"github.com/agentverify/agentverify/lang"
)

// metrics computes the complexity numbers of fn, a function with a body (see the
// package doc for the exact definitions).
func (x *extractor) metrics(fn *ast.FuncDecl) *lang.Metrics {
	return &lang.Metrics{
		Lines:      x.bodyLines(fn.Body),
		Nesting:    nesting(fn.Body),
		Cyclomatic: cyclomatic(fn),
		Cognitive:  cognitive(fn),
	}
}

// bodyLines counts the lines strictly between the body's braces that hold code.
func (x *extractor) bodyLines(body *ast.BlockStmt) int {
	if !body.Lbrace.IsValid() || !body.Rbrace.IsValid() {
		return 0
	}
	from, to := x.pos(body.Lbrace).Line, x.pos(body.Rbrace).Line
	n := 0
	for l := from + 1; l < to && l < len(x.codeLines); l++ {
		if x.codeLines[l] {
			n++
		}
	}
	return n
}

// nesting returns the deepest nesting of control structures under n.
func nesting(n ast.Node) int {
	deepest := 0
	ast.Walk(&nestVisitor{deepest: &deepest}, n)
	return deepest
}

type nestVisitor struct {
	depth   int
	deepest *int
}

func (v *nestVisitor) enter() *nestVisitor {
	d := v.depth + 1
	*v.deepest = max(*v.deepest, d)
	return &nestVisitor{depth: d, deepest: v.deepest}
}

func (v *nestVisitor) Visit(n ast.Node) ast.Visitor {
	switch n := n.(type) {
	case *ast.IfStmt:
		v.enter().ifChain(n)
		return nil
	case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.FuncLit:
		return v.enter()
	}
	return v
}

// ifChain walks an if and its else-if continuations, all at v's depth.
func (v *nestVisitor) ifChain(n *ast.IfStmt) {
	for n != nil {
		for _, c := range []ast.Node{n.Init, n.Cond, n.Body} {
			if c != nil && !isNilNode(c) {
				ast.Walk(v, c)
			}
		}
		switch e := n.Else.(type) {
		case *ast.IfStmt:
			n = e
			continue
		case *ast.BlockStmt:
			ast.Walk(v, e)
		}
		n = nil
	}
}

// isNilNode reports whether c holds a typed nil (an absent body).
func isNilNode(c ast.Node) bool {
	switch c := c.(type) {
	case *ast.BlockStmt:
		return c == nil
	case *ast.FuncType:
		return c == nil
	}
	return false
}

// litMetrics computes the complexity numbers of the function literals in the value of a
// package-level variable (var f = func() { … }), so that moving a function into a
// variable does not take it out of measurement. A value holding several literals (a map
// of handlers) gets, for each metric, the worst of its literals; nil when it holds none.
func (x *extractor) litMetrics(value ast.Expr) *lang.Metrics {
	var m *lang.Metrics
	ast.Inspect(value, func(n ast.Node) bool {
		lit, ok := n.(*ast.FuncLit)
		if !ok || lit.Body == nil {
			return true
		}
		one := &lang.Metrics{
			Lines:      x.bodyLines(lit.Body),
			Nesting:    nesting(lit.Body),
			Cyclomatic: cyclomatic(lit.Body),
			Cognitive:  cognitiveOf(lit.Body),
		}
		if m == nil {
			m = one
		} else {
			m.Lines, m.Nesting = max(m.Lines, one.Lines), max(m.Nesting, one.Nesting)
			m.Cyclomatic, m.Cognitive = max(m.Cyclomatic, one.Cyclomatic), max(m.Cognitive, one.Cognitive)
		}
		return false // literals inside this one count toward it
	})
	return m
}

// cyclomatic is gocyclo's complexity of fn (a function declaration or a literal's body).
func cyclomatic(fn ast.Node) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// cognitive is gocognit's complexity of fn, with recursion detected for direct
// self-calls only (gocognit's single-declaration mode).
func cognitive(fn *ast.FuncDecl) int {
	total := cognitiveOf(fn)
	if callsItself(fn) {
		total++
	}
	return total
}

// cognitiveOf is gocognit's complexity of the code under n, recursion not counted.
func cognitiveOf(n ast.Node) int {
	v := &cogVisitor{elseIfs: map[*ast.IfStmt]bool{}, counted: map[*ast.BinaryExpr]bool{}}
	ast.Walk(v, n)
	return v.total
}

type cogVisitor struct {
	total, nesting int
	elseIfs        map[*ast.IfStmt]bool     // ifs that continue an else-if chain
	counted        map[*ast.BinaryExpr]bool // logical operators already scored
}

// walk visits each present node of ns.
func (v *cogVisitor) walk(ns ...ast.Node) {
	for _, n := range ns {
		if n != nil && !isNilNode(n) {
			ast.Walk(v, n)
		}
	}
}

// nested visits ns one nesting level deeper.
func (v *cogVisitor) nested(ns ...ast.Node) {
	v.nesting++
	v.walk(ns...)
	v.nesting--
}

// structure scores a structure that nests: 1 plus the current nesting.
func (v *cogVisitor) structure() { v.total += 1 + v.nesting }

//agentverify:ignore complexity/cyclomatic one case per node kind, mirroring gocognit so the numbers stay identical
func (v *cogVisitor) Visit(n ast.Node) ast.Visitor {
	switch n := n.(type) {
	case *ast.IfStmt:
		if v.elseIfs[n] {
			v.total++
		} else {
			v.structure()
		}
		v.walk(n.Init, n.Cond)
		v.nested(n.Body)
		switch e := n.Else.(type) {
		case *ast.BlockStmt:
			v.total++
			v.nested(e)
		case *ast.IfStmt:
			v.elseIfs[e] = true
			v.walk(e)
		}
		return nil
	case *ast.SwitchStmt:
		v.structure()
		v.walk(n.Init, n.Tag)
		v.nested(n.Body)
		return nil
	case *ast.TypeSwitchStmt:
		v.structure()
		v.walk(n.Init, n.Assign)
		v.nested(n.Body)
		return nil
	case *ast.SelectStmt:
		v.structure()
		v.nested(n.Body)
		return nil
	case *ast.ForStmt:
		v.structure()
		v.walk(n.Init, n.Cond, n.Post)
		v.nested(n.Body)
		return nil
	case *ast.RangeStmt:
		v.structure()
		v.walk(n.Key, n.Value, n.X)
		v.nested(n.Body)
		return nil
	case *ast.FuncLit:
		v.walk(n.Type)
		v.nested(n.Body)
		return nil
	case *ast.BranchStmt:
		if n.Label != nil {
			v.total++
		}
	case *ast.BinaryExpr:
		if isLogical(n.Op) && !v.counted[n] {
			var last token.Token
			for _, op := range v.logicalOps(n) {
				if op != last {
					v.total++
					last = op
				}
			}
		}
	}
	return v
}

// logicalOps lists, left to right, the && and || operators of the chain rooted at e
// (through parentheses and other binary operators), marking each as counted.
func (v *cogVisitor) logicalOps(e ast.Expr) []token.Token {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return v.logicalOps(e.X)
	case *ast.BinaryExpr:
		v.counted[e] = true
		ops := v.logicalOps(e.X)
		if isLogical(e.Op) {
			ops = append(ops, e.Op)
		}
		return append(ops, v.logicalOps(e.Y)...)
	}
	return nil
}

func isLogical(op token.Token) bool { return op == token.LAND || op == token.LOR }

// callsItself reports whether fn's body calls fn directly: by its name (resolved by
// go/parser to this declaration, or unresolved and fn is a function) or, for a method,
// through its own receiver.
func callsItself(fn *ast.FuncDecl) bool {
	if fn.Body == nil {
		return false
	}
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found {
			found = calls(call.Fun, fn)
		}
		return !found
	})
	return found
}

func calls(fun ast.Expr, fn *ast.FuncDecl) bool {
	switch f := fun.(type) {
	case *ast.ParenExpr:
		return calls(f.X, fn)
	case *ast.IndexExpr:
		return calls(f.X, fn)
	case *ast.IndexListExpr:
		return calls(f.X, fn)
	case *ast.Ident:
		if f.Obj != nil {
			d, ok := f.Obj.Decl.(*ast.FuncDecl)
			return ok && d.Body != nil && d == fn
		}
		return fn.Recv == nil && f.Name == fn.Name.Name
	case *ast.SelectorExpr:
		id, ok := f.X.(*ast.Ident)
		return ok && fn.Recv != nil && f.Sel.Name == fn.Name.Name && isReceiver(fn, id.Name)
	}
	return false
}

func isReceiver(fn *ast.FuncDecl, name string) bool {
	for _, f := range fn.Recv.List {
		for _, id := range f.Names {
			if id.Name == name {
				return true
			}
		}
	}
	return false
}
