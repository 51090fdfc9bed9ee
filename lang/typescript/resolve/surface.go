package resolve

import (
	"regexp"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// surface is what a module shows its importers, by top-level statement: decls holds
// each local name's declarations (function bodies with a written return type left
// out, as outline does), exports each exported name's ("=n" for the local n), and
// reexports the statements that re-export from another module.
type surface struct {
	decls, exports map[string]string
	reexports      []string
}

// changedExports lists the names f's module exports differently at head than at its
// base: added, removed, or declared differently, directly or through a local
// declaration or import its declaration names. ok is false when the difference cannot
// be put in names: a file that does not parse, `export =`, or re-exports changed.
// added are the names it did not export at all.
func changedExports(f *change.File, head []byte) (names, added []string, ok bool) {
	if !moduleEdit(f, head) {
		return nil, nil, false
	}
	b, okb := surfaceOf(f.Path, f.Base)
	h, okh := surfaceOf(f.Path, head)
	if !okb || !okh || strings.Join(b.reexports, "\x00") != strings.Join(h.reexports, "\x00") {
		return nil, nil, false
	}
	changed := changedLocals(b, h)
	for n := range union(b.exports, h.exports) {
		be, he := b.exports[n], h.exports[n]
		if be != he || mentions(he, changed) || refers(he, changed) {
			names = append(names, n)
		}
		if be == "" && he != "" {
			added = append(added, n)
		}
	}
	return names, added, true
}

// moduleEdit reports whether f is a TypeScript module, not a declaration file,
// modified in place, that declares nothing beyond itself at its base or head.
func moduleEdit(f *change.File, head []byte) bool {
	return f.Op == change.Modify && f.Base != nil && head != nil && !syntax.IsJS(f.Path) && !syntax.IsDeclaration(f.Path) &&
		!global(f.Base) && !global(head)
}

// changedLocals are the top-level names declared differently at b and h, directly or
// through a declaration that names one of them.
func changedLocals(b, h surface) map[string]bool {
	changed := map[string]bool{}
	all := union(b.decls, h.decls)
	for n := range all {
		if b.decls[n] != h.decls[n] {
			changed[n] = true
		}
	}
	for grown := true; grown; {
		grown = false
		for n := range all {
			if !changed[n] && (mentions(b.decls[n], changed) || mentions(h.decls[n], changed)) {
				changed[n], grown = true, true
			}
		}
	}
	return changed
}

func union(a, b map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// word is an identifier in a declaration's text.
var word = regexp.MustCompile(`[A-Za-z_$][\w$]*`)

// mentions reports whether text names one of the names (a token match: it errs on
// the side of yes).
func mentions(text string, names map[string]bool) bool {
	if text == "" || len(names) == 0 {
		return false
	}
	for _, w := range word.FindAllString(text, -1) {
		if names[w] {
			return true
		}
	}
	return false
}

func refers(export string, names map[string]bool) bool {
	local, ok := strings.CutPrefix(export, "=")
	return ok && names[local]
}

// surfaceOf reads the surface of the module at p; ok is false when it does not parse
// or assigns its export (`export =`).
func surfaceOf(p string, src []byte) (surface, bool) {
	t, ok := parseIntact(p, src)
	if !ok {
		return surface{}, false
	}
	s := surface{decls: map[string]string{}, exports: map[string]string{}}
	for _, st := range t.Root.Children {
		if !s.statement(src, st) {
			return surface{}, false
		}
	}
	return s, true
}

// statement adds one top-level statement to s.
func (s *surface) statement(src []byte, st *syntax.Node) bool {
	text := outlineOf(src, st)
	switch st.Kind {
	case "import_statement":
		for _, n := range bindings(src, st) {
			s.decls[n] += text
		}
	case "export_statement":
		return s.export(src, st, text)
	default:
		for _, n := range topNames(src, st) {
			s.decls[n] += text + "\x00"
		}
	}
	return true
}

// export adds an export statement to s.
func (s *surface) export(src []byte, st *syntax.Node, text string) bool {
	if st.OfKind("=") != nil {
		return false
	}
	if st.Child("source") != nil {
		s.reexports = append(s.reexports, text)
		return true
	}
	def := st.OfKind("default") != nil
	if d := st.Child("declaration"); d != nil {
		for _, n := range topNames(src, d) {
			s.decls[n] += text + "\x00"
			if !def {
				s.exports[n] = "=" + n
			}
		}
		if def {
			s.exports["default"] = text
		}
		return true
	}
	if c := st.OfKind("export_clause"); c != nil {
		for _, sp := range c.NamedChildren() {
			name := sp.Child("name").Text(src)
			alias := name
			if a := sp.Child("alias"); a != nil {
				alias = unquote(a.Text(src)) // export { f as "a b" }: importers name it a b
			}
			s.exports[alias] = "=" + name
		}
		return true
	}
	if def {
		s.exports["default"] = text
	}
	return true
}

// bindings are the local names an import statement binds.
func bindings(src []byte, st *syntax.Node) []string {
	var out []string
	st.Walk(func(n *syntax.Node) bool {
		switch n.Kind {
		case "string":
			return false
		case "identifier":
			if n.Field == "name" && n.Parent.Kind == "import_specifier" && n.Parent.Child("alias") != nil {
				return false
			}
			out = append(out, n.Text(src))
		}
		return true
	})
	return out
}

// topNames lists the names a declaration statement declares.
func topNames(src []byte, d *syntax.Node) []string {
	switch d.Kind {
	case "lexical_declaration", "variable_declaration":
		var out []string
		for _, v := range d.NamedChildren() {
			v.Child("name").Walk(func(n *syntax.Node) bool {
				if n.Kind == "identifier" || n.Kind == "shorthand_property_identifier_pattern" {
					out = append(out, n.Text(src))
				}
				return true
			})
		}
		return out
	case "ambient_declaration":
		for _, c := range d.NamedChildren() {
			if ns := topNames(src, c); len(ns) > 0 {
				return ns
			}
		}
	case "import_alias":
		if id := d.OfKind("identifier"); id != nil {
			return []string{id.Text(src)}
		}
	}
	if n := d.Child("name"); n != nil {
		return []string{n.Text(src)}
	}
	return nil
}

// outlineOf is n's text with the body of every function that writes out its return
// type replaced by {}.
func outlineOf(src []byte, n *syntax.Node) string {
	var b strings.Builder
	at := n.Start
	n.Walk(func(c *syntax.Node) bool {
		body := typedBody(c)
		if body == nil {
			return true
		}
		b.Write(src[at:body.Start])
		b.WriteString("{}")
		at = body.End
		return false
	})
	b.Write(src[at:n.End])
	return b.String()
}

// typedBody is the body of n when n is a function that writes out its return type.
func typedBody(n *syntax.Node) *syntax.Node {
	if !functionKinds[n.Kind] || n.Child("return_type") == nil {
		return nil
	}
	if body := n.Child("body"); body != nil && body.Kind == "statement_block" {
		return body
	}
	return nil
}
