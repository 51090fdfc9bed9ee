package resolve

import (
	"github.com/agentverify/agentverify/lang/python/signature"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// A module-level __getattr__ (PEP 562), or that of the class whose instance replaces the
// module in sys.modules, makes pyright accept any name. When its body only answers names
// it lists — a lookup in a literal mapping or collection, a comparison with literals —
// and raises for every other name, those names are the module's lazy members; anything
// else it does (import_module(name), getattr(other, name), a default) cannot be listed.

// getattrNames returns the names fn answers, ok false when they cannot be listed.
func (c *nsCollector) getattrNames(fn *syntax.Node) ([]string, bool) {
	params := signature.ParamNames(fn.Child("parameters"))
	if len(params) == 0 {
		return nil, false
	}
	p := params[len(params)-1].Text(c.src) // (name) or (self, name)
	body := fn.Child("body")
	if body == nil {
		return nil, false
	}
	stmts := body.NamedChildren()
	if len(stmts) == 0 {
		return nil, false
	}
	a := &getattrAnalysis{c: c, param: p, guards: map[string][]string{}}
	last := stmts[len(stmts)-1]
	if last.Kind != "raise_statement" && last.Kind != "return_statement" {
		return nil, false // falls through: an unknown name gets None
	}
	if last.Kind == "return_statement" {
		names, ok := a.known(first(last.NamedChildren()))
		if !ok {
			return nil, false // whatever it returns
		}
		a.names = append(a.names, names...)
	}
	if !a.statements(stmts, false) {
		return nil, false
	}
	return a.names, true
}

func first(ns []*syntax.Node) *syntax.Node {
	if len(ns) == 0 {
		return nil
	}
	return ns[0]
}

// getattrAnalysis follows one __getattr__ body: param is the name parameter, guards the
// variables that hold the result of a known lookup (info = LEXERS.get(name)) with the
// names it may succeed for; names are the names a return answers.
type getattrAnalysis struct {
	c      *nsCollector
	param  string
	guards map[string][]string
	names  []string
}

// statements checks stmts: outside a branch a known test guards (guarded false), a
// return must return a known lookup; inside one, anything goes.
func (a *getattrAnalysis) statements(stmts []*syntax.Node, guarded bool) bool {
	for _, s := range stmts {
		if !a.statement(s, guarded) {
			return false
		}
	}
	return true
}

func (a *getattrAnalysis) statement(s *syntax.Node, guarded bool) bool {
	switch s.Kind {
	case "if_statement", "elif_clause":
		return a.ifStatement(s, guarded)
	case "try_statement":
		return a.tryStatement(s, guarded)
	case "else_clause", "except_clause", "finally_clause", "with_statement", "block":
		for _, ch := range s.Children {
			if ch.Named && !a.statement(ch, guarded) {
				return false
			}
		}
	case "expression_statement":
		if as := s.FirstOfKind("assignment"); as != nil && as.Child("left").Kind == "identifier" {
			if names, ok := a.known(as.Child("right")); ok {
				a.guards[as.Child("left").Text(a.c.src)] = names
			}
		}
	case "return_statement":
		if guarded {
			return true
		}
		names, ok := a.known(first(s.NamedChildren()))
		a.names = append(a.names, names...)
		return ok
	case "for_statement", "while_statement", "function_definition", "class_definition", "decorated_definition":
		return guarded || !containsReturn(s)
	}
	return true
}

// ifStatement checks an if (or elif): its body is guarded when its test is known (whose
// names it answers when the body returns), its other branches only as much as the
// statement is.
func (a *getattrAnalysis) ifStatement(s *syntax.Node, guarded bool) bool {
	names, test := a.known(s.Child("condition"))
	body := blockOf(s.Child("consequence"))
	if test && !guarded && containsReturn(s.Child("consequence")) {
		a.names = append(a.names, names...)
	}
	if !a.statements(body, guarded || test) {
		return false
	}
	for _, alt := range s.Children {
		if alt.Field == "alternative" && !a.statement(alt, guarded) {
			return false
		}
	}
	return true
}

// tryStatement checks a try whose body looks the name up (numpy's `try: msg =
// __expired_functions__[attr] except KeyError: pass else: … return`): its else branch
// runs only for the names the lookup found.
func (a *getattrAnalysis) tryStatement(s *syntax.Node, guarded bool) bool {
	found, lookup := a.lookups(s.Child("body"))
	for _, ch := range s.Children {
		switch {
		case !ch.Named:
		case ch.Kind == "else_clause":
			if lookup && !guarded && containsReturn(ch) {
				a.names = append(a.names, found...)
			}
			if !a.statement(ch, guarded || lookup) {
				return false
			}
		case ch.Field == "body":
			if !a.statements(blockOf(ch), guarded) {
				return false
			}
		default:
			if !a.statement(ch, guarded) {
				return false
			}
		}
	}
	return true
}

// lookups returns the names the known lookups assigned in a try's body may find, and
// whether it has one.
func (a *getattrAnalysis) lookups(body *syntax.Node) (found []string, lookup bool) {
	for _, st := range blockOf(body) {
		if as := st.FirstOfKind("assignment"); st.Kind == "expression_statement" && as != nil {
			if names, ok := a.known(as.Child("right")); ok {
				found, lookup = append(found, names...), true
			}
		}
	}
	return found, lookup
}

func blockOf(n *syntax.Node) []*syntax.Node {
	if n == nil {
		return nil
	}
	return n.NamedChildren()
}

func containsReturn(n *syntax.Node) bool {
	found := false
	n.Walk(func(m *syntax.Node) bool {
		found = found || m.Kind == "return_statement" || m.Kind == "yield"
		return !found
	})
	return found
}

// known reports whether e is a test or lookup of the name parameter against names it
// lists, and which: name == "x", name in C, C.get(name), C[name], a guard variable, and
// `or`/`and`/`not`/`is not None` of those.
func (a *getattrAnalysis) known(e *syntax.Node) ([]string, bool) {
	if e == nil {
		return nil, false
	}
	src := a.c.src
	switch e.Kind {
	case "parenthesized_expression":
		return a.known(first(e.NamedChildren()))
	case "identifier":
		names, ok := a.guards[e.Text(src)]
		return names, ok
	case "boolean_operator":
		l, lok := a.known(e.Child("left"))
		r, rok := a.known(e.Child("right"))
		if e.Child("operator").Text(src) == "or" {
			return append(l, r...), lok && rok
		}
		switch {
		case lok && rok:
			return append(l, r...), true // a superset of the names both allow
		case lok:
			return l, true
		}
		return r, rok
	case "comparison_operator":
		return a.comparison(e)
	case "call":
		return a.getCall(e)
	case "subscript":
		if e.Child("subscript").Text(src) == a.param {
			return a.container(e.Child("value"))
		}
	}
	return nil, false
}

// getCall handles C.get(name).
func (a *getattrAnalysis) getCall(e *syntax.Node) ([]string, bool) {
	fn, args := e.Child("function"), e.Child("arguments").NamedChildren()
	if fn.Kind == "attribute" && fn.Child("attribute").Text(a.c.src) == "get" && len(args) == 1 && args[0].Text(a.c.src) == a.param {
		return a.container(fn.Child("object"))
	}
	return nil, false
}

// comparison handles name == "lit", name in C and v is not None for a guard v.
func (a *getattrAnalysis) comparison(e *syntax.Node) ([]string, bool) {
	src := a.c.src
	kids := e.NamedChildren()
	if len(kids) != 2 {
		return nil, false
	}
	op := ""
	for _, ch := range e.Children {
		if !ch.Named {
			op += ch.Kind + " "
		}
	}
	l, r := kids[0], kids[1]
	switch op {
	case "== ":
		if r.Text(src) == a.param {
			l, r = r, l
		}
		if v, ok := stringValue(r, src); ok && l.Text(src) == a.param {
			return []string{v}, true
		}
	case "in ":
		if l.Text(src) == a.param {
			return a.container(r)
		}
	case "is not ", "!= ":
		if r.Text(src) == "None" {
			return a.known(l)
		}
	}
	return nil, false
}

// container returns the string keys or elements of a literal mapping or collection:
// written in place, bound to a top-level name of the module (built there by literals,
// comprehensions over literals and updates), or imported from another module.
func (a *getattrAnalysis) container(e *syntax.Node) ([]string, bool) {
	keys, ok := a.c.keysOf(e, len(a.c.src), 0)
	return keys, ok
}

// literalKeys returns the string keys of a dict literal or the strings of a list, tuple,
// set or frozenset literal.
func literalKeys(e *syntax.Node, src []byte) ([]string, bool) {
	if e == nil {
		return nil, false
	}
	if e.Kind == "call" && (e.Child("function").Text(src) == "frozenset" || e.Child("function").Text(src) == "set") {
		args := e.Child("arguments").NamedChildren()
		if len(args) != 1 {
			return nil, false
		}
		e = args[0]
	}
	var out []string
	switch e.Kind {
	case "dictionary":
		for _, p := range e.NamedChildren() {
			if p.Kind == "comment" {
				continue
			}
			k, ok := stringValue(p.Child("key"), src)
			if p.Kind != "pair" || !ok {
				return nil, false
			}
			out = append(out, k)
		}
	case "list", "tuple", "set":
		for _, el := range e.NamedChildren() {
			if el.Kind == "comment" {
				continue
			}
			s, ok := stringValue(el, src)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
	default:
		return nil, false
	}
	return out, true
}
