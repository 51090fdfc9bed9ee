package resolve

import (
	"fmt"
	"strings"
	"sync"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// deprecatedBuiltin is an external symbol of a listed package that SBCL or ASDF declares
// deprecated (gen.lisp reads SBCL's deprecation declarations and ASDF's
// uiop:with-deprecation): its package, name, what it names, the deprecation's state
// (early: a style-warning when a use is compiled; late: a full warning; final: an error
// when called), who deprecated it since when, and the replacements they name.
type deprecatedBuiltin struct {
	Package, Name, Kind, State, Since string
	Replacements                      []string
}

var deprecations = sync.OnceValue(func() map[string]*deprecatedBuiltin {
	m := make(map[string]*deprecatedBuiltin, len(deprecatedBuiltins))
	for i := range deprecatedBuiltins {
		d := &deprecatedBuiltins[i]
		m[d.Package+":"+d.Name] = d
	}
	return m
})

// stateNote says what SBCL does with a use in each state of a deprecation.
var stateNote = map[string]string{
	"early": "compiling a use signals a style-warning",
	"late":  "compiling a use signals a full warning",
	"final": "calling it signals an error",
}

// deprecatedUse reports sym, which names the external symbol name of the builtin package
// p, when SBCL or ASDF declares it deprecated, with its replacement (and the rename as
// fix when there is one replacement taking the same arguments, in the same package).
func (k *walker) deprecatedUse(sym *reader.Form, p *pkg) {
	if p == nil || p.builtin == nil {
		return
	}
	d := deprecations()[p.builtin.Name+":"+sym.Name]
	if d == nil {
		return
	}
	since := ""
	if d.Since != "" && d.Since != "ASDF" {
		since = " since " + d.Since
	}
	by := "SBCL"
	if d.Since == "ASDF" {
		by = "ASDF"
	}
	msg := fmt.Sprintf("%s is deprecated%s (%s declares it: %s)", written(sym), since, by, stateNote[d.State])
	suggestion := "use what its documentation names instead"
	if len(d.Replacements) > 0 {
		suggestion = "use " + orList(lowered(d.Replacements)) + " instead"
	}
	k.rep.add(lang.Deprecated, sym.Span, written(sym), msg, suggestion)
	if len(d.Replacements) == 1 {
		k.rep.replace(sym.Span, renamed(sym, p, d))
	}
}

// renamed is sym written with the one replacement of d, "" when that is not a safe
// edit: another package than sym's (it may not be accessible the same way), or another
// lambda list.
func renamed(sym *reader.Form, p *pkg, d *deprecatedBuiltin) string {
	pkgName, name, ok := strings.Cut(d.Replacements[0], ":")
	if !ok || builtins().byName[pkgName] != p.builtin {
		return ""
	}
	old, repl := builtins().symbols[p.builtin][d.Name], builtins().symbols[p.builtin][name]
	if old == nil || repl == nil || old.Kind != repl.Kind || old.LambdaList != repl.LambdaList {
		return ""
	}
	lname := strings.ToLower(name)
	if sym.Package == "" {
		return lname
	}
	return strings.ToLower(sym.Package) + ":" + lname
}
