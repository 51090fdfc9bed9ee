package python

import (
	"sort"
	"strings"
	"unicode"

	"github.com/agentverify/agentverify/lang"
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

func newScope(kind scopeKind, body *node, src []byte) *scope {
	return &scope{kind: kind, seen: map[string]bool{}, skip: outerNames(body, src)}
}

// idents lists the identifiers the file declares, in source order.
func (x *extractor) idents(root *node) {
	x.walkScope(root, newScope(moduleScope, nil, x.src))
	sort.SliceStable(x.lf.Idents, func(i, j int) bool {
		a, b := x.lf.Idents[i].Pos, x.lf.Idents[j].Pos
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
}

// identRule handles one node kind during the identifier walk.
type identRule func(x *extractor, n *node, sc *scope)

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
func (x *extractor) walkScope(n *node, sc *scope) {
	if n == nil {
		return
	}
	for _, c := range n.children {
		x.visitIdent(c, sc)
	}
}

func (x *extractor) visitIdent(n *node, sc *scope) {
	if n == nil {
		return
	}
	if rule := identRules[n.kind]; rule != nil {
		rule(x, n, sc)
		return
	}
	x.walkScope(n, sc)
}

func (x *extractor) decoratedIdents(n *node, sc *scope) {
	def := n.child("definition")
	if def == nil {
		x.walkScope(n, sc)
		return
	}
	if def.kind == "function_definition" {
		_, decs := unwrap(n)
		x.funcIdents(def, sc, hasDecorator(decs, x.src, "override"))
		return
	}
	x.visitIdent(def, sc)
}

func (x *extractor) defIdents(n *node, sc *scope) { x.funcIdents(n, sc, false) }

// funcIdents declares a function's name in sc, its parameters and its locals.
func (x *extractor) funcIdents(def *node, sc *scope, override bool) {
	kind := lang.IdentFunc
	if sc.kind == classScope {
		kind = lang.IdentMethod
	}
	if id := def.child("name"); id != nil && !override && !externalName(id.text(x.src)) {
		x.ident(id, kind)
	}
	inner := newScope(functionScope, def.child("body"), x.src)
	bound := boundGlobals(def.child("parameters"), x.src)
	for _, p := range paramNames(def.child("parameters")) {
		x.param(p, inner, bound)
	}
	x.walkScope(def.child("body"), inner)
}

// boundGlobals are the parameters whose default is the name itself (ValueError=ValueError,
// len=len): the idiom that makes a global a fast local, whose name is the global's.
func boundGlobals(ps *node, src []byte) map[string]bool {
	out := map[string]bool{}
	if ps == nil {
		return out
	}
	for _, p := range ps.namedChildren() {
		if p.kind != "default_parameter" && p.kind != "typed_default_parameter" {
			continue
		}
		id, v := p.child("name"), p.child("value")
		if id != nil && v != nil && v.kind == "identifier" && v.text(src) == id.text(src) {
			out[id.text(src)] = true
		}
	}
	return out
}

func (x *extractor) classIdents(def *node, sc *scope) {
	if id := def.child("name"); id != nil {
		x.ident(id, lang.IdentType)
	}
	inner := newScope(classScope, nil, x.src)
	inner.keys = hasBase(def.child("superclasses"), x.src, "TypedDict")
	x.walkScope(def.child("body"), inner)
}

func (x *extractor) lambdaIdents(n *node, sc *scope) {
	inner := newScope(functionScope, nil, x.src)
	bound := boundGlobals(n.child("parameters"), x.src)
	for _, p := range paramNames(n.child("parameters")) {
		x.param(p, inner, bound)
	}
	x.visitIdent(n.child("body"), inner)
}

func (x *extractor) assignIdents(n *node, sc *scope) {
	for _, id := range targets(n.child("left")) {
		x.bind(id, sc)
	}
	x.visitIdent(n.child("right"), sc)
}

// loopIdents binds a for loop's or a comprehension's targets and walks the rest.
func (x *extractor) loopIdents(n *node, sc *scope) {
	for _, c := range n.children {
		if c.field == "left" {
			for _, id := range targets(c) {
				x.bind(id, sc)
			}
			continue
		}
		x.visitIdent(c, sc)
	}
}

// targetIdents binds the name after "as" in with, except and case.
func (x *extractor) targetIdents(n *node, sc *scope) {
	for _, id := range targets(n) {
		x.bind(id, sc)
	}
}

func (x *extractor) walrusIdents(n *node, sc *scope) {
	if n == nil {
		return
	}
	if id := n.child("name"); id != nil && id.kind == "identifier" {
		x.bind(id, sc)
	}
	x.visitIdent(n.child("value"), sc)
}

// bind declares the first binding of a name in sc.
func (x *extractor) bind(id *node, sc *scope) {
	name := id.text(x.src)
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
func (x *extractor) param(id *node, sc *scope, bound map[string]bool) {
	sc.seen[id.text(x.src)] = true
	if bound[id.text(x.src)] {
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

func (x *extractor) ident(id *node, kind lang.IdentKind) {
	name := id.text(x.src)
	if name == "" || name == "_" || isDunder(name) {
		return
	}
	x.lf.Idents = append(x.lf.Idents, lang.Ident{Name: name, Kind: kind, Pos: id.pos})
}

// outerNames returns the names a function body declares global or nonlocal.
func outerNames(body *node, src []byte) map[string]bool {
	out := map[string]bool{}
	body.walk(func(n *node) bool {
		if n.kind == "global_statement" || n.kind == "nonlocal_statement" {
			for _, id := range n.namedChildren() {
				out[id.text(src)] = true
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
