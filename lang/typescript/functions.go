package typescript

import (
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// functions gives every function with a body its metrics: the declarations already
// recorded get theirs, and every other function (a callback, a nested function, an
// object's method) becomes a declaration of its own, named after where it is written,
// as ESLint and sonarjs report each function on its own.
func (x *extractor) functions() {
	var walk func(n *syntax.Node, outer string)
	walk = func(n *syntax.Node, outer string) {
		if isFunction(n) || n.Kind == "class_static_block" {
			i, ok := x.fns[n]
			if !ok {
				i = x.add(lang.Decl{Name: x.nestedName(n, outer), Kind: lang.Func, Documented: true,
					Span: n.Span(), NamePos: headPos(n)})
			}
			x.lf.Decls[i].Metrics = x.metrics(n)
			outer = x.lf.Decls[i].Name
		} else if n.Kind == "variable_declarator" && outer == "" {
			if name := n.Child("name"); name != nil && name.Kind == "identifier" {
				outer = x.text(name) // the functions in its value are its
			}
		}
		for _, c := range n.Children {
			walk(c, outer)
		}
	}
	walk(x.tree.Root, "")
}

// headPos is where a function's report goes: its name, else its first token.
func headPos(n *syntax.Node) lang.Pos {
	if name := n.Child("name"); name != nil {
		return name.Pos
	}
	return n.Pos
}

// nestedName names a function that is no declaration of its own: after the variable,
// property, method or assignment it is the value of, or the call it is an argument of
// ("<callback of items.map>"), inside the function it is written in ("outer/…").
func (x *extractor) nestedName(n *syntax.Node, outer string) string {
	name := x.ownName(n)
	if outer != "" {
		return outer + "/" + name
	}
	return name
}

func (x *extractor) ownName(n *syntax.Node) string {
	if n.Kind == "class_static_block" {
		return "<static block of " + x.className(n) + ">"
	}
	if name := n.Child("name"); name != nil {
		if n.Kind == "method_definition" {
			return x.className(n) + "." + x.text(name)
		}
		return x.text(name)
	}
	p := n.Parent
	for p != nil && p.Kind == "parenthesized_expression" {
		p = p.Parent
	}
	if p == nil {
		return "<function>"
	}
	switch p.Kind {
	case "variable_declarator", "public_field_definition", "pair":
		key := p.Child("name")
		if key == nil {
			key = p.Child("key")
		}
		if key != nil {
			return x.text(key)
		}
	case "assignment_expression":
		if l := p.Child("left"); l != nil {
			return short(collapse(x.text(l)))
		}
	case "arguments":
		if call := p.Parent; call != nil && call.Kind == "call_expression" {
			return "<callback of " + short(collapse(x.text(call.Child("function")))) + ">"
		}
	}
	return "<function>"
}

// className is the name of the class a member is written in.
func (x *extractor) className(n *syntax.Node) string {
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.Kind {
		case "class_declaration", "abstract_class_declaration", "class":
			if name := p.Child("name"); name != nil {
				return x.text(name)
			}
			if vd := p.Parent; vd != nil && vd.Kind == "variable_declarator" {
				return x.text(vd.Child("name"))
			}
			return "<class>"
		case "object":
			return "<object>"
		}
	}
	return "<class>"
}

// short cuts a callee's text to a readable length.
func short(s string) string {
	if i := strings.IndexAny(s, "(\n"); i > 0 {
		s = s[:i]
	}
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}
