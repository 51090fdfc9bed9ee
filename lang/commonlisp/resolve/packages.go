package resolve

import (
	"strings"

	"github.com/agentverify/agentverify/lang/commonlisp/asdf"
	"github.com/agentverify/agentverify/lang/commonlisp/cltable"
)

// maxDepth bounds the chains of :reexport and :import-from followed.
const maxDepth = 8

// lookupPkg returns the package a prefix names in package cur: a local nickname of cur,
// else a package of the world by name or nickname.
func (w *world) lookupPkg(name string, cur *pkg) *pkg {
	if cur != nil {
		if real, ok := cur.localNicknames[name]; ok {
			name = real
		}
	}
	return w.pkgs[name]
}

// exported returns the package a symbol name exported by p lives in: p itself, the
// package it was imported from or the reexported package that exports it; nil when p
// does not export it.
func (w *world) exported(p *pkg, name string, depth int) *pkg {
	if p == nil || depth > maxDepth {
		return nil
	}
	switch {
	case p.origin == fromCL:
		if _, ok := cltable.Lookup(name); ok {
			return p
		}
		return nil
	case p.builtin != nil:
		if _, ok := builtins().symbols[p.builtin][name]; ok {
			return p
		}
		return nil
	case p.exports[name]:
		if from, ok := p.imports[name]; ok {
			if q := w.pkgs[from]; q != nil {
				return q
			}
		}
		if home := w.usedExport(p, name, depth); home != nil {
			return home
		}
		return p
	}
	for _, r := range p.reexport {
		if home := w.exported(w.pkgs[r], name, depth+1); home != nil {
			return home
		}
	}
	return nil
}

// usedExport returns the package among those p uses that exports name, if any.
func (w *world) usedExport(p *pkg, name string, depth int) *pkg {
	for _, u := range p.use {
		if home := w.exported(w.pkgs[u], name, depth+1); home != nil {
			return home
		}
	}
	return nil
}

// accessible resolves the unqualified symbol name read in package cur to the package
// it lives in. unsure names a package cur uses or imports the symbol from whose exports
// are not known ("" when there is none), so that a symbol that seems to be cur's own may
// be one of its.
func (w *world) accessible(cur *pkg, name string) (home *pkg, unsure string) {
	if from, ok := cur.imports[name]; ok {
		if q := w.lookupPkg(from, cur); q != nil {
			return q, ""
		}
		return nil, from
	}
	if cur.shadow[name] {
		return cur, ""
	}
	for _, u := range cur.use {
		up := w.lookupPkg(u, cur)
		if up == nil || !up.listed {
			if unsure == "" {
				unsure = u
			}
			continue
		}
		if h := w.exported(up, name, 0); h != nil {
			return h, ""
		}
	}
	return cur, unsure
}

// externalIn reports whether name is an external symbol of p, and whether that is
// known at all (an unlisted or incompletely read package's exports are not).
func (w *world) externalIn(p *pkg, name string) (external, known bool) {
	if !p.listed || p.incomplete {
		return false, false
	}
	return w.exported(p, name, 0) != nil, true
}

// externals returns the external symbol names of p, for suggestions.
func (w *world) externals(p *pkg) []string {
	var out []string
	switch {
	case p.origin == fromCL:
		for s := range cltable.All {
			out = append(out, s.Name)
		}
	case p.builtin != nil:
		for _, s := range p.builtin.Symbols {
			out = append(out, s.Name)
		}
	default:
		for n := range p.exports {
			out = append(out, n)
		}
	}
	return out
}

// verdict is what an unknown package name turned out to be.
type verdict struct {
	// system is the system that provides the package: a dependency the project does not
	// declare (undeclared), or a declared one that is missing (missing).
	system              string
	undeclared, missing bool
}

// unknownPackage decides what a package name the world does not have is: the package of
// a system in the source registry that the project does not declare (which is then
// added to the world, so its symbols are checked), presumably one of a declared system
// that is not installed, or a package nobody has (nil system).
func (w *world) unknownPackage(name string) *verdict {
	if v, ok := w.verdicts[name]; ok {
		return v
	}
	v := &verdict{}
	w.verdicts[name] = v
	if w.made[name] {
		v.system = "(the project)" // made by a macro of the project: exists, exports unknown
		return v
	}
	for _, cand := range systemCandidates(name) {
		if w.selfSystem(cand) || !w.deps.Has(cand) {
			continue
		}
		sys := w.deps.System(cand)
		if !providesPackage(sys, name) {
			continue
		}
		w.addPackages(sys.pkgs, fromDep, sys.name, sys.incomplete || sys.problem != "")
		w.addExports(sys.exports, fromDep)
		w.addDefs(sys.defs, true)
		v.system, v.undeclared = cand, w.hasASD && !w.declared[cand]
		return v
	}
	for _, m := range w.missing {
		if samePackageName(m, name) {
			v.system, v.missing = m, true
			return v
		}
	}
	for _, d := range sortedKeys(w.declared) {
		// A declared system that was found but whose packages could not all be read
		// (one built by a macro, as trivial-gray-streams does): not reported.
		if !w.selfSystem(d) && samePackageName(d, name) && w.deps.System(d).status == asdf.Found {
			v.system = d
			return v
		}
	}
	return v
}

// systemCandidates are the system names that conventionally provide a package: its
// name in lower case, with and without a "cl-" prefix.
func systemCandidates(pkgName string) []string {
	n := strings.ToLower(pkgName)
	if strings.HasPrefix(n, "cl-") {
		return []string{n, strings.TrimPrefix(n, "cl-")}
	}
	return []string{n, "cl-" + n}
}

func providesPackage(sys *system, name string) bool {
	for _, p := range sys.pkgs {
		if p.Name == name {
			return true
		}
		for _, n := range p.Nicknames {
			if n == name {
				return true
			}
		}
	}
	return false
}

// samePackageName reports whether a package name is presumably one a system of that
// name defines: equal up to case and a "cl-" prefix, or one the start or the end of the
// other at a '-', '.' or '/' boundary (cl-json's JSON, cl-ppcre's PPCRE).
func samePackageName(system, pkgName string) bool {
	s := strings.TrimPrefix(strings.ToLower(system), "cl-")
	p := strings.TrimPrefix(strings.ToLower(pkgName), "cl-")
	if s == p {
		return true
	}
	long, short := s, p
	if len(p) > len(s) {
		long, short = p, s
	}
	const bounds = "-./"
	return strings.HasPrefix(long, short) && strings.ContainsRune(bounds, rune(long[len(short)])) ||
		strings.HasSuffix(long, short) && strings.ContainsRune(bounds, rune(long[len(long)-len(short)-1]))
}
