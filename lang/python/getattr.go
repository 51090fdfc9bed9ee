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
	a := &getattrAnalysis{c: c, param: p, guards: map[string]bool{}}
	last := stmts[len(stmts)-1]
	if last.kind != "raise_statement" && !(last.kind == "return_statement" && a.known(first(last.namedChildren()))) {
		return nil, false // falls through: an unknown name gets None, or whatever it returns
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
// variables that hold the result of a known lookup (info = LEXERS.get(name)).
type getattrAnalysis struct {
	c      *nsCollector
	param  string
	guards map[string]bool
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
	case "else_clause", "try_statement", "except_clause", "finally_clause", "with_statement", "block":
		for _, ch := range s.children {
			if ch.named && !a.statement(ch, guarded) {
				return false
			}
		}
	case "expression_statement":
		if as := s.firstOfKind("assignment"); as != nil && as.child("left").kind == "identifier" && a.known(as.child("right")) {
			a.guards[as.child("left").text(a.c.src)] = true
		}
	case "return_statement":
		return guarded || a.known(first(s.namedChildren()))
	case "for_statement", "while_statement", "function_definition", "class_definition", "decorated_definition":
		return guarded || !containsReturn(s)
	}
	return true
}

// ifStatement checks an if (or elif): its body is guarded when its test is known, its
// other branches only as much as the statement is.
func (a *getattrAnalysis) ifStatement(s *node, guarded bool) bool {
	test := a.known(s.child("condition"))
	if !a.statements(blockOf(s.child("consequence")), guarded || test) {
		return false
	}
	for _, alt := range s.children {
		if alt.field == "alternative" && !a.statement(alt, guarded) {
			return false
		}
	}
	return true
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
// lists, adding them: name == "x", name in C, C.get(name), C[name], a guard variable,
// and `or`/`and`/`not`/`is not None` of those.
func (a *getattrAnalysis) known(e *node) bool {
	if e == nil {
		return false
	}
	src := a.c.src
	switch e.kind {
	case "parenthesized_expression":
		return a.known(first(e.namedChildren()))
	case "identifier":
		return a.guards[e.text(src)]
	case "boolean_operator":
		l, r := a.known(e.child("left")), a.known(e.child("right"))
		if e.child("operator").text(src) == "or" {
			return l && r
		}
		return l || r
	case "comparison_operator":
		return a.comparison(e)
	case "call":
		return a.getCall(e)
	case "subscript":
		if e.child("subscript").text(src) == a.param {
			return a.container(e.child("value"))
		}
	}
	return false
}

// getCall handles C.get(name).
func (a *getattrAnalysis) getCall(e *node) bool {
	fn, args := e.child("function"), e.child("arguments").namedChildren()
	if fn.kind == "attribute" && fn.child("attribute").text(a.c.src) == "get" && len(args) == 1 && args[0].text(a.c.src) == a.param {
		return a.container(fn.child("object"))
	}
	return false
}

// comparison handles name == "lit", name in C and v is not None for a guard v.
func (a *getattrAnalysis) comparison(e *node) bool {
	src := a.c.src
	kids := e.namedChildren()
	if len(kids) != 2 {
		return false
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
			a.names = append(a.names, v)
			return true
		}
	case "in ":
		return l.text(src) == a.param && a.container(r)
	case "is not ", "!= ":
		return r.text(src) == "None" && a.known(l)
	}
	return false
}

// container adds the string keys or elements of a literal mapping or collection: written
// in place, bound to a top-level name of the module, or imported from another module.
func (a *getattrAnalysis) container(e *node) bool {
	keys, ok := literalKeys(e, a.c.src)
	if !ok && e.kind == "identifier" {
		keys, ok = a.c.namedLiteral(e.text(a.c.src), 0)
	}
	a.names = append(a.names, keys...)
	return ok
}

// namedLiteral returns the keys of the literal bound to a top-level name of the module,
// following one from-import into another module.
func (c *nsCollector) namedLiteral(name string, depth int) ([]string, bool) {
	for _, s := range moduleStatements(c.root) {
		switch s.kind {
		case "expression_statement":
			as := s.firstOfKind("assignment")
			if as != nil && as.child("left").text(c.src) == name {
				return literalKeys(as.child("right"), c.src)
			}
		case "import_from_statement":
			if depth > 2 {
				continue
			}
			for _, ch := range s.children {
				imported, local := ch.text(c.src), ch.text(c.src)
				if ch.kind == "aliased_import" {
					imported, local = ch.child("name").text(c.src), ch.child("alias").text(c.src)
				}
				if ch.field == "name" && local == name {
					return c.literalIn(c.resolve(s.child("module_name")), imported, depth+1)
				}
			}
		}
	}
	return nil, false
}

// literalIn returns the keys of the literal bound to name in module.
func (c *nsCollector) literalIn(module, name string, depth int) ([]string, bool) {
	tree, src, pkg := c.j.parsedModule(module)
	if tree == nil {
		return nil, false
	}
	other := &nsCollector{j: c.j, module: module, pkg: pkg, src: src, root: tree}
	return other.namedLiteral(name, depth)
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
