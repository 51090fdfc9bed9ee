package signature

import (
	"github.com/agentverify/agentverify/lang/python/syntax"
	"strings"
)

// Of is the normalised signature of a function: "def(a, b=..., /, c, *args,
// d, e=..., **kwargs)", prefixed by "async" and by the decorators that change how it
// is called (staticmethod, classmethod, property). Annotations and default values are
// left out: they change no call site's validity.
func Of(def *syntax.Node, decorators []*syntax.Node, src []byte) string {
	var b strings.Builder
	for _, d := range []string{"staticmethod", "classmethod", "property"} {
		if syntax.HasDecorator(decorators, src, d) {
			b.WriteString("@" + d + " ")
		}
	}
	if def.FirstOfKind("async") != nil {
		b.WriteString("async ")
	}
	b.WriteString("def(")
	b.WriteString(strings.Join(params(def.Child("parameters"), src), ", "))
	b.WriteString(")")
	return b.String()
}

// params lists the normalised parameters of a parameters or lambda_parameters node.
func params(ps *syntax.Node, src []byte) []string {
	if ps == nil {
		return nil
	}
	var out []string
	for _, p := range ps.NamedChildren() {
		if s := param(p, src); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// param is one normalised parameter: name, "name=..." with a default, "*args",
// "**kwargs", "*" or "/".
func param(p *syntax.Node, src []byte) string {
	if p == nil {
		return ""
	}
	switch p.Kind {
	case "identifier":
		return p.Text(src)
	case "typed_parameter":
		return param(p.FirstNamed(), src)
	case "default_parameter", "typed_default_parameter":
		return p.Child("name").Text(src) + "=..."
	case "list_splat_pattern":
		return "*" + p.FirstNamed().Text(src)
	case "dictionary_splat_pattern":
		return "**" + p.FirstNamed().Text(src)
	case "keyword_separator":
		return "*"
	case "positional_separator":
		return "/"
	}
	return ""
}

// ParamNames returns the identifiers a parameter list declares, in order.
func ParamNames(ps *syntax.Node) []*syntax.Node {
	if ps == nil {
		return nil
	}
	var out []*syntax.Node
	for _, p := range ps.NamedChildren() {
		if id := ParamName(p); id != nil {
			out = append(out, id)
		}
	}
	return out
}

// ParamName is the identifier one parameter declares, or nil (a separator).
func ParamName(p *syntax.Node) *syntax.Node {
	switch p.Kind {
	case "identifier":
		return p
	case "default_parameter", "typed_default_parameter":
		return p.Child("name")
	case "typed_parameter", "list_splat_pattern", "dictionary_splat_pattern":
		if c := p.FirstNamed(); c != nil {
			return ParamName(c)
		}
	}
	return nil
}

// Class is the signature of a class, "class(Base, metaclass=M)": the bases as written,
// on one line.
func Class(def *syntax.Node, src []byte) string {
	bases := def.Child("superclasses")
	if bases == nil {
		return "class()"
	}
	var parts []string
	for _, b := range bases.NamedChildren() {
		if b.Kind != "comment" {
			parts = append(parts, strings.Join(strings.Fields(b.Text(src)), " "))
		}
	}
	return "class(" + strings.Join(parts, ", ") + ")"
}
