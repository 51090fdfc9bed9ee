package syntax

import "strings"

// ModuleStatements returns the module's statements, with those of the blocks of
// module-level if, try and with statements spliced in.
func ModuleStatements(root *Node) []*Node {
	var out []*Node
	var visit func(n *Node)
	visit = func(n *Node) {
		for _, c := range n.Children {
			switch c.Kind {
			case "if_statement", "try_statement", "with_statement", "elif_clause", "else_clause",
				"except_clause", "except_group_clause", "finally_clause", "block":
				visit(c)
			default:
				if c.Named {
					out = append(out, c)
				}
			}
		}
	}
	visit(root)
	return out
}

// Unwrap returns the definition of a decorated definition and its decorators' texts
// (without '@'); other statements come back as they are.
func Unwrap(s *Node) (*Node, []*Node) {
	if s.Kind != "decorated_definition" {
		return s, nil
	}
	var decs []*Node
	for _, c := range s.Children {
		if c.Kind == "decorator" {
			decs = append(decs, c)
		}
	}
	if d := s.Child("definition"); d != nil {
		return d, decs
	}
	return s, decs
}

// IsDunder reports whether name is a special name: __init__, __all__.
func IsDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// HasDecorator reports whether one of decs is name, bare, qualified (typing.overload) or
// called.
func HasDecorator(decs []*Node, src []byte, name string) bool {
	for _, d := range decs {
		t := strings.TrimSpace(strings.TrimPrefix(d.Text(src), "@"))
		t, _, _ = strings.Cut(t, "(")
		if t == name || strings.HasSuffix(t, "."+name) {
			return true
		}
	}
	return false
}
