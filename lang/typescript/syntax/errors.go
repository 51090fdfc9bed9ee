package syntax

import (
	"fmt"
	"strings"
)

// errorsOf lists the syntax errors of the tree under root: one per outermost ERROR node
// (what it could not read, as written) and one per MISSING node (what was expected).
func errorsOf(root *Node, src []byte) []SyntaxError {
	var out []SyntaxError
	root.Walk(func(n *Node) bool {
		switch {
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
