package python

import (
	"strings"
)

// signature is the normalised signature of a function: "def(a, b=..., /, c, *args,
// d, e=..., **kwargs)", prefixed by "async" and by the decorators that change how it
// is called (staticmethod, classmethod, property). Annotations and default values are
// left out: they change no call site's validity.
func signature(def *node, decorators []*node, src []byte) string {
	var b strings.Builder
	for _, d := range []string{"staticmethod", "classmethod", "property"} {
		if hasDecorator(decorators, src, d) {
			b.WriteString("@" + d + " ")
		}
	}
	if def.firstOfKind("async") != nil {
		b.WriteString("async ")
	}
	b.WriteString("def(")
	b.WriteString(strings.Join(params(def.child("parameters"), src), ", "))
	b.WriteString(")")
	return b.String()
}

// params lists the normalised parameters of a parameters or lambda_parameters node.
func params(ps *node, src []byte) []string {
	if ps == nil {
		return nil
	}
	var out []string
	for _, p := range ps.namedChildren() {
		if s := param(p, src); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// param is one normalised parameter: name, "name=..." with a default, "*args",
// "**kwargs", "*" or "/".
func param(p *node, src []byte) string {
	if p == nil {
		return ""
	}
	switch p.kind {
	case "identifier":
		return p.text(src)
	case "typed_parameter":
		return param(firstNamed(p), src)
	case "default_parameter", "typed_default_parameter":
		return p.child("name").text(src) + "=..."
	case "list_splat_pattern":
		return "*" + firstNamed(p).text(src)
	case "dictionary_splat_pattern":
		return "**" + firstNamed(p).text(src)
	case "keyword_separator":
		return "*"
	case "positional_separator":
		return "/"
	}
	return ""
}

// firstNamed returns the first named child of n, or nil.
func firstNamed(n *node) *node {
	for _, c := range n.children {
		if c.named {
			return c
		}
	}
	return nil
}

// paramNames returns the identifiers a parameter list declares, in order.
func paramNames(ps *node) []*node {
	if ps == nil {
		return nil
	}
	var out []*node
	for _, p := range ps.namedChildren() {
		if id := paramName(p); id != nil {
			out = append(out, id)
		}
	}
	return out
}

func paramName(p *node) *node {
	switch p.kind {
	case "identifier":
		return p
	case "default_parameter", "typed_default_parameter":
		return p.child("name")
	case "typed_parameter", "list_splat_pattern", "dictionary_splat_pattern":
		if c := firstNamed(p); c != nil {
			return paramName(c)
		}
	}
	return nil
}

// classSignature is "class(Base, metaclass=M)": the bases as written, on one line.
func classSignature(def *node, src []byte) string {
	bases := def.child("superclasses")
	if bases == nil {
		return "class()"
	}
	var parts []string
	for _, b := range bases.namedChildren() {
		if b.kind != "comment" {
			parts = append(parts, strings.Join(strings.Fields(b.text(src)), " "))
		}
	}
	return "class(" + strings.Join(parts, ", ") + ")"
}
