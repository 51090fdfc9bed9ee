package python

import (
	"fmt"
	"strings"
)

// paramKind is how a caller can pass a parameter.
type paramKind int

const (
	posOnly paramKind = iota // before "/"
	posOrKw
	varArgs // *args
	kwOnly  // after "*" or *args
	varKw   // **kwargs
)

// sigParam is one parameter of a parsed signature.
type sigParam struct {
	name     string
	kind     paramKind
	optional bool // has a default
}

// sig is a signature as the frontend normalises it (see signature), parsed back.
type sig struct {
	params                  []sigParam
	async, property, static bool
	classmethod             bool
	hasVarArgs, hasVarKw    bool
	positional              []sigParam // posOnly and posOrKw, in order
}

// parseSig parses a normalised signature "@staticmethod async def(a, b=..., /, c, *,
// d, **kw)"; method drops the first parameter (self or cls) of methods that are not
// static.
func parseSig(s string, method bool) sig {
	var out sig
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

func (out *sig) parseParams(list string, dropFirst bool) {
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
			out.params = append(out.params, sigParam{name: r[2:], kind: varKw})
			out.hasVarKw = true
			continue
		case strings.HasPrefix(r, "*"):
			out.params = append(out.params, sigParam{name: r[1:], kind: varArgs})
			out.hasVarArgs, kind = true, kwOnly
			continue
		}
		p := sigParam{name: strings.TrimSuffix(r, "=..."), kind: kind, optional: strings.HasSuffix(r, "=...")}
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

// keyword returns the parameter named name that a keyword can set, or nil.
func (s sig) keyword(name string) *sigParam {
	for i, p := range s.params {
		if p.name == name && (p.kind == posOrKw || p.kind == kwOnly) {
			return &s.params[i]
		}
	}
	return nil
}

// incompatibilities lists why a call valid against base may fail (or change meaning)
// against head: what a caller who passes every parameter by every means the base
// allows would see.
func incompatibilities(base, head sig) []string {
	var out []string
	switch {
	case base.property != head.property && base.property:
		return []string{"changed from a property to a method"}
	case base.property != head.property:
		return []string{"changed from a method to a property"}
	case base.property:
		return nil // a property is read, not called
	}
	if base.async != head.async {
		out = append(out, map[bool]string{true: "became a coroutine function (async def): callers get a coroutine, not a result",
			false: "is no longer a coroutine function: callers that await it fail"}[head.async])
	}
	if base.hasVarArgs && !head.hasVarArgs {
		out = append(out, "*"+varName(base, varArgs)+" removed")
	}
	if base.hasVarKw && !head.hasVarKw {
		out = append(out, "**"+varName(base, varKw)+" removed")
	}
	out = append(out, positionalBreaks(base, head)...)
	out = append(out, keywordBreaks(base, head)...)
	return append(out, requiredBreaks(base, head)...)
}

func varName(s sig, k paramKind) string {
	for _, p := range s.params {
		if p.kind == k {
			return p.name
		}
	}
	return ""
}

// positionalBreaks checks every parameter base callers may pass by position: head must
// take the same parameter at the same position, or absorb it in *args.
func positionalBreaks(base, head sig) []string {
	var out []string
	for i, p := range base.positional {
		q := paramNamed(head, p.name)
		switch {
		case reordered(base, head, i):
			out = append(out, fmt.Sprintf("parameters reordered: argument %d is now %s, not %s", i+1, head.positional[i].name, p.name))
		case p.kind == posOrKw && q != nil && q.kind == kwOnly:
			out = append(out, fmt.Sprintf("parameter %s became keyword-only: callers passing it by position break", p.name))
		case i >= len(head.positional) && !head.hasVarArgs:
			out = append(out, fmt.Sprintf("parameter %s can no longer be passed by position (argument %d)", p.name, i+1))
		}
	}
	for i, q := range head.positional {
		if i < len(base.positional) && base.hasVarKw && q.kind == posOrKw && base.keyword(q.name) == nil {
			out = append(out, fmt.Sprintf("parameter %s now takes a keyword: a %s= that went to **%s collides with argument %d", q.name, q.name, varName(base, varKw), i+1))
		}
	}
	if n := len(base.positional); base.hasVarArgs && len(head.positional) > n {
		out = append(out, fmt.Sprintf("parameter %s added before *%s: extra positional arguments now bind to it", head.positional[n].name, varName(base, varArgs)))
	}
	return out
}

// reordered reports whether argument i binds to another parameter at the head than at
// the base, one that callers may also name by keyword.
func reordered(base, head sig, i int) bool {
	if i >= len(head.positional) {
		return false
	}
	p, q := base.positional[i], head.positional[i]
	if p.name == q.name {
		return false
	}
	pMoved := p.kind == posOrKw && indexOf(head.positional, p.name) < len(head.positional)
	qKeyword := q.kind == posOrKw && base.keyword(q.name) != nil
	return pMoved || qKeyword
}

// keywordBreaks checks every parameter base callers may pass by keyword: head must
// accept the keyword.
func keywordBreaks(base, head sig) []string {
	var out []string
	for i, p := range base.params {
		if p.kind != posOrKw && p.kind != kwOnly || head.keyword(p.name) != nil {
			continue
		}
		if head.hasVarKw && !positionalOnlyNow(head, p.name) {
			continue // p= now goes to **kwargs
		}
		switch {
		case positionalOnlyNow(head, p.name):
			out = append(out, fmt.Sprintf("parameter %s became positional-only: callers passing %s= break", p.name, p.name))
		case p.kind == posOrKw && renamedAt(base, head, i) != "":
			out = append(out, fmt.Sprintf("parameter %s renamed to %s: callers passing %s= break", p.name, renamedAt(base, head, i), p.name))
		default:
			out = append(out, fmt.Sprintf("parameter %s removed", p.name))
		}
	}
	return out
}

func positionalOnlyNow(head sig, name string) bool {
	for _, p := range head.params {
		if p.name == name && p.kind == posOnly {
			return true
		}
	}
	return false
}

// renamedAt returns the name of head's positional parameter at the position of base's
// parameter i when base has no parameter of that name: a rename.
func renamedAt(base, head sig, i int) string {
	pos := -1
	for j, p := range base.positional {
		if p.name == base.params[i].name {
			pos = j
		}
	}
	if pos < 0 || pos >= len(head.positional) {
		return ""
	}
	n := head.positional[pos].name
	for _, p := range base.params {
		if p.name == n {
			return ""
		}
	}
	return n
}

// requiredBreaks reports the parameters head requires that base callers need not pass.
func requiredBreaks(base, head sig) []string {
	var out []string
	for _, q := range head.params {
		if q.optional || q.kind == varArgs || q.kind == varKw {
			continue
		}
		if requiredAtBase(base, head, q) {
			continue
		}
		if p := paramNamed(base, q.name); p != nil && p.optional {
			out = append(out, fmt.Sprintf("parameter %s no longer has a default", q.name))
			continue
		}
		out = append(out, fmt.Sprintf("required parameter %s added", q.name))
	}
	return out
}

// requiredAtBase reports whether every call valid at base passes head's required
// parameter q: base required it too, in a slot callers fill the same way (by position
// for a positional-only parameter, whose name callers never write).
func requiredAtBase(base, head sig, q sigParam) bool {
	if q.kind == posOnly {
		pos := indexOf(head.positional, q.name)
		if pos >= len(base.positional) {
			return false
		}
		p := base.positional[pos]
		// Base callers fill the slot by position only if base took it by position only
		// (or under the same name, when a keyword break is reported of its own).
		return !p.optional && (p.kind == posOnly || p.name == q.name)
	}
	p := paramNamed(base, q.name)
	if p == nil || p.optional {
		return false
	}
	if p.kind == posOnly {
		return q.kind == posOrKw && indexOf(base.positional, p.name) == indexOf(head.positional, q.name)
	}
	return true
}

func indexOf(ps []sigParam, name string) int {
	for i, p := range ps {
		if p.name == name {
			return i
		}
	}
	return len(ps)
}

func paramNamed(s sig, name string) *sigParam {
	for i, p := range s.params {
		if p.name == name {
			return &s.params[i]
		}
	}
	return nil
}
