package typescript

import (
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// idents lists the identifiers the file's author chose: functions, classes, interfaces,
// type aliases, enums and their members, variables, parameters, class methods and
// fields. Names dictated by something else are left out: imports, destructured
// properties, object-literal keys and the members of interfaces and type literals (they
// often mirror a JSON API), computed and quoted names, constructors.
func (x *extractor) idents() {
	x.tree.Root.Walk(func(n *syntax.Node) bool {
		switch n.Kind {
		case "object_type", "interface_body", "import_statement":
			return false
		case "enum_body":
			x.enumMembers(n)
		case "required_parameter", "optional_parameter":
			x.paramIdent(n)
		default:
			x.declared(n)
		}
		return true
	})
}

// enumMembers records the members of an enum.
func (x *extractor) enumMembers(n *syntax.Node) {
	for _, m := range n.NamedChildren() {
		if m.Kind == "property_identifier" {
			x.ident(m, lang.IdentConst)
		} else if m.Kind == "enum_assignment" {
			x.ident(m.Child("name"), lang.IdentConst)
		}
	}
}

// paramIdent records a parameter's name (a rest parameter's too; destructured names are
// the caller's).
func (x *extractor) paramIdent(n *syntax.Node) {
	pat := n.Child("pattern")
	if pat != nil && pat.Kind == "rest_pattern" {
		pat = pat.OfKind("identifier")
	}
	x.ident(pat, lang.IdentParam)
}

// declared records the name a declaration node declares.
func (x *extractor) declared(n *syntax.Node) {
	switch n.Kind {
	case "function_declaration", "generator_function_declaration", "function_signature":
		x.ident(n.Child("name"), lang.IdentFunc)
	case "class_declaration", "abstract_class_declaration", "class", "interface_declaration",
		"type_alias_declaration", "enum_declaration":
		x.ident(n.Child("name"), lang.IdentType)
	case "variable_declarator":
		x.ident(n.Child("name"), varKind(n))
	case "arrow_function":
		x.ident(n.Child("parameter"), lang.IdentParam)
	case "method_definition", "abstract_method_signature":
		if !inObject(n) && x.text(n.Child("name")) != "constructor" {
			x.ident(n.Child("name"), lang.IdentMethod)
		}
	case "public_field_definition":
		x.ident(n.Child("name"), lang.IdentField)
	}
}

// ident records name (only a plain identifier) as an identifier of kind k.
func (x *extractor) ident(name *syntax.Node, k lang.IdentKind) {
	if name == nil {
		return
	}
	switch name.Kind {
	case "identifier", "type_identifier", "property_identifier":
		x.lf.Idents = append(x.lf.Idents, lang.Ident{Name: x.text(name), Kind: k, Pos: name.Pos})
	}
}

// varKind is the identifier kind of a declared variable: a function or class value
// makes a function or type, const a constant.
func varKind(vd *syntax.Node) lang.IdentKind {
	if v := vd.Child("value"); v != nil {
		switch {
		case isFunction(v):
			return lang.IdentFunc
		case v.Kind == "class":
			return lang.IdentType
		}
	}
	if st := vd.Parent; st != nil {
		if k := st.Child("kind"); k != nil && k.Kind == "const" {
			return lang.IdentConst
		}
	}
	return lang.IdentVar
}

// inObject reports whether a method is written in an object literal.
func inObject(m *syntax.Node) bool { return m.Parent != nil && m.Parent.Kind == "object" }
