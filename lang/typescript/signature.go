package typescript

import (
	"strings"

	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// signature is a function's normalised signature, for API comparisons: its type
// parameters, the parameters' types in order without their names (optional ones, and
// those with a default, marked '?', a rest parameter "...T"; an untyped parameter is
// "any"), and the return type when written: "<T>(string, number?, ...T[]): void".
func (x *extractor) signature(fn *syntax.Node) string {
	var b strings.Builder
	if tp := fn.Child("type_parameters"); tp != nil {
		b.WriteString(collapse(x.text(tp)))
	}
	b.WriteString("(")
	for i, p := range params(fn) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(x.param(p))
	}
	b.WriteString(")")
	if rt := fn.Child("return_type"); rt != nil {
		b.WriteString(": ")
		b.WriteString(typeText(x, rt))
	}
	return b.String()
}

// params returns the parameter nodes of a function (an arrow function's single bare
// parameter included), `this` parameters left out.
func params(fn *syntax.Node) []*syntax.Node {
	if p := fn.Child("parameter"); p != nil {
		return []*syntax.Node{p}
	}
	var out []*syntax.Node
	for _, p := range fn.Child("parameters").NamedChildren() {
		if pat := p.Child("pattern"); pat != nil && pat.Kind == "this" {
			continue
		}
		if p.Kind == "comment" {
			continue
		}
		out = append(out, p)
	}
	return out
}

// param is one parameter's part of a signature.
func (x *extractor) param(p *syntax.Node) string {
	t := "any"
	if ann := p.Child("type"); ann != nil {
		t = typeText(x, ann)
	}
	pat := p.Child("pattern")
	switch {
	case pat != nil && pat.Kind == "rest_pattern":
		return "..." + t
	case p.Kind == "optional_parameter" || p.Child("value") != nil:
		return t + "?"
	}
	return t
}

// typeText is the text of a type annotation without its ':' (or '=>' of a signature).
func typeText(x *extractor, ann *syntax.Node) string {
	if ann.Kind == "type_annotation" || ann.Kind == "asserts_annotation" || ann.Kind == "type_predicate_annotation" {
		var parts []string
		for _, c := range ann.Children {
			if c.Named {
				parts = append(parts, collapse(x.text(c)))
			}
		}
		return strings.Join(parts, " ")
	}
	return collapse(x.text(ann))
}

// annotation is the declared type of a variable or field, "" when it has none.
func (x *extractor) annotation(n *syntax.Node) string {
	if ann := n.Child("type"); ann != nil {
		return typeText(x, ann)
	}
	return ""
}

// typeSignature is the normalised text of a type declaration after its name.
func (x *extractor) typeSignature(st *syntax.Node) string {
	var parts []string
	seenName := false
	for _, c := range st.Children {
		if c.Field == "name" {
			seenName = true
			continue
		}
		if seenName && c.Kind != "comment" {
			parts = append(parts, x.text(c))
		}
	}
	return collapse(strings.Join(parts, " "))
}
