package resolve

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
	"github.com/agentverify/agentverify/lazyregexp"
)

// A package whose __init__ defines a module-level __getattr__ (click's, for deprecated
// names, typed `-> object`) makes pyright answer every attribute it does not know with
// that function's return type, submodules included: `click._termui_impl._PagerWriter` is
// then "not an attribute of object", although _termui_impl is a submodule (bound on the
// package once anything imports it) that defines _PagerWriter. An attribute whose receiver
// is a dotted name that resolves to a real module is judged against that module's
// namespace instead (namespace.go): kept, as unknown-symbol with the module's names, when
// the module does not have it; dropped when it does or builds its namespace at run time.

// receiverChain matches the dotted name right before an attribute: "click._termui_impl."
var receiverChain = lazyregexp.New(`([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*\.\s*$`)

// hiddenSubmodule judges an unknown-member problem whose receiver is a module: ok is set
// when it is, and keep (with p rewritten) when the module really lacks the member.
func (j *job) hiddenSubmodule(t *target, p *lang.Problem) (ok, keep bool) {
	if p.Kind != lang.UnknownMember || t == nil || t.idx == nil {
		return false, false
	}
	module := t.moduleBefore(p.Location)
	if module == "" || !strings.Contains(module, ".") || !j.isModule(module) {
		return false, false
	}
	attr := syntax.LastName(p.Symbol)
	ns := j.namespaceOf(module)
	if ns == nil || ns.has(attr) {
		return true, false
	}
	p.Kind, p.Symbol = lang.UnknownSymbol, module+"."+attr
	p.Message = fmt.Sprintf("%s is not a member of module %s", attr, module)
	p.Suggestion = didYouMean(closest(attr, ns.public()))
	return true, true
}

// moduleBefore returns the module that the dotted name before the attribute at loc names
// through the file's imports ("click._termui_impl" for click._termui_impl.X after
// `import click`), or "".
func (t *target) moduleBefore(loc lang.Location) string {
	if loc.Line < 1 || loc.Line > len(t.lf.Lines) {
		return ""
	}
	line := t.lf.Lines[loc.Line-1]
	m := receiverChain.FindStringSubmatch(line[:max(min(loc.Column-1, len(line)), 0)])
	if m == nil {
		return ""
	}
	chain := strings.Join(strings.Fields(strings.ReplaceAll(m[1], ".", " ")), ".")
	head, _, _ := strings.Cut(chain, ".")
	if _, ok := t.idx.modules[head]; !ok {
		return ""
	}
	return t.idx.qualified(chain)
}
