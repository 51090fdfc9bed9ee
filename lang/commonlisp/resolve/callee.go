package resolve

import (
	"github.com/agentverify/agentverify/lang/commonlisp/cltable"
	"github.com/agentverify/agentverify/lang/commonlisp/lambdalist"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// verdicts of resolving a name in function position.
type status uint8

const (
	// unverifiable: it may exist (a package whose exports are not known, a name a project
	// macro may define); neither it nor its arguments are checked.
	unverifiable status = iota
	undefined
	isFunction
	isMacro
	isSpecial
)

// callee is what a symbol in function position resolves to.
type callee struct {
	status status
	// cl is set for the operators of COMMON-LISP, whose evaluated arguments are known.
	cl     bool
	name   string // upper case
	lambda *lambdalist.List
	// home is the package the symbol resolved to, nil when not known.
	home *pkg
	// openKeys is set for generic functions: their methods may accept more keywords.
	openKeys bool
	// unknownPkg is the package whose unknown exports made the name unverifiable.
	unknownPkg string
}

// resolveOp resolves a symbol in function position read in package cur (nil when the
// file's package is not in the world).
func (w *world) resolveOp(sym *reader.Form, cur *pkg) callee {
	name := sym.Name
	if sym.Package != "" {
		p := w.lookupPkg(sym.Package, cur)
		if p == nil {
			return callee{status: unverifiable, name: name}
		}
		if ext, known := w.externalIn(p, name); !sym.Internal && known && !ext {
			return callee{status: unverifiable, name: name} // pkg:sym itself is reported
		}
		return w.inPackage(p, name, false, !sym.Internal)
	}
	if cur == nil {
		return w.lenient(name)
	}
	home, unsure := w.accessible(cur, name)
	if home == nil {
		return callee{status: unverifiable, name: name, unknownPkg: unsure}
	}
	c := w.inPackage(home, name, unsure != "", home != cur)
	if c.status == unverifiable {
		c.unknownPkg = unsure
	}
	return c
}

// inPackage resolves name as a symbol of p. unsure means the symbol may be another
// package's whose exports are not known.
func (w *world) inPackage(p *pkg, name string, unsure, external bool) callee {
	switch {
	case p.origin == fromCL:
		return clCallee(name, p)
	case p.builtin != nil:
		c := builtinCallee(p, name)
		if c.status == undefined && !external {
			c.status = unverifiable // an internal symbol of SBCL or ASDF: not listed
		}
		return c
	case p.origin == fromBuiltin:
		return callee{status: unverifiable, name: name, home: p}
	}
	if fd := w.funcs[w.key(p.name, name)]; fd != nil {
		return defCallee(fd, name, p)
	}
	if unsure || p.origin != fromProject || p.exports[name] || p.incomplete && w.unreadDefines(name) || w.mayBeDefined(name) ||
		w.setf[w.key(p.name, name)] || w.includedAccessor(name) {
		return callee{status: unverifiable, name: name, home: p}
	}
	return callee{status: undefined, name: name, home: p}
}

func clCallee(name string, p *pkg) callee {
	s, ok := cltable.Lookup(name)
	c := callee{status: undefined, cl: true, name: name, home: p}
	switch {
	case !ok || !s.Callable():
		return c
	case s.Kind&cltable.SpecialOperator != 0:
		c.status = isSpecial
	case s.Kind&cltable.Macro != 0:
		c.status = isMacro
	default:
		c.status = isFunction
		if l, ok := s.Params(); ok && s.Kind&cltable.Local == 0 {
			c.lambda = l
		}
	}
	return c
}

func builtinCallee(p *pkg, name string) callee {
	s, ok := builtins().symbols[p.builtin][name]
	c := callee{status: undefined, name: name, home: p}
	switch {
	case !ok:
		return c
	case s.Kind == opFunction:
		c.status, c.lambda = isFunction, s.params()
	case s.Kind == opMacro, s.Kind == opSpecial:
		c.status = isMacro
	default:
		c.status = undefined
	}
	return c
}

func defCallee(fd *fdef, name string, p *pkg) callee {
	c := callee{status: isFunction, name: name, home: p, lambda: fd.checked(), openKeys: fd.generic || fd.methods}
	if fd.macro {
		c.status = isMacro
	}
	return c
}

// lenient resolves a name read in a package the world does not have: a CL operator, else
// any definition of the name, else undefined unless something unverifiable could have it.
func (w *world) lenient(name string) callee {
	if s, ok := cltable.Lookup(name); ok && s.Callable() {
		return clCallee(name, w.pkgs["COMMON-LISP"])
	}
	for _, p := range w.pkgs {
		if fd := w.funcs[w.key(p.name, name)]; fd != nil {
			c := defCallee(fd, name, nil)
			c.lambda = nil
			return c
		}
	}
	if w.mayBeDefined(name) || len(w.missing) > 0 {
		return callee{status: unverifiable, name: name}
	}
	return callee{status: undefined, name: name}
}

// qualified returns "PACKAGE:NAME" of the callee's home package, "" when not known.
func (c callee) qualified() string {
	if c.home == nil {
		return ""
	}
	return c.home.name + ":" + c.name
}
