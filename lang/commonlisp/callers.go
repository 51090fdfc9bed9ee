package commonlisp

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/index"
	"github.com/agentverify/agentverify/lang/commonlisp/lambdalist"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// Broken callers (design.md §4). BrokenUses reads every Lisp file of the head that the
// change does not touch and reports, for the API changes the semantics dimension kept:
//
//   - pkg:sym (anywhere, quoted data included: the reader itself fails) where sym is no
//     longer external in pkg, or pkg is a package no defpackage defines any more;
//   - an unqualified call or #'sym, in a package that :use's the changed one, of a symbol
//     it no longer exports (the name now means an undefined function of the caller's
//     own package);
//   - a call of, or #' to, an exported function whose definition the change removed;
//   - a call of a function whose lambda list changed, written pkg:sym or unqualified in a
//     package that is, :use's or imports the changed one, that passes a number of
//     arguments or a keyword the new lambda list rejects and the old one accepted.
//
// Calls are found in evaluated code: quoted and backquoted data, lambda lists, the
// binding lists of let, flet and their kind, case keys and declarations are not calls.
// A macro's arguments are walked as code, as they are in most macros.

// BrokenUses reports the callers in the files outside the change that the changes break
// (lang.APIComparer).
func (fe *Frontend) BrokenUses(req *lang.Request, changes []lang.APIChange) ([]lang.BrokenUse, error) {
	if len(changes) == 0 {
		return nil, nil
	}
	base, err := fe.projectFor(req, change.Base)
	if err != nil {
		return nil, err
	}
	head, err := fe.projectFor(req, change.Head)
	if err != nil {
		return nil, err
	}
	c := newChecker(base, head, changes)
	var out []lang.BrokenUse
	for _, path := range head.paths() {
		if req.Changes.File(path) != nil {
			continue
		}
		if err := ctxErr(req); err != nil {
			return nil, err
		}
		out = append(out, c.file(head.files[path])...)
	}
	return out, nil
}

// changed is one API change with what a caller check needs.
type changed struct {
	api        lang.APIChange
	base, head *lambdalist.List // for a lambda-list change
}

type checker struct {
	head *project
	// removedPkgs and removed hold the removed packages and exports ("PKG" and
	// "PKG:NAME", upper case, canonical); lambda the changed lambda lists.
	removedPkgs map[string]lang.APIChange
	removed     map[string]lang.APIChange
	lambda      map[string]changed
	// undefined holds the exported functions whose definition the change removed.
	undefined map[string]lang.APIChange
}

func newChecker(base, head *project, changes []lang.APIChange) *checker {
	c := &checker{head: head, removedPkgs: map[string]lang.APIChange{}, removed: map[string]lang.APIChange{},
		lambda: map[string]changed{}, undefined: map[string]lang.APIChange{}}
	var was, now map[string]callable
	for _, ch := range changes {
		pkg, name := strings.ToUpper(ch.Package), strings.ToUpper(ch.Name)
		switch {
		case strings.HasPrefix(ch.Subject, "package "):
			c.removedPkgs[pkg] = ch
			if bp := base.packages[pkg]; bp != nil {
				for _, n := range bp.Nicknames {
					c.removedPkgs[n] = ch
				}
			}
		case ch.Removed && strings.HasPrefix(ch.Detail, "definition removed"):
			c.undefined[pkg+":"+name] = ch
		case ch.Removed:
			c.removed[pkg+":"+name] = ch
		default:
			if was == nil {
				was, now = base.callables(base.paths()), head.callables(head.paths())
			}
			b, h := was[pkg+":"+name], now[pkg+":"+name]
			if b.def.Lambda != nil && h.def.Lambda != nil {
				c.lambda[pkg+":"+name] = changed{api: ch, base: b.def.Lambda, head: h.def.Lambda}
			}
		}
	}
	return c
}

// fileCheck is the check of one file.
type fileCheck struct {
	*checker
	pf  *projFile
	out []lang.BrokenUse
}

func (c *checker) file(pf *projFile) []lang.BrokenUse {
	fc := &fileCheck{checker: c, pf: pf}
	for _, f := range pf.rf.Forms {
		fc.symbols(f)
		fc.code(f)
	}
	return fc.out
}

func (fc *fileCheck) report(at reader.Pos, ch lang.APIChange, msg string) {
	pkg := fc.pf.ix.PackageAt(at.Offset)
	fc.out = append(fc.out, lang.BrokenUse{
		Package: lower(pkg), Dir: dirOf(fc.pf.path),
		At:      lang.Place{File: fc.pf.path, Pos: pos(at)},
		Message: msg, Change: ch,
	})
}

