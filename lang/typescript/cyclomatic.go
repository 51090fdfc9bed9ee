package typescript

import "github.com/agentverify/agentverify/lang/typescript/syntax"

// cyclomatic is ESLint's `complexity` rule (classic variant) for one function: 1 plus
// one for each if, ?:, && / || / ??, for / for-in / for-of, while, do-while, catch,
// switch case with a test, default value (of a parameter or in a destructuring
// pattern), logical assignment (&&= ||= ??=) and optional chain (?.), counted in the
// function's own code: nested functions, class field initializers and static blocks are
// code paths of their own, as ESLint's code-path analysis makes them.
func cyclomatic(fn *syntax.Node) int {
	n := 1
	own(fn, func(x *syntax.Node) {
		switch x.Kind {
		case "if_statement", "ternary_expression", "for_statement", "for_in_statement",
			"while_statement", "do_statement", "catch_clause", "switch_case",
			"assignment_pattern", "object_assignment_pattern", "?.":
			n++
		case "binary_expression":
			if logical[operator(x)] {
				n++
			}
		case "augmented_assignment_expression":
			if logicalAssign[operator(x)] {
				n++
			}
		case "required_parameter", "optional_parameter":
			if x.Child("value") != nil {
				n++ // a default value: ESTree's AssignmentPattern
			}
		}
	})
	return n
}

var (
	logical       = map[string]bool{"&&": true, "||": true, "??": true}
	logicalAssign = map[string]bool{"&&=": true, "||=": true, "??=": true}
)

// operator is the operator token of a binary or assignment expression.
func operator(x *syntax.Node) string {
	if op := x.Child("operator"); op != nil {
		return op.Kind
	}
	return ""
}

// functionKinds are the nodes that start a function of their own.
var functionKinds = map[string]bool{
	"function_declaration": true, "generator_function_declaration": true,
	"function_expression": true, "function": true, "generator_function": true,
	"arrow_function": true, "method_definition": true,
}

// isFunction reports whether n is a function with a body (a code path of its own).
func isFunction(n *syntax.Node) bool {
	return functionKinds[n.Kind] && n.Child("body") != nil
}

// separate reports whether n, met inside a function, is a code path of its own: a
// nested function, a class static block or a class field's initializer.
func separate(n *syntax.Node) bool {
	if isFunction(n) || n.Kind == "class_static_block" {
		return true
	}
	return n.Field == "value" && n.Parent != nil && n.Parent.Kind == "public_field_definition"
}

// own calls visit for fn and every node of fn's own code, in source order: nested code
// paths (see separate) are left out.
func own(fn *syntax.Node, visit func(*syntax.Node)) {
	var walk func(n *syntax.Node)
	walk = func(n *syntax.Node) {
		visit(n)
		for _, c := range n.Children {
			if !separate(c) {
				walk(c)
			}
		}
	}
	for _, c := range fn.Children {
		if !separate(c) {
			walk(c)
		}
	}
}
