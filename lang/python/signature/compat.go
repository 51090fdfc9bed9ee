package signature

import (
	"fmt"
)

// Incompatibilities lists why a call valid against base may fail (or change meaning)
// against head: what a caller who passes every parameter by every means the base
// allows would see.
func Incompatibilities(base, head Signature) []string {
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

func varName(s Signature, k paramKind) string {
	for _, p := range s.params {
		if p.kind == k {
			return p.name
		}
	}
	return ""
}

// positionalBreaks checks every parameter base callers may pass by position: head must
// take the same parameter at the same position, or absorb it in *Args.
func positionalBreaks(base, head Signature) []string {
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
		if i < len(base.positional) && base.hasVarKw && q.kind == posOrKw && base.Keyword(q.name) == nil {
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
func reordered(base, head Signature, i int) bool {
	if i >= len(head.positional) {
		return false
	}
	p, q := base.positional[i], head.positional[i]
	if p.name == q.name {
		return false
	}
	pMoved := p.kind == posOrKw && indexOf(head.positional, p.name) < len(head.positional)
	qKeyword := q.kind == posOrKw && base.Keyword(q.name) != nil
	return pMoved || qKeyword
}

// keywordBreaks checks every parameter base callers may pass by keyword: head must
// accept the keyword.
func keywordBreaks(base, head Signature) []string {
	var out []string
	for i, p := range base.params {
		if p.kind != posOrKw && p.kind != kwOnly || head.Keyword(p.name) != nil {
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

func positionalOnlyNow(head Signature, name string) bool {
	for _, p := range head.params {
		if p.name == name && p.kind == posOnly {
			return true
		}
	}
	return false
}

// renamedAt returns the name of head's positional parameter at the position of base's
// parameter i when base has no parameter of that name: a rename.
func renamedAt(base, head Signature, i int) string {
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
func requiredBreaks(base, head Signature) []string {
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
func requiredAtBase(base, head Signature, q Param) bool {
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

func indexOf(ps []Param, name string) int {
	for i, p := range ps {
		if p.name == name {
			return i
		}
	}
	return len(ps)
}

func paramNamed(s Signature, name string) *Param {
	for i, p := range s.params {
		if p.name == name {
			return &s.params[i]
		}
	}
	return nil
}