// symbols reports every pkg:sym in f that names a removed export or package.
func (fc *fileCheck) symbols(f *reader.Form) {
	if f == nil {
		return
	}
	if f.Kind == reader.Symbol && f.Package != "" && f.Package != reader.Keyword && !f.Uninterned {
		pkg := fc.head.canonical(f.Package)
		if ch, ok := fc.removedPkgs[f.Package]; ok {
			fc.report(f.Span.Start, ch, fmt.Sprintf("%s: package %s does not exist any more", fc.written(f), lower(f.Package)))
		} else if ch, ok := fc.removed[pkg+":"+f.Name]; ok && !f.Internal {
			fc.report(f.Span.Start, ch, fmt.Sprintf("%s: symbol %s is no longer external in package %s", fc.written(f), lower(f.Name), lower(pkg)))
		}
	}
	for _, it := range f.Items {
		fc.symbols(it)
	}
	if f.Tail != nil {
		fc.symbols(f.Tail)
	}
}

func (fc *fileCheck) written(f *reader.Form) string { return text(fc.pf.src, f.Span) }

// resolve returns the canonical "PKG:NAME" keys that the function-position symbol s can
// mean for the changes: written with a package prefix, that package's; unqualified, the
// current package's own, or one it uses or imports from.
func (fc *fileCheck) resolve(s *reader.Form) (own string, inherited []string) {
	if s.Package != "" {
		return fc.head.canonical(s.Package) + ":" + s.Name, nil
	}
	cur := fc.head.canonical(fc.pf.ix.PackageAt(s.Span.Start.Offset))
	own = cur + ":" + s.Name
	pp := fc.head.packages[cur]
	if pp == nil {
		return own, nil
	}
	for _, sh := range pp.Shadow {
		if sh == s.Name {
			return own, nil
		}
	}
	for _, im := range append(append([]index.Import(nil), pp.ImportFrom...), pp.ShadowingImportFrom...) {
		for _, sym := range im.Symbols {
			if sym.Name == s.Name {
				return fc.head.canonical(im.Package) + ":" + s.Name, nil
			}
		}
	}
	for _, u := range pp.Use {
		inherited = append(inherited, fc.head.canonical(u)+":"+s.Name)
	}
	return own, inherited
}

// ref checks a reference to the function named by symbol s, called with args (nil for
// #'s).
func (fc *fileCheck) ref(s *reader.Form, call *reader.Form) {
	if s.Kind != reader.Symbol || s.Package == reader.Keyword || s.Uninterned {
		return
	}
	if _, local := fc.pf.ix.LocalAt(s.Name, s.Span.Start.Offset); local && s.Package == "" {
		return // a flet, labels or macrolet function of the same name
	}
	own, inherited := fc.resolve(s)
	for _, k := range inherited {
		if ch, ok := fc.removed[k]; ok {
			fc.report(s.Span.Start, ch, fmt.Sprintf("%s is no longer exported by %s: it now names an undefined function", fc.written(s), lower(ch.Package)))
			return
		}
	}
	for _, k := range append([]string{own}, inherited...) {
		if ch, ok := fc.undefined[k]; ok {
			fc.report(s.Span.Start, ch, fmt.Sprintf("%s names a function the change no longer defines", fc.written(s)))
			return
		}
	}
	if call == nil {
		return
	}
	for _, k := range append([]string{own}, inherited...) {
		if ch, ok := fc.lambda[k]; ok {
			if msg := callProblem(call, ch); msg != "" {
				fc.report(call.Span.Start, ch.api, msg)
			}
			return
		}
	}
}

