package python

// A module-level __getattr__ (PEP 562), or that of the class whose instance replaces the
// module in sys.modules, makes pyright accept any name. When its body only answers names
// it lists — a lookup in a literal mapping or collection, a comparison with literals —
// and raises for every other name, those names are the module's lazy members; anything
// else it does (import_module(name), getattr(other, name), a default) cannot be listed.

// getattrNames returns the names fn answers, ok false when they cannot be listed.
func (c *nsCollector) getattrNames(fn *node) ([]string, bool) {
	params := paramNames(fn.child("parameters"))
	if len(params) == 0 {
		return nil, false
	}
	p := params[len(params)-1].text(c.src) // (name) or (self, name)
	body := fn.child("body")
	if body == nil {
		return nil, false
	}
	stmts := body.namedChildren()
	if len(stmts) == 0 {
		return nil, false
	}
	a := &getattrAnalysis{c: c, param: p, guards: map[string][]string{}}
	last := stmts[len(stmts)-1]
	if last.kind != "raise_statement" && last.kind != "return_statement" {
		return nil, false // falls through: an unknown name gets None
	}
	if last.kind == "return_statement" {
		names, ok := a.known(first(last.namedChildren()))
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

func first(ns []*node) *node {
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
func (a *getattrAnalysis) statements(stmts []*node, guarded bool) bool {
	for _, s := range stmts {
		if !a.statement(s, guarded) {
			return false
		}
	}
	return true
}

func (a *getattrAnalysis) statement(s *node, guarded bool) bool {
	switch s.kind {
	case "if_statement", "elif_clause":
		return a.ifStatement(s, guarded)
	case "try_statement":
		return a.tryStatement(s, guarded)
	case "else_clause", "except_clause", "finally_clause", "with_statement", "block":
		for _, ch := range s.children {
			if ch.named && !a.statement(ch, guarded) {
				return false
			}
		}
	case "expression_statement":
		if as := s.firstOfKind("assignment"); as != nil && as.child("left").kind == "identifier" {
			if names, ok := a.known(as.child("right")); ok {
				a.guards[as.child("left").text(a.c.src)] = names
			}
		}
	case "return_statement":
		if guarded {
			return true
		}
		names, ok := a.known(first(s.namedChildren()))
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
func (a *getattrAnalysis) ifStatement(s *node, guarded bool) bool {
	names, test := a.known(s.child("condition"))
	body := blockOf(s.child("consequence"))
	if test && !guarded && containsReturn(s.child("consequence")) {
		a.names = append(a.names, names...)
	}
	if !a.statements(body, guarded || test) {
		return false
	}
	for _, alt := range s.children {
		if alt.field == "alternative" && !a.statement(alt, guarded) {
			return false
		}
	}
	return true
}

// tryStatement checks a try whose body looks the name up (numpy's `try: msg =
// __expired_functions__[attr] except KeyError: pass else: … return`): its else branch
// runs only for the names the lookup found.
func (a *getattrAnalysis) tryStatement(s *node, guarded bool) bool {
	found, lookup := a.lookups(s.child("body"))
	for _, ch := range s.children {
		switch {
		case !ch.named:
		case ch.kind == "else_clause":
			if lookup && !guarded && containsReturn(ch) {
				a.names = append(a.names, found...)
			}
			if !a.statement(ch, guarded || lookup) {
				return false
			}
		case ch.field == "body":
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
func (a *getattrAnalysis) lookups(body *node) (found []string, lookup bool) {
	for _, st := range blockOf(body) {
		if as := st.firstOfKind("assignment"); st.kind == "expression_statement" && as != nil {
			if names, ok := a.known(as.child("right")); ok {
				found, lookup = append(found, names...), true
			}
		}
	}
	return found, lookup
}

func blockOf(n *node) []*node {
	if n == nil {
		return nil
	}
	return n.namedChildren()
}

func containsReturn(n *node) bool {
	found := false
	n.walk(func(m *node) bool {
		found = found || m.kind == "return_statement" || m.kind == "yield"
		return !found
	})
	return found
}

// known reports whether e is a test or lookup of the name parameter against names it
// lists, and which: name == "x", name in C, C.get(name), C[name], a guard variable, and
// `or`/`and`/`not`/`is not None` of those.
func (a *getattrAnalysis) known(e *node) ([]string, bool) {
	if e == nil {
		return nil, false
	}
	src := a.c.src
	switch e.kind {
	case "parenthesized_expression":
		return a.known(first(e.namedChildren()))
	case "identifier":
		names, ok := a.guards[e.text(src)]
		return names, ok
	case "boolean_operator":
		l, lok := a.known(e.child("left"))
		r, rok := a.known(e.child("right"))
		if e.child("operator").text(src) == "or" {
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
		if e.child("subscript").text(src) == a.param {
			return a.container(e.child("value"))
		}
	}
	return nil, false
}

// getCall handles C.get(name).
func (a *getattrAnalysis) getCall(e *node) ([]string, bool) {
	fn, args := e.child("function"), e.child("arguments").namedChildren()
	if fn.kind == "attribute" && fn.child("attribute").text(a.c.src) == "get" && len(args) == 1 && args[0].text(a.c.src) == a.param {
		return a.container(fn.child("object"))
	}
	return nil, false
}

// comparison handles name == "lit", name in C and v is not None for a guard v.
func (a *getattrAnalysis) comparison(e *node) ([]string, bool) {
	src := a.c.src
	kids := e.namedChildren()
	if len(kids) != 2 {
		return nil, false
	}
	op := ""
	for _, ch := range e.children {
		if !ch.named {
			op += ch.kind + " "
		}
	}
	l, r := kids[0], kids[1]
	switch op {
	case "== ":
		if r.text(src) == a.param {
			l, r = r, l
		}
		if v, ok := stringValue(r, src); ok && l.text(src) == a.param {
			return []string{v}, true
		}
	case "in ":
		if l.text(src) == a.param {
			return a.container(r)
		}
	case "is not ", "!= ":
		if r.text(src) == "None" {
			return a.known(l)
		}
	}
	return nil, false
}

// container returns the string keys or elements of a literal mapping or collection:
// written in place, bound to a top-level name of the module (built there by literals,
// comprehensions over literals and updates), or imported from another module.
func (a *getattrAnalysis) container(e *node) ([]string, bool) {
	keys, ok := a.c.keysOf(e, len(a.c.src), 0)
	return keys, ok
}

// literalKeys returns the string keys of a dict literal or the strings of a list, tuple,
// set or frozenset literal.
func literalKeys(e *node, src []byte) ([]string, bool) {
	if e == nil {
		return nil, false
	}
	if e.kind == "call" && (e.child("function").text(src) == "frozenset" || e.child("function").text(src) == "set") {
		args := e.child("arguments").namedChildren()
		if len(args) != 1 {
			return nil, false
		}
		e = args[0]
	}
	var out []string
	switch e.kind {
	case "dictionary":
		for _, p := range e.namedChildren() {
			if p.kind == "comment" {
				continue
			}
			k, ok := stringValue(p.child("key"), src)
			if p.kind != "pair" || !ok {
				return nil, false
			}
			out = append(out, k)
		}
	case "list", "tuple", "set":
		for _, el := range e.namedChildren() {
			if el.kind == "comment" {
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
