package api

import (
	"go/types"
	"strings"

	"github.com/agentverify/agentverify/lazyregexp"
)

// moves is what the head of a package can see of types that moved: each package-level
// alias (in the package and everything it imports) by qualified name ("path.Name"), with
// the type it denotes; and the underlying type of each defined type the base could see
// under that name.
type moves struct {
	alias map[string]string // head: alias → the type it denotes
	under map[string]string // head: alias → the underlying type it denotes
	base  map[string]string // base: defined type → its underlying type
}

func newMoves(base, head *types.Package) *moves {
	m := &moves{alias: map[string]string{}, under: map[string]string{}, base: map[string]string{}}
	eachTypeName(head, func(tn *types.TypeName) {
		if tn.IsAlias() {
			t := types.Unalias(tn.Type())
			m.alias[tn.Pkg().Path()+"."+tn.Name()] = types.TypeString(t, nil)
			m.under[tn.Pkg().Path()+"."+tn.Name()] = types.TypeString(t.Underlying(), nil)
		}
	})
	eachTypeName(base, func(tn *types.TypeName) {
		if !tn.IsAlias() {
			m.base[tn.Pkg().Path()+"."+tn.Name()] = types.TypeString(tn.Type().Underlying(), nil)
		}
	})
	return m
}

// eachTypeName calls f on every package-level type name of pkg and of what it imports.
func eachTypeName(pkg *types.Package, f func(*types.TypeName)) {
	seen := map[*types.Package]bool{}
	var walk func(*types.Package)
	walk = func(p *types.Package) {
		if p == nil || seen[p] {
			return
		}
		seen[p] = true
		for _, name := range p.Scope().Names() {
			if tn, ok := p.Scope().Lookup(name).(*types.TypeName); ok {
				f(tn)
			}
		}
		for _, ip := range p.Imports() {
			walk(ip)
		}
	}
	walk(pkg)
}

var changedFromTo = lazyregexp.New(`^changed from (.+) to (.+)$`)

// movedBehindAlias reports whether apidiff's detail about package pkgPath is a type that
// only changed its name: "changed from X to Y" where, with the head's aliases spelled out,
// X and Y are the same type, and every alias spelled out denotes a type of the same
// structure as the defined type the base had under that name. That is a type moved to
// another package whose old name stays as an alias (check.Location = lang.Location):
// callers compile as before. A move that also changes the type is still reported.
func (m *moves) movedBehindAlias(pkgPath, detail string) bool {
	ft := changedFromTo.FindStringSubmatch(detail)
	if ft == nil || len(m.alias) == 0 {
		return false
	}
	from, okFrom := m.unaliased(pkgPath, ft[1])
	to, okTo := m.unaliased(pkgPath, ft[2])
	return okFrom && okTo && from == to
}

// unaliased replaces each alias name in type string t (names of package pkgPath may be
// unqualified) by the type it denotes; ok is false when an alias's target is not
// structured as the base's type of that name was.
func (m *moves) unaliased(pkgPath, t string) (string, bool) {
	ok := true
	out := eachName(t, func(word string) string {
		if !strings.Contains(word, ".") {
			word = pkgPath + "." + word
		}
		target, isAlias := m.alias[word]
		if !isAlias {
			return word
		}
		ok = ok && m.sameStructure(word)
		return target
	})
	return out, ok
}

// sameStructure reports whether alias name denotes a type whose underlying type is the
// one the base's defined type of that name had, with the head's aliases spelled out.
func (m *moves) sameStructure(name string) bool {
	base, ok := m.base[name]
	if !ok {
		return false
	}
	spell := func(s string) string {
		return eachName(s, func(w string) string {
			if target, ok := m.alias[w]; ok {
				return target
			}
			return w
		})
	}
	return spell(base) == spell(m.under[name])
}

// eachName returns t with each (possibly qualified) name in it replaced by f's result.
func eachName(t string, f func(string) string) string {
	var b strings.Builder
	for i := 0; i < len(t); {
		j := i
		for j < len(t) && isNameByte(t[j]) {
			j++
		}
		if j == i {
			b.WriteByte(t[i])
			i++
			continue
		}
		b.WriteString(f(t[i:j]))
		i = j
	}
	return b.String()
}

// isNameByte reports whether c may appear in a qualified type name ("example.com/m/p.T").
func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c == '/' || c == '-' || c == '~' ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}
