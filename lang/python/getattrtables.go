package python

// A __getattr__ that answers only the names of a table is analysable when the table's
// string keys can be listed from the source without running it (design.md §4.3): a
// literal, a comprehension over a literal (numpy's `{n: … for n, msg in _type_info}`),
// a name bound at the top level to those and grown there by update, |=, add, append,
// extend or item assignment, or imported from another module. A table grown anywhere
// else (in a function, a loop) cannot be listed.

// maxTableDepth bounds how far names and imports are followed.
const maxTableDepth = 4

// keysOf returns the string keys or elements of the table expression e as the module
// has it at byte offset at; ok is false when they cannot be listed.
func (c *nsCollector) keysOf(e *node, at, depth int) ([]string, bool) {
	if e == nil || depth > maxTableDepth {
		return nil, false
	}
	switch e.kind {
	case "parenthesized_expression":
		return c.keysOf(first(e.namedChildren()), at, depth)
	case "identifier":
		return c.nameKeys(e.text(c.src), at, depth)
	case "dictionary_comprehension", "set_comprehension", "list_comprehension", "generator_expression":
		return c.comprehensionKeys(e, at, depth)
	case "call":
		switch e.child("function").text(c.src) {
		case "frozenset", "set", "dict", "tuple", "list":
			if args := e.child("arguments").namedChildren(); len(args) == 1 && args[0].kind != "keyword_argument" {
				return c.keysOf(args[0], at, depth)
			}
		}
		return nil, false
	case "dictionary":
		return c.dictKeys(e, at, depth)
	}
	return literalKeys(e, c.src)
}

// dictKeys lists a dict literal's keys, those of its **splats included.
func (c *nsCollector) dictKeys(e *node, at, depth int) ([]string, bool) {
	var out []string
	for _, p := range e.namedChildren() {
		switch p.kind {
		case "comment":
		case "dictionary_splat":
			keys, ok := c.keysOf(first(p.namedChildren()), at, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, keys...)
		case "pair":
			k, ok := stringValue(p.child("key"), c.src)
			if !ok {
				return nil, false
			}
			out = append(out, k)
		default:
			return nil, false
		}
	}
	return out, true
}

