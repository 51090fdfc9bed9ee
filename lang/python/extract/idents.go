package extract

import (
	"sort"
	"strings"
	"unicode"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/signature"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// scopeKind is what a scope's bindings are: module globals, class attributes or
// function locals.
type scopeKind int

const (
	moduleScope scopeKind = iota
	classScope
	functionScope
)

// scope is one namespace during the identifier walk.
type scope struct {
	kind scopeKind
	// keys is set in the body of a TypedDict, whose field names are the keys of data
	// the code does not define (JSON, a wire format): not the author's to name.
	keys bool
	seen map[string]bool // names bound already: the first binding declares
	skip map[string]bool // names declared global or nonlocal: bound elsewhere
}

func newScope(kind scopeKind, body *syntax.Node, src []byte) *scope {
	return &scope{kind: kind, seen: map[string]bool{}, skip: outerNames(body, src)}
}

// idents lists the identifiers the file declares, in source order.
func (x *extractor) idents(root *syntax.Node) {
	x.walkScope(root, newScope(moduleScope, nil, x.src))
	sort.SliceStable(x.lf.Idents, func(i, j int) bool {
		a, b := x.lf.Idents[i].Pos, x.lf.Idents[j].Pos
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
}

// identRule handles one node kind during the identifier walk.
type identRule func(x *extractor, n *syntax.Node, sc *scope)

var identRules map[string]identRule

func init() {
	identRules = map[string]identRule{
		"function_definition":  (*extractor).defIdents,
		"decorated_definition": (*extractor).decoratedIdents,
		"class_definition":     (*extractor).classIdents,
		"lambda":               (*extractor).lambdaIdents,
		"assignment":           (*extractor).assignIdents,
		"for_statement":        (*extractor).loopIdents,
		"for_in_clause":        (*extractor).loopIdents,
		"as_pattern_target":    (*extractor).targetIdents,
		"named_expression":     (*extractor).walrusIdents,
	}
}

// walkScope walks the children of n in scope sc.
func (x *extractor) walkScope(n *syntax.Node, sc *scope) {
	if n == nil {
		return
	}
	for _, c := range n.Children {
		x.visitIdent(c, sc)
	}
}

func (x *extractor) visitIdent(n *syntax.Node, sc *scope) {
	if n == nil {
		return
	}
	if rule := identRules[n.Kind]; rule != nil {
		rule(x, n, sc)
		return
	}
	x.walkScope(n, sc)
}

func (x *extractor) decoratedIdents(n *syntax.Node, sc *scope) {
	def := n.Child("definition")
	if def == nil {
		x.walkScope(n, sc)
		return
	}
	if def.Kind == "function_definition" {
		_, decs := syntax.Unwrap(n)
		x.funcIdents(def, sc, syntax.HasDecorator(decs, x.src, "override"))
		return
	}
	x.visitIdent(def, sc)
}

func (x *extractor) defIdents(n *syntax.Node, sc *scope) { x.funcIdents(n, sc, false) }

// funcIdents declares a function's name in sc, its parameters and its locals.
func (x *extractor) funcIdents(def *syntax.Node, sc *scope, override bool) {
	kind := lang.IdentFunc
	if sc.kind == classScope {
		kind = lang.IdentMethod
	}
	if id := def.Child("name"); id != nil && !override && !externalName(id.Text(x.src)) {
		x.ident(id, kind)
	}
	inner := newScope(functionScope, def.Child("body"), x.src)
	bound := boundGlobals(def.Child("parameters"), x.src)
	for _, p := range signature.ParamNames(def.Child("parameters")) {
		x.param(p, inner, bound)
	}
	x.walkScope(def.Child("body"), inner)
}

// boundGlobals are the parameters whose default is the name itself (ValueError=ValueError,
// len=len): the idiom that makes a global a fast local, whose name is the global's.
func boundGlobals(ps *syntax.Node, src []byte) map[string]bool {
	out := map[string]bool{}
	if ps == nil {
		return out
	}
	for _, p := range ps.NamedChildren() {
		if p.Kind != "default_parameter" && p.Kind != "typed_default_parameter" {
			continue
		}
		id, v := p.Child("name"), p.Child("value")
		if id != nil && v != nil && v.Kind == "identifier" && v.Text(src) == id.Text(src) {
			out[id.Text(src)] = true
		}
	}
	return out
}

func (x *extractor) classIdents(def *syntax.Node, sc *scope) {
	if id := def.Child("name"); id != nil {
		x.ident(id, lang.IdentType)
	}
	inner := newScope(classScope, nil, x.src)
	inner.keys = hasBase(def.Child("superclasses"), x.src, "TypedDict")
	x.walkScope(def.Child("body"), inner)
}

func (x *extractor) lambdaIdents(n *syntax.Node, sc *scope) {
	inner := newScope(functionScope, nil, x.src)
	bound := boundGlobals(n.Child("parameters"), x.src)
	for _, p := range signature.ParamNames(n.Child("parameters")) {
		x.param(p, inner, bound)
	}
	x.visitIdent(n.Child("body"), inner)
}

func (x *extractor) assignIdents(n *syntax.Node, sc *scope) {
	for _, id := range targets(n.Child("left")) {
		x.bind(id, sc)
	}
	x.visitIdent(n.Child("right"), sc)
}

// loopIdents binds a for loop's or a comprehension's targets and walks the rest.
func (x *extractor) loopIdents(n *syntax.Node, sc *scope) {
	for _, c := range n.Children {
		if c.Field == "left" {
			for _, id := range targets(c) {
				x.bind(id, sc)
			}
			continue
		}
		x.visitIdent(c, sc)
	}
}

// targetIdents binds the name after "as" in with, except and case.
func (x *extractor) targetIdents(n *syntax.Node, sc *scope) {
	for _, id := range targets(n) {
		x.bind(id, sc)
	}
}

func (x *extractor) walrusIdents(n *syntax.Node, sc *scope) {
	if n == nil {
		return
	}
	if id := n.Child("name"); id != nil && id.Kind == "identifier" {
		x.bind(id, sc)
	}
	x.visitIdent(n.Child("value"), sc)
}

// bind declares the first binding of a name in sc.
func (x *extractor) bind(id *syntax.Node, sc *scope) {
	name := id.Text(x.src)
	if sc.skip[name] || sc.seen[name] {
		return
	}
	sc.seen[name] = true
	if sc.keys {
		return
	}
	x.ident(id, bindingKind(sc.kind, name))
}

// param declares a parameter of a function or lambda whose scope is sc, unless it binds
// a global of its name (bound).
func (x *extractor) param(id *syntax.Node, sc *scope, bound map[string]bool) {
	sc.seen[id.Text(x.src)] = true
	if bound[id.Text(x.src)] {
		return
	}
	x.ident(id, lang.IdentParam)
}

// bindingKind classifies a bound name by PEP 8: UPPER_CASE is a constant, CapWords a
// class or type alias (TypeVar, NewType, a class factory's result), anything else a
// variable, or a field in a class body.
func bindingKind(k scopeKind, name string) lang.IdentKind {
	switch {
	case isUpperCase(name):
		return lang.IdentConst
	case isCapWords(name):
		return lang.IdentType
	case k == classScope:
		return lang.IdentField
	}
	return lang.IdentVar
}

func (x *extractor) ident(id *syntax.Node, kind lang.IdentKind) {
	name := id.Text(x.src)
	if name == "" || name == "_" || syntax.IsDunder(name) {
		return
	}
	x.lf.Idents = append(x.lf.Idents, lang.Ident{Name: name, Kind: kind, Pos: id.Pos})
}

// outerNames returns the names a function body declares global or nonlocal.
func outerNames(body *syntax.Node, src []byte) map[string]bool {
	out := map[string]bool{}
	body.Walk(func(n *syntax.Node) bool {
		if n.Kind == "global_statement" || n.Kind == "nonlocal_statement" {
			for _, id := range n.NamedChildren() {
				out[id.Text(src)] = true
			}
		}
		return true
	})
	return out
}

// unittestNames are the camelCase method names unittest and Django define for
// overriding (ruff's and pep8-naming's default ignore list).
var unittestNames = map[string]bool{
	"setUp": true, "tearDown": true, "setUpClass": true, "tearDownClass": true,
	"setUpModule": true, "tearDownModule": true, "asyncSetUp": true, "asyncTearDown": true,
	"setUpTestData": true, "failureException": true, "longMessage": true, "maxDiff": true,
}

// externalName reports whether a function's name is dictated by an API the code
// implements: unittest's hooks, ast.NodeVisitor's visit_Name and libcst's leave_Name,
// docutils' depart_Name, http.server's do_GET.
func externalName(name string) bool {
	if unittestNames[name] {
		return true
	}
	for _, prefix := range []string{"visit_", "leave_", "depart_"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok && rest != "" && unicode.IsUpper([]rune(rest)[0]) {
			return true
		}
	}
	rest, ok := strings.CutPrefix(name, "do_")
	return ok && rest != "" && isUpperCase(rest)
}
