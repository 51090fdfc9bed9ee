package resolve

import (
	"github.com/agentverify/agentverify/lang/commonlisp/index"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// env holds the local functions and macros (flet, labels, macrolet) in scope.
type env struct {
	parent *env
	fns    map[string]bool // name → is a macro
}

func (e *env) lookup(name string) (macro, ok bool) {
	for ; e != nil; e = e.parent {
		if m, ok := e.fns[name]; ok {
			return m, true
		}
	}
	return false, false
}

// walker checks the evaluated forms of one file.
type walker struct {
	w    *world
	file *projectFile
	rep  *reporter
}

// cur returns the package in effect at f.
func (k *walker) cur(f *reader.Form) *pkg {
	name := k.file.ix.PackageAt(f.Span.Start.Offset)
	if k.file.asd && name == index.DefaultPackage {
		name = "ASDF-USER"
	}
	return k.w.pkgs[name]
}

// form walks a form that is evaluated.
func (k *walker) form(f *reader.Form, e *env) {
	switch f.Kind {
	case reader.List:
		k.call(f, e)
	case reader.Function:
		k.fref(f.Items[0], e)
	case reader.Backquote:
		k.template(f.Items[0], 1, e)
	case reader.Label:
		k.form(f.Items[0], e)
	}
}

// forms walks each of fs.
func (k *walker) forms(fs []*reader.Form, e *env) {
	for _, f := range fs {
		k.form(f, e)
	}
}

// template walks the unquoted parts of a backquote template at nesting depth.
func (k *walker) template(f *reader.Form, depth int, e *env) {
	switch f.Kind {
	case reader.Unquote, reader.UnquoteSplice, reader.UnquoteNSplice:
		if depth == 1 {
			k.form(f.Items[0], e)
			return
		}
		k.template(f.Items[0], depth-1, e)
	case reader.Backquote:
		k.template(f.Items[0], depth+1, e)
	case reader.List, reader.Vector:
		for _, x := range f.Items {
			k.template(x, depth, e)
		}
		if f.Tail != nil {
			k.template(f.Tail, depth, e)
		}
	}
}

// call walks a compound form.
func (k *walker) call(f *reader.Form, e *env) {
	if len(f.Items) == 0 || f.Tail != nil {
		return
	}
	head := f.Items[0]
	if head.Kind == reader.List {
		if head.Head().IsSymbol("LAMBDA") {
			k.form(head, e)
			k.forms(f.Items[1:], e)
		}
		return
	}
	if head.Kind != reader.Symbol || head.Package == reader.Keyword || head.IsSymbol("DECLARE") {
		return
	}
	if macro, ok := e.lookup(head.Name); ok && (head.Package == "" || head.Internal) {
		if !macro {
			k.forms(f.Items[1:], e)
		}
		return
	}
	c := k.w.resolveOp(head, k.cur(f))
	if head.Package == "" && (c.status == isFunction || c.status == isMacro) {
		k.deprecatedUse(head, c.home) // pkg:sym is checked wherever it is read
	}
	k.operator(f, c, e)
}

// operator walks a call of a global operator as what it resolved to.
func (k *walker) operator(f *reader.Form, c callee, e *env) {
	switch c.status {
	case isSpecial, isMacro:
		if h := handlers[c.name]; c.cl && h != nil {
			h(k, f, e)
		} else if h := depHandlers[c.qualified()]; h != nil {
			h(k, f, e)
		}
	case isFunction:
		k.checkCall(f, c)
		k.signatureSibling(f, c)
		k.forms(f.Items[1:], e)
	case undefined: // its arguments are not looked into: it may be a macro nobody defined
		k.undefined(f.Items[0], c, false)
	case unverifiable:
		if c.unknownPkg != "" {
			k.unverified(c.unknownPkg, f.Items[0])
		}
	}
}

// fref checks the function name of #'name, or walks #'(lambda …).
func (k *walker) fref(x *reader.Form, e *env) {
	switch {
	case x.Kind == reader.List:
		if x.Head().IsSymbol("LAMBDA") {
			k.form(x, e)
		}
	case x.Kind == reader.Symbol && x.Package != reader.Keyword:
		if _, ok := e.lookup(x.Name); ok {
			return
		}
		c := k.w.resolveOp(x, k.cur(x))
		if c.status == undefined {
			k.undefined(x, c, false)
		}
		if x.Package == "" && c.status == isFunction {
			k.deprecatedUse(x, c.home)
		}
	}
}

// place walks a place of setf and the modify macros: its operator may be a setf
// function or expander only.
func (k *walker) place(f *reader.Form, e *env) {
	head := f.Head()
	if f.Kind != reader.List || head == nil || head.Kind != reader.Symbol || f.Tail != nil {
		k.form(f, e)
		return
	}
	if _, ok := e.lookup(head.Name); ok {
		k.forms(f.Items[1:], e)
		return
	}
	c := k.w.resolveOp(head, k.cur(f))
	switch {
	case c.status == undefined && c.home != nil && k.w.setf[k.w.key(c.home.name, c.name)]:
		k.forms(f.Items[1:], e)
	case c.status == undefined:
		k.undefined(head, c, true)
		k.forms(f.Items[1:], e)
	case c.status == isFunction || c.cl:
		if h := handlers[c.name]; c.cl && h != nil {
			h(k, f, e)
			return
		}
		k.forms(f.Items[1:], e)
	}
}

// lambdaList walks the init forms of a lambda list: those of the parameters after the
// first lambda-list keyword (required parameters have none; a specialised one's
// (var class) is no form).
func (k *walker) lambdaList(ll *reader.Form, e *env) {
	if ll == nil || ll.Kind != reader.List {
		return
	}
	inits := false
	for _, p := range ll.Items {
		switch {
		case p.Kind == reader.Symbol && len(p.Name) > 0 && p.Name[0] == '&':
			inits = true
		case inits && p.Kind == reader.List && len(p.Items) > 1:
			k.form(p.Items[1], e)
		}
	}
}
