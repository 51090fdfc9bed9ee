package syntax

import (
	"strings"
)

// py3Rules find what tree-sitter's grammar accepts but Python 3 rejects: Python 2
// syntax (the grammar covers both) and the argument-order rules CPython's parser
// enforces. Each reports the offending node and a message, or nil.
var py3Rules = map[string]func(n *Node, src []byte) (*Node, string){
	"print_statement":     printStatement,
	"exec_statement":      py2Statement("Python 2 exec statement; call exec(...) instead"),
	"comparison_operator": notEqualOperator,
	"integer":             integerLiteral,
	"string_start":        stringPrefix,
	"raise_statement":     raiseComma,
	"except_clause":       exceptComma,
	"parameters":          parameterOrder,
	"lambda_parameters":   parameterOrder,
	"argument_list":       argumentOrder,
}

// Python3Error returns the node at or under n that tree-sitter's grammar accepts but
// Python 3 rejects, and why; nil when n is valid Python 3.
func Python3Error(n *Node, src []byte) (*Node, string) {
	rule := py3Rules[n.Kind]
	if rule == nil {
		return nil, ""
	}
	return rule(n, src)
}

// printStatement rejects print "x"; print >>f, x is a valid (if useless) expression.
func printStatement(n *Node, _ []byte) (*Node, string) {
	if n.FirstOfKind("chevron") != nil {
		return nil, ""
	}
	return n, "Python 2 print statement; call print(...) instead"
}

func py2Statement(msg string) func(*Node, []byte) (*Node, string) {
	return func(n *Node, _ []byte) (*Node, string) { return n, msg }
}

func notEqualOperator(n *Node, _ []byte) (*Node, string) {
	if op := n.FirstOfKind("<>"); op != nil {
		return op, "'<>' is Python 2; use '!='"
	}
	return nil, ""
}

// integerLiteral rejects 10L and 0777.
func integerLiteral(n *Node, src []byte) (*Node, string) {
	t := n.Text(src)
	switch {
	case strings.HasSuffix(t, "l") || strings.HasSuffix(t, "L"):
		return n, "Python 2 long literal " + t + "; drop the L"
	case len(t) > 1 && t[0] == '0' && strings.Trim(t, "0123456789_") == "" && strings.Trim(t, "0_") != "":
		return n, "leading zeros in decimal literal " + t + "; write an octal number as 0o" + strings.TrimLeft(t, "0_")
	}
	return nil, ""
}

// validPrefixes are Python 3's string prefixes, lower-cased.
var validPrefixes = map[string]bool{"": true, "r": true, "u": true, "b": true, "f": true, "t": true,
	"br": true, "rb": true, "fr": true, "rf": true, "tr": true, "rt": true}

// stringPrefix rejects backquotes and string prefixes Python 3 lacks, such as ur.
func stringPrefix(n *Node, src []byte) (*Node, string) {
	t := n.Text(src)
	if strings.HasPrefix(t, "`") {
		return n, "backquotes are Python 2; use repr(...)"
	}
	prefix := strings.ToLower(strings.TrimRight(t, `"'`))
	if !validPrefixes[prefix] {
		return n, "invalid string prefix " + strings.TrimRight(t, `"'`)
	}
	return nil, ""
}

func raiseComma(n *Node, _ []byte) (*Node, string) {
	if l := n.FirstOfKind("expression_list"); l != nil {
		return l, "raise E, msg is Python 2; use raise E(msg)"
	}
	return nil, ""
}

func exceptComma(n *Node, _ []byte) (*Node, string) {
	if c := n.FirstOfKind(","); c != nil {
		return c, "except E, e is Python 2; use except E as e"
	}
	return nil, ""
}

// parameterOrder rejects tuple parameters and a parameter without a default after one
// with a default (before any * or *args, after which keyword-only parameters follow).
func parameterOrder(n *Node, _ []byte) (*Node, string) {
	defaults := false
	for _, p := range n.NamedChildren() {
		if p.Kind == "typed_parameter" {
			if inner := p.FirstNamed(); inner != nil && inner.Kind != "identifier" {
				return nil, "" // *args: int or **kw: int
			}
		}
		switch p.Kind {
		case "tuple_pattern":
			return p, "tuple parameters are Python 2; unpack inside the function"
		case "default_parameter", "typed_default_parameter":
			defaults = true
		case "identifier", "typed_parameter":
			if defaults {
				return p, "parameter without a default follows parameter with a default"
			}
		case "list_splat_pattern", "dictionary_splat_pattern", "keyword_separator":
			return nil, ""
		}
	}
	return nil, ""
}

// argumentOrder rejects a positional argument after a keyword argument or **mapping,
// and *iterable after **mapping.
func argumentOrder(n *Node, _ []byte) (*Node, string) {
	keyword, mapping := false, false
	for _, a := range n.NamedChildren() {
		switch a.Kind {
		case "keyword_argument":
			keyword = true
		case "dictionary_splat":
			mapping = true
		case "list_splat":
			if mapping {
				return a, "iterable argument unpacking follows keyword argument unpacking"
			}
		case "comment", "line_continuation":
		default:
			if keyword || mapping {
				return a, "positional argument follows keyword argument"
			}
		}
	}
	return nil, ""
}
