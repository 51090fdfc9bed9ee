package syntax

import (
	"strings"
)

// ImportRef is one module an import statement loads.
type ImportRef struct {
	// Module is the dotted module name as written, without the leading dots of a
	// relative import; Level counts those dots.
	Module string
	Level  int
	// Node is the module's name in the statement, for positions.
	Node *Node
	// Guarded is set for an import in the body of a try statement that handles
	// ImportError (an optional dependency with a fallback); TypeOnly for one under
	// `if TYPE_CHECKING:` (never executed).
	Guarded, TypeOnly bool
}

// Imports lists the modules a file imports, anywhere in it.
func Imports(root *Node, src []byte) []ImportRef {
	var out []ImportRef
	var visit func(n *Node, guarded, typeOnly bool)
	visit = func(n *Node, guarded, typeOnly bool) {
		switch n.Kind {
		case "import_statement":
			for _, c := range n.Children {
				if c.Field == "name" {
					out = append(out, ImportRef{Module: Dotted(c, src), Node: NameOf(c), Guarded: guarded, TypeOnly: typeOnly})
				}
			}
			return
		case "import_from_statement", "future_import_statement":
			if r, ok := FromImport(n, src); ok {
				r.Guarded, r.TypeOnly = guarded, typeOnly
				out = append(out, r)
			}
			return
		case "try_statement":
			g := handlesImportError(n, src)
			for _, c := range n.Children {
				visit(c, guarded || g && c.Field == "body", typeOnly)
			}
			return
		case "if_statement":
			t := isTypeChecking(n.Child("condition"), src)
			for _, c := range n.Children {
				visit(c, guarded, typeOnly || t && c.Field == "consequence")
			}
			return
		}
		for _, c := range n.Children {
			visit(c, guarded, typeOnly)
		}
	}
	visit(root, false, false)
	return out
}

// NameOf returns the dotted name of an import's name (the name of an aliased import).
func NameOf(c *Node) *Node {
	if c.Kind == "aliased_import" {
		if n := c.Child("name"); n != nil {
			return n
		}
	}
	return c
}

// Dotted is the module name of an import's name, without spaces or comments.
func Dotted(c *Node, src []byte) string {
	var parts []string
	for _, id := range NameOf(c).Children {
		if id.Kind == "identifier" {
			parts = append(parts, id.Text(src))
		}
	}
	if len(parts) == 0 {
		return strings.TrimSpace(NameOf(c).Text(src))
	}
	return strings.Join(parts, ".")
}

// FromImport reads the module of `from M import ...` (M relative or absolute).
func FromImport(n *Node, src []byte) (ImportRef, bool) {
	if n.Kind == "future_import_statement" {
		return ImportRef{Module: "__future__", Node: n}, true
	}
	m := n.Child("module_name")
	if m == nil {
		return ImportRef{}, false
	}
	if m.Kind != "relative_import" {
		return ImportRef{Module: Dotted(m, src), Node: m}, true
	}
	r := ImportRef{Node: m}
	for _, c := range m.Children {
		switch c.Kind {
		case "import_prefix":
			r.Level = strings.Count(c.Text(src), ".")
		case "dotted_name":
			r.Module = Dotted(c, src)
		}
	}
	return r, true
}

// handlesImportError reports whether a try statement has a handler for a failed import:
// ImportError, ModuleNotFoundError, a base of them, or a bare except.
func handlesImportError(n *Node, src []byte) bool {
	for _, c := range n.Children {
		if c.Kind != "except_clause" {
			continue
		}
		colon := c.FirstOfKind(":")
		if colon == nil {
			continue
		}
		head := string(src[c.Start:colon.Start])
		head = strings.TrimSpace(strings.TrimPrefix(head, "except"))
		if head == "" {
			return true
		}
		for _, e := range []string{"ImportError", "ModuleNotFoundError", "Exception", "BaseException"} {
			if containsWord(head, e) {
				return true
			}
		}
	}
	return false
}

// containsWord reports whether s holds w delimited by non-identifier characters.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isIdentByte(s[j-1]) || s[j-1] == '.'
		after := j+len(w) == len(s) || !isIdentByte(s[j+len(w)])
		if before && after {
			return true
		}
		i = j + len(w)
	}
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// isTypeChecking reports whether an if condition is typing's TYPE_CHECKING flag (bare or
// qualified).
func isTypeChecking(cond *Node, src []byte) bool {
	if cond == nil {
		return false
	}
	t := strings.TrimSpace(cond.Text(src))
	return t == "TYPE_CHECKING" || strings.HasSuffix(t, ".TYPE_CHECKING")
}

// TopLevel is the top-level package of a dotted module name.
func TopLevel(mod string) string {
	t, _, _ := strings.Cut(mod, ".")
	return t
}

// LastName is the last component of a dotted name.
func LastName(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// GoQuote rewrites a simple Python string literal ('x', "x", with an optional u or r
// prefix) as a Go one for strconv.Unquote; anything else comes back unusable.
func GoQuote(lit string) string {
	lit = strings.TrimLeft(lit, "uUrR")
	if len(lit) < 2 || strings.HasPrefix(lit, `"""`) || strings.HasPrefix(lit, `'''`) {
		return ""
	}
	q, body := lit[0], lit[1:len(lit)-1]
	if lit[len(lit)-1] != q || q != '"' && q != '\'' || strings.ContainsAny(body, `\"'`) {
		return ""
	}
	return `"` + body + `"`
}