// comprehensionKeys lists the keys of a comprehension whose key is its loop variable (or
// one element of it) over a literal sequence: {n: … for n, msg in [("a", …), …]}.
func (c *nsCollector) comprehensionKeys(e *node, at, depth int) ([]string, bool) {
	body, loop := comprehensionParts(e)
	if body == nil || body.kind != "identifier" || loop == nil {
		return nil, false
	}
	index, ok := targetIndex(loop.child("left"), body.text(c.src), c.src)
	if !ok {
		return nil, false
	}
	elems, ok := c.elementsOf(loop.child("right"), at, depth)
	if !ok {
		return nil, false
	}
	var out []string
	for _, el := range elems {
		s, ok := c.elementString(el, index)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// comprehensionParts returns a comprehension's key (a dict's) or element expression and
// its one loop; loop is nil when it has several.
func comprehensionParts(e *node) (body, loop *node) {
	body = e.child("body")
	if body != nil && body.kind == "pair" {
		body = body.child("key")
	}
	for _, ch := range e.namedChildren() {
		if ch.kind == "for_in_clause" {
			if loop != nil {
				return body, nil // nested loops
			}
			loop = ch
		}
	}
	return body, loop
}

// elementString returns the string an element of a loop's sequence gives the loop
// variable at index (-1: the element itself; else that element of a tuple).
func (c *nsCollector) elementString(el *node, index int) (string, bool) {
	if index >= 0 {
		parts := el.namedChildren()
		if el.kind != "tuple" && el.kind != "list" || index >= len(parts) {
			return "", false
		}
		el = parts[index]
	}
	return stringValue(el, c.src)
}

// targetIndex returns where name is in a loop target: -1 for the whole target, else its
// index in a tuple of names.
func targetIndex(target *node, name string, src []byte) (int, bool) {
	if target == nil {
		return 0, false
	}
	if target.kind == "identifier" {
		return -1, target.text(src) == name
	}
	if target.kind != "pattern_list" && target.kind != "tuple_pattern" {
		return 0, false
	}
	for i, t := range target.namedChildren() {
		if t.kind == "identifier" && t.text(src) == name {
			return i, true
		}
	}
	return 0, false
}

// elementsOf returns the elements of a literal sequence, in place or bound to a name
// before offset at.
func (c *nsCollector) elementsOf(e *node, at, depth int) ([]*node, bool) {
	if e == nil || depth > maxTableDepth {
		return nil, false
	}
	if e.kind == "identifier" {
		v := c.lastBinding(e.text(c.src), at)
		if v == nil {
			return nil, false
		}
		return c.elementsOf(v, v.start, depth+1)
	}
	if e.kind != "list" && e.kind != "tuple" && e.kind != "set" {
		return nil, false
	}
	var out []*node
	for _, el := range e.namedChildren() {
		if el.kind != "comment" {
			out = append(out, el)
		}
	}
	return out, true
}

// lastBinding returns the value of the last top-level plain assignment to name before
// offset at, nil when there is none.
func (c *nsCollector) lastBinding(name string, at int) *node {
	var v *node
	for _, s := range moduleStatements(c.root) {
		if s.start >= at {
			break
		}
		if as := s.firstOfKind("assignment"); s.kind == "expression_statement" && as != nil && as.child("left").text(c.src) == name {
			v = as.child("right")
		}
	}
	return v
}

// nameKeys lists the keys of the table bound to a top-level name as the module has it at
// offset at: its last binding and what the top level adds after it.
func (c *nsCollector) nameKeys(name string, at, depth int) ([]string, bool) {
	var keys []string
	bound, handled := false, map[*node]bool{}
	for _, s := range moduleStatements(c.root) {
		if s.start >= at {
			break
		}
		switch s.kind {
		case "expression_statement":
			k, effect, ok := c.tableStatement(s, name, depth)
			switch {
			case !ok:
				return nil, false
			case effect == rebinds:
				keys, bound = k, true
			case effect == adds:
				keys = append(keys, k...)
			}
			handled[s] = effect != none
		case "import_from_statement":
			if k, ok, found := c.importedKeys(s, name, depth); found {
				if !ok {
					return nil, false
				}
				keys, bound = k, true
			}
		}
	}
	if !bound || c.grownElsewhere(name, handled) {
		return nil, false
	}
	return keys, true
}

// tableEffect is what a statement does to a table.
type tableEffect int

const (
	none    tableEffect = iota
	rebinds             // name = …
	adds                // name.update(…), name |= …, name["k"] = …
	removes             // name.pop(…): the listed names stay a superset
)

// tableStatement reads one top-level statement's effect on the table name and the keys
// it binds or adds; ok is false when it changes the table in a way that cannot be listed.
func (c *nsCollector) tableStatement(s *node, name string, depth int) (keys []string, effect tableEffect, ok bool) {
	e := first(s.namedChildren())
	if e == nil {
		return nil, none, true
	}
	switch e.kind {
	case "assignment":
		return c.tableAssignment(e, s.start, name, depth)
	case "augmented_assignment":
		if e.child("left").text(c.src) == name {
			keys, ok := c.keysOf(e.child("right"), s.start, depth+1)
			return keys, adds, ok
		}
	case "call":
		return c.tableCall(e, s.start, name, depth)
	}
	return nil, none, true
}

// tableAssignment reads name = … and name["k"] = ….
func (c *nsCollector) tableAssignment(e *node, at int, name string, depth int) ([]string, tableEffect, bool) {
	left := e.child("left")
	switch {
	case left.kind == "identifier" && left.text(c.src) == name:
		keys, ok := c.keysOf(e.child("right"), at, depth+1)
		return keys, rebinds, ok
	case left.kind == "subscript" && left.child("value").text(c.src) == name:
		k, ok := stringValue(left.child("subscript"), c.src)
		return []string{k}, adds, ok
	}
	return nil, none, true
}

// tableCall reads name.update(…), .extend, .add, .append and the calls that remove.
func (c *nsCollector) tableCall(e *node, at int, name string, depth int) ([]string, tableEffect, bool) {
	fn := e.child("function")
	if fn.kind != "attribute" || fn.child("object").text(c.src) != name {
		return nil, none, true
	}
	args := e.child("arguments").namedChildren()
	switch fn.child("attribute").text(c.src) {
	case "update", "extend":
		if len(args) == 1 {
			keys, ok := c.keysOf(args[0], at, depth+1)
			return keys, adds, ok
		}
	case "add", "append":
		if len(args) == 1 {
			k, ok := stringValue(args[0], c.src)
			return []string{k}, adds, ok
		}
	case "remove", "discard", "pop":
		return nil, removes, true
	default:
		return nil, none, true // a read: keys(), items(), get()
	}
	return nil, adds, false
}

// importedKeys reads a from-import that binds name: the keys of the table in the module
// it comes from; found is false when the import does not bind name.
func (c *nsCollector) importedKeys(s *node, name string, depth int) (keys []string, ok, found bool) {
	for _, ch := range s.children {
		imported, local := ch.text(c.src), ch.text(c.src)
		if ch.kind == "aliased_import" {
			imported, local = ch.child("name").text(c.src), ch.child("alias").text(c.src)
		}
		if ch.field == "name" && local == name {
			keys, ok := c.literalIn(c.resolve(s.child("module_name")), imported, depth+1)
			return keys, ok, true
		}
	}
	return nil, false, false
}

// literalIn returns the keys of the table bound to name in module.
func (c *nsCollector) literalIn(module, name string, depth int) ([]string, bool) {
	tree, src, pkg := c.j.parsedModule(module)
	if tree == nil || depth > maxTableDepth {
		return nil, false
	}
	other := &nsCollector{j: c.j, module: module, pkg: pkg, src: src, root: tree}
	return other.nameKeys(name, len(src), depth)
}

// grownElsewhere reports whether the module changes the table name anywhere but the
// top-level statements already read (handled): in a function, a loop, a with.
func (c *nsCollector) grownElsewhere(name string, handled map[*node]bool) bool {
	grown := false
	c.root.walk(func(n *node) bool {
		if grown || handled[n] {
			return false
		}
		switch n.kind {
		case "assignment", "augmented_assignment":
			left := n.child("left")
			grown = left != nil && (left.kind == "subscript" && left.child("value").text(c.src) == name ||
				n.kind == "augmented_assignment" && left.text(c.src) == name)
		case "call":
			if fn := n.child("function"); fn != nil && fn.kind == "attribute" && fn.child("object").text(c.src) == name {
				switch fn.child("attribute").text(c.src) {
				case "update", "extend", "add", "append", "setdefault", "__setitem__", "insert":
					grown = true
				}
			}
		}
		return !grown
	})
	return grown
}
