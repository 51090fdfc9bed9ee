package typescript

import (
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// topLevel records the declarations of the statements of a module or namespace body;
// prefix qualifies names in a namespace ("NS.").
func (x *extractor) topLevel(body *syntax.Node, prefix string, exportedScope bool) {
	for _, st := range body.Children {
		x.statement(st, st, prefix, false, exportedScope)
	}
}

// statement records what st declares; doc is the node whose preceding comment documents
// it (the export statement around a declaration).
func (x *extractor) statement(st, doc *syntax.Node, prefix string, exported, scope bool) {
	switch st.Kind {
	case "export_statement":
		x.exportStatement(st, prefix, scope)
	case "ambient_declaration":
		for _, c := range st.NamedChildren() {
			if c.Kind != "comment" && c.Kind != "statement_block" {
				x.statement(c, doc, prefix, exported, scope)
			}
		}
	case "function_declaration", "generator_function_declaration", "function_signature":
		x.function(st, doc, prefix, exported)
	case "class_declaration", "abstract_class_declaration":
		x.class(st, doc, prefix+x.text(st.Child("name")), exported)
	case "interface_declaration", "type_alias_declaration", "enum_declaration":
		x.typeDecl(st, doc, prefix, exported)
	case "lexical_declaration", "variable_declaration":
		x.variables(st, doc, prefix, exported)
	case "expression_statement":
		x.expressionStatement(st, doc, prefix, exported, scope)
	case "internal_module", "module":
		x.namespace(st, doc, prefix, exported)
	}
}

// exportStatement records `export <declaration>`, `export default …` and the names of
// an export clause.
func (x *extractor) exportStatement(st *syntax.Node, prefix string, scope bool) {
	if d := st.Child("declaration"); d != nil {
		x.statement(d, st, prefix, scope, scope)
		return
	}
	if v := st.Child("value"); v != nil {
		x.exportDefault(st, v, prefix)
		return
	}
	if st.Child("source") != nil {
		return // a re-export: declared elsewhere
	}
	if clause := st.OfKind("export_clause"); clause != nil && scope {
		for _, spec := range clause.NamedChildren() {
			if n := spec.Child("name"); n != nil {
				x.exported[prefix+x.text(n)] = true
			}
		}
	}
}

// exportDefault records `export default v`: a function or class is a declaration named
// "default" (or by its own name); a name exports the declaration of that name.
func (x *extractor) exportDefault(st, v *syntax.Node, prefix string) {
	switch v.Kind {
	case "identifier":
		x.exported[prefix+x.text(v)] = true
	case "function_expression", "function", "generator_function", "arrow_function", "function_declaration":
		name := "default"
		if n := v.Child("name"); n != nil {
			name = x.text(n)
		}
		x.fns[v] = x.add(lang.Decl{Name: prefix + name, Kind: lang.Func, Exported: true, Documented: x.jsdoc(st),
			Span: st.Span(), NamePos: st.Pos, Signature: x.signature(v)})
	case "class", "class_declaration":
		name := "default"
		if n := v.Child("name"); n != nil {
			name = x.text(n)
		}
		x.class(v, st, prefix+name, true)
	}
}

// function records a function declaration (or an overload signature).
func (x *extractor) function(fn, doc *syntax.Node, prefix string, exported bool) {
	name := fn.Child("name")
	if name == nil {
		return
	}
	d := lang.Decl{Name: prefix + x.text(name), Kind: lang.Func, Exported: exported, Documented: x.jsdoc(doc),
		Span: fn.Span(), NamePos: name.Pos, Signature: x.signature(fn)}
	if d.Documented {
		x.documented[d.Name] = true
	}
	i := x.add(d)
	if isFunction(fn) {
		x.fns[fn] = i
	}
}

// typeDecl records an interface, type alias or enum. Only functions need JSDoc (the
// issue's "JSDoc on exported functions"), so types count as documented.
func (x *extractor) typeDecl(st, doc *syntax.Node, prefix string, exported bool) {
	name := st.Child("name")
	if name == nil {
		return
	}
	x.add(lang.Decl{Name: prefix + x.text(name), Kind: lang.Type, Exported: exported, Documented: true,
		Span: st.Span(), NamePos: name.Pos, Signature: x.typeSignature(st)})
}

// class records a class and its members: methods are "C.m", exported when the class is
// and the member is not private, protected or #private.
func (x *extractor) class(cl, doc *syntax.Node, name string, exported bool) {
	pos := cl.Pos
	if n := cl.Child("name"); n != nil {
		pos = n.Pos
	}
	x.add(lang.Decl{Name: name, Kind: lang.Type, Exported: exported, Documented: true, Span: cl.Span(), NamePos: pos,
		Signature: collapse(x.text(cl.OfKind("class_heritage")))})
	body := cl.Child("body")
	if body == nil {
		return
	}
	for _, m := range body.NamedChildren() {
		x.member(m, name, exported)
	}
}

// member records a method, accessor or field of class cls.
func (x *extractor) member(m *syntax.Node, cls string, exported bool) {
	n := m.Child("name")
	if n == nil {
		return
	}
	pub := exported && !x.private(m, n)
	switch m.Kind {
	case "method_definition", "abstract_method_signature", "method_signature":
		name := cls + "." + x.text(n)
		if acc := accessor(m); acc != "" {
			name = cls + "." + acc + " " + x.text(n)
		}
		// JSDoc is asked of exported functions only: a method counts as documented.
		d := lang.Decl{Name: name, Kind: lang.Method, Exported: pub, Documented: true,
			Span: m.Span(), NamePos: n.Pos, Signature: x.signature(m)}
		i := x.add(d)
		x.hidden[i] = x.private(m, n)
		if isFunction(m) {
			x.fns[m] = i
		}
	case "public_field_definition", "property_signature":
		i := x.add(lang.Decl{Name: cls + "." + x.text(n), Kind: lang.Field, Exported: pub, Documented: true,
			Span: m.Span(), NamePos: n.Pos, Signature: x.annotation(m)})
		x.hidden[i] = x.private(m, n)
	}
}

// private reports whether a class member is not part of the class's API.
func (x *extractor) private(m, name *syntax.Node) bool {
	if name.Kind == "private_property_identifier" {
		return true
	}
	if a := m.OfKind("accessibility_modifier"); a != nil {
		t := x.text(a)
		return t == "private" || t == "protected"
	}
	return false
}

// accessor returns "get" or "set" for an accessor method, "" otherwise.
func accessor(m *syntax.Node) string {
	for _, c := range m.Children {
		if c.Field == "name" {
			break
		}
		if c.Kind == "get" || c.Kind == "set" {
			return c.Kind
		}
	}
	return ""
}

// variables records the names a const, let or var statement declares: a function value
// makes a function, a class value a class.
func (x *extractor) variables(st, doc *syntax.Node, prefix string, exported bool) {
	kind := lang.Var
	if k := st.Child("kind"); k != nil && k.Kind == "const" {
		kind = lang.Const
	}
	documented := x.jsdoc(doc)
	for _, vd := range st.NamedChildren() {
		name := vd.Child("name")
		if vd.Kind != "variable_declarator" || name == nil || name.Kind != "identifier" {
			continue // destructuring: the names are the value's
		}
		v := vd.Child("value")
		d := lang.Decl{Name: prefix + x.text(name), Kind: kind, Exported: exported, Documented: true,
			Span: vd.Span(), NamePos: name.Pos, Signature: x.annotation(vd)}
		switch {
		case v != nil && isFunction(v):
			d.Kind, d.Documented, d.Signature = lang.Func, documented, x.signature(v)
			x.fns[v] = x.add(d)
			continue
		case v != nil && v.Kind == "class":
			x.class(v, doc, d.Name, exported)
			continue
		}
		x.add(d)
	}
}

// expressionStatement records namespaces written as statements and CommonJS exports:
// `exports.f = function…`, `module.exports.f = …`, `module.exports = {a, b}`.
func (x *extractor) expressionStatement(st, doc *syntax.Node, prefix string, exported, scope bool) {
	e := st.NamedChildren()
	if len(e) == 0 {
		return
	}
	switch e[0].Kind {
	case "internal_module", "module":
		x.namespace(e[0], doc, prefix, exported)
	case "assignment_expression":
		if scope && prefix == "" {
			x.commonJS(e[0], doc)
		}
	}
}

// commonJS records a CommonJS export assignment.
func (x *extractor) commonJS(as, doc *syntax.Node) {
	left, right := as.Child("left"), as.Child("right")
	if left == nil || right == nil {
		return
	}
	target := x.text(left)
	if target == "module.exports" {
		if right.Kind == "object" {
			for _, p := range right.NamedChildren() {
				switch p.Kind {
				case "shorthand_property_identifier":
					x.exported[x.text(p)] = true
				case "pair":
					if v := p.Child("value"); v != nil && v.Kind == "identifier" {
						x.exported[x.text(v)] = true
					}
				}
			}
		} else if right.Kind == "identifier" {
			x.exported[x.text(right)] = true
		}
		return
	}
	name, ok := strings.CutPrefix(target, "module.exports.")
	if !ok {
		name, ok = strings.CutPrefix(target, "exports.")
	}
	if !ok || strings.Contains(name, ".") || !isFunction(right) {
		return
	}
	d := lang.Decl{Name: name, Kind: lang.Func, Exported: true, Documented: x.jsdoc(doc), Span: as.Span(),
		NamePos: left.Pos, Signature: x.signature(right)}
	x.fns[right] = x.add(d)
}

// namespace records a namespace and the declarations it exports, as "NS.name". A
// `declare module "x"` or `declare global` block augments another module: its
// declarations are not this file's.
func (x *extractor) namespace(ns, doc *syntax.Node, prefix string, exported bool) {
	name := ns.Child("name")
	body := ns.Child("body")
	if name == nil || body == nil || name.Kind == "string" {
		return
	}
	full := prefix + x.text(name)
	x.add(lang.Decl{Name: full, Kind: lang.Type, Exported: exported, Documented: true, Span: ns.Span(), NamePos: name.Pos})
	x.topLevel(body, full+".", exported)
}

// markExported applies the export clauses: a declaration whose name one names is
// exported; a function with a documented overload is documented.
func (x *extractor) markExported() {
	for i := range x.lf.Decls {
		d := &x.lf.Decls[i]
		owner, _, _ := strings.Cut(d.Name, ".")
		member := d.Kind == lang.Method || d.Kind == lang.Field
		if x.exported[d.Name] || member && x.exported[owner] && !x.hidden[i] {
			d.Exported = true
		}
		if x.documented[d.Name] {
			d.Documented = true
		}
	}
}
