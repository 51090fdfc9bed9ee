package signature

import (
	"strings"
)

// paramKind is how a caller can pass a parameter.
type paramKind int

const (
	posOnly paramKind = iota // before "/"
	posOrKw
	varArgs // *Args
	kwOnly  // after "*" or *Args
	varKw   // **kwargs
)

// Param is one parameter of a parsed signature.
type Param struct {
	name     string
	kind     paramKind
	optional bool // has a default
}

// Signature is a signature as the frontend normalises it (lang.Decl.Signature), parsed back.
type Signature struct {
	params                  []Param
	async, property, static bool
	classmethod             bool
	hasVarArgs, hasVarKw    bool
	positional              []Param // posOnly and posOrKw, in order
}

// Parse parses a normalised signature "@staticmethod async def(a, b=..., /, c, *,
// d, **kw)"; method drops the first parameter (self or cls) of methods that are not
// static.
func Parse(s string, method bool) Signature {
	var out Signature
	for {
		switch {
		case strings.HasPrefix(s, "@staticmethod "):
			out.static, s = true, strings.TrimPrefix(s, "@staticmethod ")
		case strings.HasPrefix(s, "@classmethod "):
			out.classmethod, s = true, strings.TrimPrefix(s, "@classmethod ")
		case strings.HasPrefix(s, "@property "):
			out.property, s = true, strings.TrimPrefix(s, "@property ")
		case strings.HasPrefix(s, "async "):
			out.async, s = true, strings.TrimPrefix(s, "async ")
		default:
			out.parseParams(strings.TrimSuffix(strings.TrimPrefix(s, "def("), ")"), method && !out.static)
			return out
		}
	}
}

func (out *Signature) parseParams(list string, dropFirst bool) {
	var raw []string
	if strings.TrimSpace(list) != "" {
		raw = strings.Split(list, ", ")
	}
	slash := -1
	for i, r := range raw {
		if r == "/" {
			slash = i
		}
	}
	kind := posOrKw
	for i, r := range raw {
		switch {
		case r == "/":
			continue
		case r == "*":
			kind = kwOnly
			continue
		case strings.HasPrefix(r, "**"):
			out.params = append(out.params, Param{name: r[2:], kind: varKw})
			out.hasVarKw = true
			continue
		case strings.HasPrefix(r, "*"):
			out.params = append(out.params, Param{name: r[1:], kind: varArgs})
			out.hasVarArgs, kind = true, kwOnly
			continue
		}
		p := Param{name: strings.TrimSuffix(r, "=..."), kind: kind, optional: strings.HasSuffix(r, "=...")}
		if i < slash {
			p.kind = posOnly
		}
		out.params = append(out.params, p)
	}
	if dropFirst && len(out.params) > 0 && out.params[0].kind <= posOrKw {
		out.params = out.params[1:]
	}
	for _, p := range out.params {
		if p.kind <= posOrKw {
			out.positional = append(out.positional, p)
		}
	}
}

// Keyword returns the parameter named name that a keyword can set, or nil.
func (s Signature) Keyword(name string) *Param {
	for i, p := range s.params {
		if p.name == name && (p.kind == posOrKw || p.kind == kwOnly) {
			return &s.params[i]
		}
	}
	return nil
}
