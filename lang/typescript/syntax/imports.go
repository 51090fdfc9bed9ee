package syntax

import (
	"strconv"
	"strings"
)

// Import is one module a file refers to.
type Import struct {
	// Spec is the module specifier as written ("react", "./util", "node:fs").
	Spec string
	// Node is the string literal holding it.
	Node *Node
	// TypeOnly is set for `import type …` and `export type … from`: only the types are
	// needed, which a @types package may give.
	TypeOnly bool
	// Guarded is set when the code runs without the module: a require or dynamic
	// import inside a try whose catch handles its failure.
	Guarded bool
	// Reexport is set for `export … from "m"`: the module's names become the file's.
	Reexport bool
	// Names are the names imported from it (`import { a, b as c }` gives a and b;
	// "default" for a default import, "*" for a namespace), with their nodes.
	Names []ImportedName
}

// ImportedName is one name an import takes from its module.
type ImportedName struct {
	Name  string // as the module exports it
	Local string // as the file names it
	Node  *Node
}

// Imports returns the modules the file refers to: import and export-from statements,
// `import x = require("m")`, require("m") and import("m") calls with a string literal,
// in source order.
func Imports(t *Tree) []Import {
	var out []Import
	t.Root.Walk(func(n *Node) bool {
		switch n.Kind {
		case "import_statement", "export_statement":
			if src := n.Child("source"); src != nil {
				out = append(out, importStatement(t.Src, n, src))
			} else if req := findRequire(n); req != nil {
				out = append(out, Import{Spec: stringValue(t.Src, req), Node: req})
			}
		case "call_expression":
			if arg := requireArg(t.Src, n); arg != nil {
				out = append(out, Import{Spec: stringValue(t.Src, arg), Node: arg, Guarded: guarded(t.Src, n)})
			}
		}
		return true
	})
	return out
}

// importStatement reads an import or export-from statement.
func importStatement(src []byte, st, source *Node) Import {
	imp := Import{Spec: stringValue(src, source), Node: source, Reexport: st.Kind == "export_statement"}
	for _, c := range st.Children {
		if c.Kind == "type" && !c.Named {
			imp.TypeOnly = true
		}
	}
	clause := st.OfKind("import_clause")
	if clause == nil {
		clause = st.OfKind("export_clause")
	}
	for _, c := range clause.NamedChildren() {
		switch c.Kind {
		case "identifier": // default import
			imp.Names = append(imp.Names, ImportedName{Name: "default", Local: c.Text(src), Node: c})
		case "namespace_import":
			imp.Names = append(imp.Names, ImportedName{Name: "*", Node: c})
		case "named_imports", "export_specifier":
			specs := c.NamedChildren()
			if c.Kind == "export_specifier" {
				specs = []*Node{c}
			}
			for _, s := range specs {
				if s.Kind != "import_specifier" && s.Kind != "export_specifier" {
					continue
				}
				name := s.Child("name")
				local := s.Child("alias")
				if local == nil {
					local = name
				}
				imp.Names = append(imp.Names, ImportedName{Name: name.Text(src), Local: local.Text(src), Node: name})
			}
		}
	}
	return imp
}

// findRequire returns the string of `import x = require("m")`.
func findRequire(st *Node) *Node {
	var found *Node
	st.Walk(func(n *Node) bool {
		if n.Kind == "import_require_clause" {
			found = n.Child("source")
			return false
		}
		return found == nil
	})
	return found
}

// requireArg returns the string literal of require("m") or import("m").
func requireArg(src []byte, call *Node) *Node {
	fn := call.Child("function")
	if fn == nil || !(fn.Kind == "import" || fn.Kind == "identifier" && fn.Text(src) == "require") {
		return nil
	}
	args := call.Child("arguments").NamedChildren()
	if len(args) < 1 || args[0].Kind != "string" {
		return nil
	}
	return args[0]
}

// guarded reports whether a require or import() call is inside a try block (its
// failure handled: the code runs without the module).
func guarded(src []byte, n *Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Field == "body" && p.Parent != nil && p.Parent.Kind == "try_statement" {
			return true
		}
		if p.Kind == "function_declaration" || p.Kind == "arrow_function" || p.Kind == "function_expression" {
			return false
		}
	}
	// import("m").catch(…) handles the failure too.
	if c := n.Parent; c != nil && c.Kind == "member_expression" {
		if prop := c.Child("property"); prop != nil && prop.Text(src) == "catch" {
			return true
		}
	}
	return false
}

// stringValue is the value of a string literal node.
func stringValue(src []byte, n *Node) string {
	t := n.Text(src)
	if len(t) < 2 {
		return ""
	}
	if s, err := strconv.Unquote(`"` + strings.ReplaceAll(t[1:len(t)-1], `"`, `\"`) + `"`); err == nil {
		return s
	}
	return t[1 : len(t)-1]
}
