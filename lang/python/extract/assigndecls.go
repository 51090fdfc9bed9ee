package extract

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// assignments declares the names an assignment statement at module or class level
// binds for the first time: vars and consts at module level, fields in a class.
func (x *extractor) assignments(s *syntax.Node, o *owner, seen map[string]bool, following *syntax.Node) {
	a := s.FirstOfKind("assignment")
	if a == nil {
		return
	}
	documented := x.commentAbove(s) || isDocString(following)
	var annotation string
	if t := a.Child("type"); t != nil {
		annotation = t.Text(x.src)
	}
	for _, id := range targets(a.Child("left")) {
		name := id.Text(x.src)
		if seen[name] || name == "_" || o == nil && name == "__all__" {
			continue
		}
		seen[name] = true
		d := lang.Decl{
			Name:       qualify(o, name),
			Kind:       valueKind(o, name),
			Exported:   x.exported(o, name),
			Documented: documented,
			Span:       s.Span(),
			NamePos:    id.Pos,
			Signature:  annotation,
		}
		x.lf.Decls = append(x.lf.Decls, d)
	}
}

// valueKind is the kind of a name bound by assignment: a field in a class body, else a
// const when the name is UPPER_CASE (PEP 8's spelling of a constant), else a var.
func valueKind(o *owner, name string) lang.DeclKind {
	switch {
	case o != nil:
		return lang.Field
	case isUpperCase(name):
		return lang.Const
	}
	return lang.Var
}

// isUpperCase reports whether name has a letter and no lower-case one: MAX_SIZE, _A1.
func isUpperCase(name string) bool {
	letter := false
	for _, r := range name {
		if unicode.IsLower(r) {
			return false
		}
		letter = letter || unicode.IsLetter(r)
	}
	return letter
}

// isCapWords reports whether name is CapWords (PascalCase), optionally after leading
// underscores: a class, type alias or TypeVar name.
func isCapWords(name string) bool {
	// PEP 484 names covariant and contravariant type variables T_co, T_contra.
	core := strings.TrimSuffix(strings.TrimSuffix(strings.TrimLeft(name, "_"), "_co"), "_contra")
	if core == "" || !unicode.IsUpper([]rune(core)[0]) || strings.Contains(core, "_") {
		return false
	}
	return !isUpperCase(core) || len([]rune(core)) == 1
}

func (x *extractor) typeAlias(def *syntax.Node, o *owner, seen map[string]bool) {
	left := def.Child("left")
	if left == nil {
		return
	}
	id := left.FirstOfKind("identifier")
	if id == nil {
		return
	}
	name := id.Text(x.src)
	if seen[name] {
		return
	}
	seen[name] = true
	x.lf.Decls = append(x.lf.Decls, lang.Decl{
		Name:       qualify(o, name),
		Kind:       lang.Type,
		Exported:   x.exported(o, name),
		Documented: x.commentAbove(def),
		Span:       def.Span(),
		NamePos:    id.Pos,
		Signature:  "= " + def.Child("right").Text(x.src),
	})
}

// targets returns the identifiers an assignment target binds: a, (b, *c), [d, e]; not
// attributes or subscripts, which bind nothing new.
func targets(n *syntax.Node) []*syntax.Node {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case "identifier":
		return []*syntax.Node{n}
	case "pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern",
		"parenthesized_expression", "tuple", "list", "as_pattern_target":
		var out []*syntax.Node
		for _, c := range n.NamedChildren() {
			out = append(out, targets(c)...)
		}
		return out
	}
	return nil
}

// commentAbove reports whether a comment ends on the line above s or trails its first
// line: the way Python code documents a module-level name.
func (x *extractor) commentAbove(s *syntax.Node) bool {
	if x.commentEnds == nil {
		x.commentEnds, x.commentStarts = map[int]bool{}, map[int]int{}
		for _, c := range x.lf.Comments {
			x.commentEnds[c.EndLine] = true
			x.commentStarts[c.Pos.Line] = c.Pos.Column
		}
	}
	col, trailing := x.commentStarts[s.Pos.Line]
	return x.commentEnds[s.Pos.Line-1] || trailing && col > s.Pos.Column
}

// isDocString reports whether s is a bare string statement: an attribute docstring
// when it follows an assignment (PEP 257, Sphinx).
func isDocString(s *syntax.Node) bool {
	if s == nil || s.Kind != "expression_statement" {
		return false
	}
	kids := s.NamedChildren()
	return len(kids) == 1 && (kids[0].Kind == "string" || kids[0].Kind == "concatenated_string")
}

// dunderAll returns the names of the module's __all__ when every assignment to it is a
// literal list or tuple of strings (= or +=); nil when there is none or it is computed.
func dunderAll(root *syntax.Node, src []byte) map[string]bool {
	var all map[string]bool
	for _, s := range syntax.ModuleStatements(root) {
		if s.Kind != "expression_statement" || len(s.NamedChildren()) != 1 {
			continue
		}
		a := s.NamedChildren()[0]
		if a.Kind != "assignment" && a.Kind != "augmented_assignment" {
			continue
		}
		if l := a.Child("left"); l == nil || l.Kind != "identifier" || l.Text(src) != "__all__" {
			continue
		}
		names, ok := stringList(a.Child("right"), src)
		if !ok {
			return nil
		}
		if all == nil {
			all = map[string]bool{}
		}
		for _, n := range names {
			all[n] = true
		}
	}
	return all
}

// stringList returns the strings of a list or tuple literal of plain string literals.
func stringList(n *syntax.Node, src []byte) ([]string, bool) {
	if n == nil || n.Kind != "list" && n.Kind != "tuple" {
		return nil, false
	}
	var out []string
	for _, c := range n.NamedChildren() {
		if c.Kind != "string" || c.FirstOfKind("interpolation") != nil {
			return nil, false
		}
		s, err := strconv.Unquote(syntax.GoQuote(c.Text(src)))
		if err != nil {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}