// callProblem says how the new lambda list rejects call when the old one accepted it.
func callProblem(call *reader.Form, ch changed) string {
	args := call.Items[1:]
	name := strings.ToLower(call.Items[0].Name)
	if !ch.head.Accepts(len(args)) && ch.base.Accepts(len(args)) {
		return fmt.Sprintf("(%s …) passes %d argument%s; the lambda list is now %s (%s)", name, len(args), plural(len(args)), ch.head, arity(ch.head))
	}
	n := len(ch.head.Required) + len(ch.head.Optional)
	if !ch.head.HasKey || ch.head.AllowOtherKeys || len(args) <= n {
		return ""
	}
	for i := n; i+1 < len(args); i += 2 {
		k := args[i]
		if k.Kind == reader.Symbol && k.Package == reader.Keyword && !ch.head.HasKeyword(k.Name) && ch.base.HasKeyword(k.Name) {
			return fmt.Sprintf("(%s …) passes the keyword :%s; the lambda list is now %s", name, strings.ToLower(k.Name), ch.head)
		}
	}
	return ""
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// arity says how many arguments a lambda list takes.
func arity(l *lambdalist.List) string {
	switch lo, hi := l.Min(), l.Max(); {
	case hi < 0:
		return fmt.Sprintf("at least %d", lo)
	case lo == hi:
		return fmt.Sprintf("exactly %d", lo)
	default:
		return fmt.Sprintf("%d to %d", lo, hi)
	}
}

// bindingOps are the operators whose first argument binds variables: (op (bindings) body).
var bindingOps = map[string]bool{"LET": true, "LET*": true, "DESTRUCTURING-BIND": true,
	"MULTIPLE-VALUE-BIND": true, "SYMBOL-MACROLET": true, "PROG": true, "PROG*": true, "DO": true, "DO*": true}

// code walks the evaluated code of f, checking the function references it makes.
func (fc *fileCheck) code(f *reader.Form) {
	switch {
	case f == nil:
		return
	case f.Kind == reader.Function && len(f.Items) == 1:
		fc.ref(f.Items[0], nil)
		return
	case f.Kind != reader.List || len(f.Items) == 0:
		return // atoms, quoted and backquoted data
	}
	h := f.Items[0]
	if h.Kind != reader.Symbol {
		fc.codes(f.Items) // ((lambda …) …)
		return
	}
	op := ""
	if h.Package == "" || h.Package == "CL" || h.Package == "COMMON-LISP" {
		op = h.Name
	}
	if walk, ok := specialWalks[op]; ok {
		walk(fc, f)
		return
	}
	if strings.HasSuffix(op, "CASE") && op != "HANDLER-CASE" && op != "RESTART-CASE" {
		fc.caseForm(f)
		return
	}
	fc.ref(h, f)
	fc.codes(f.Items[1:])
}

// specialWalks walk the operators whose arguments are not all code.
var specialWalks map[string]func(*fileCheck, *reader.Form)

func init() {
	skip := func(*fileCheck, *reader.Form) {}
	from := func(i int) func(*fileCheck, *reader.Form) {
		return func(fc *fileCheck, f *reader.Form) { fc.codes(f.Items[min(i, len(f.Items)):]) }
	}
	specialWalks = map[string]func(*fileCheck, *reader.Form){
		"QUOTE": skip, "DECLARE": skip, "DEFGENERIC": skip, "DEFSTRUCT": skip, "DEFCLASS": skip,
		"DEFINE-CONDITION": skip, "DEFTYPE": skip,
		"FUNCTION": func(fc *fileCheck, f *reader.Form) {
			if len(f.Items) == 2 {
				fc.ref(f.Items[1], nil)
			}
		},
		"LAMBDA": from(2), "DEFUN": from(3), "DEFMACRO": from(3), "DEFINE-COMPILER-MACRO": from(3),
		"DEFMETHOD": func(fc *fileCheck, f *reader.Form) { fc.codes(methodBody(f)) },
		"FLET":      (*fileCheck).localFunctions, "LABELS": (*fileCheck).localFunctions, "MACROLET": (*fileCheck).localFunctions,
	}
	for op := range bindingOps {
		specialWalks[op] = func(fc *fileCheck, f *reader.Form) {
			if len(f.Items) > 1 {
				fc.bindings(f.Items[1])
			}
			fc.codes(f.Items[min(2, len(f.Items)):])
		}
	}
}

// localFunctions walks flet, labels and macrolet: the bodies of the definitions, then
// the body.
func (fc *fileCheck) localFunctions(f *reader.Form) {
	if len(f.Items) > 1 && f.Items[1].Kind == reader.List {
		for _, d := range f.Items[1].Items {
			if d.Kind == reader.List && len(d.Items) > 2 {
				fc.codes(d.Items[2:])
			}
		}
	}
	fc.codes(f.Items[min(2, len(f.Items)):])
}

// caseForm walks a form of the case and typecase families: the key form and the clause
// bodies, not the clause keys.
func (fc *fileCheck) caseForm(f *reader.Form) {
	if len(f.Items) < 2 {
		return
	}
	fc.code(f.Items[1])
	for _, cl := range f.Items[2:] {
		if cl.Kind == reader.List && len(cl.Items) > 0 {
			fc.codes(cl.Items[1:])
		}
	}
}

func (fc *fileCheck) codes(fs []*reader.Form) {
	for _, f := range fs {
		fc.code(f)
	}
}

// bindings walks the init forms of a binding list: (var (var init) …).
func (fc *fileCheck) bindings(b *reader.Form) {
	if b.Kind != reader.List {
		return
	}
	for _, x := range b.Items {
		if x.Kind == reader.List && len(x.Items) > 1 {
			fc.codes(x.Items[1:])
		}
	}
}

// methodBody returns the body of a defmethod: what follows its specialised lambda list
// (the first list after the name and qualifiers).
func methodBody(f *reader.Form) []*reader.Form {
	for i := 2; i < len(f.Items); i++ {
		if f.Items[i].Kind == reader.List {
			return f.Items[i+1:]
		}
	}
	return nil
}
