package syntax

import (
	"fmt"
	"regexp"
	"strings"
)

// errorsOf lists the syntax errors of the tree under root: one per outermost ERROR node
// (what it could not read, as written) and one per MISSING node (what was expected).
func errorsOf(root *Node, src []byte) []SyntaxError {
	var out []SyntaxError
	root.Walk(func(n *Node) bool {
		switch {
		case n.Kind == "ERROR" && varianceGap(n, src):
			return false
		case n.Kind == "ERROR":
			out = append(out, SyntaxError{Pos: n.Pos, Message: "unexpected " + excerpt(n, src)})
			return false
		case n.Missing:
			out = append(out, SyntaxError{Pos: n.Pos, Message: fmt.Sprintf("missing %s", missingWhat(n))})
		}
		return true
	})
	return out
}

// varianceGap reports whether the ERROR node n is only the grammar's gap for variance
// annotations on a type parameter (TypeScript 4.7's `interface Box<out T>`, `<in out T>`),
// which tree-sitter's grammar reads as a type parameter named in or out followed by an
// error: the name after the modifier, in a type parameter list. The compiler, which
// reads the file too, judges whether the modifier is allowed there.
func varianceGap(n *Node, src []byte) bool {
	p := n.Parent
	if p == nil || (p.Kind != "type_parameters" && p.Kind != "type_parameter") || !varianceName.MatchString(n.Text(src)) {
		return false
	}
	var prev *Node
	for _, c := range p.Children {
		if c == n {
			break
		}
		if c.Named {
			prev = c
		}
	}
	want := map[string]string{"type_parameters": "type_parameter", "type_parameter": "type_identifier"}[p.Kind]
	if prev == nil || prev.Kind != want {
		return false
	}
	m := prev.Text(src)
	return m == "in" || m == "out"
}

// varianceName is what follows a variance modifier: the parameter's name, after a second
// modifier for `in out T`.
var varianceName = regexp.MustCompile(`^(out\s+)?[A-Za-z_$][\w$]*$`)

// excerpt is the first tokens of what an ERROR node holds, quoted.
func excerpt(n *Node, src []byte) string {
	t := strings.TrimSpace(n.Text(src))
	if i := strings.IndexAny(t, "\r\n"); i >= 0 {
		t = t[:i]
	}
	if len(t) > 40 {
		t = t[:40] + "…"
	}
	if t == "" {
		return "input"
	}
	return fmt.Sprintf("%q", t)
}

func missingWhat(n *Node) string {
	if n.Named {
		return strings.ReplaceAll(n.Kind, "_", " ")
	}
	return fmt.Sprintf("%q", n.Kind)
}
