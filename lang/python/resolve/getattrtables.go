package resolve

import "github.com/agentverify/agentverify/lang/python/syntax"

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
func (c *nsCollector) keysOf(e *syntax.Node, at, depth int) ([]string, bool) {
	if e == nil || depth > maxTableDepth {
		return nil, false
	}
	switch e.Kind {
	case "parenthesized_expression":
		return c.keysOf(first(e.NamedChildren()), at, depth)
	case "identifier":
		return c.nameKeys(e.Text(c.src), at, depth)
	case "dictionary_comprehension", "set_comprehension", "list_comprehension", "generator_expression":
		return c.comprehensionKeys(e, at, depth)
	case "call":
		switch e.Child("function").Text(c.src) {
		case "frozenset", "set", "dict", "tuple", "list":
			if args := e.Child("arguments").NamedChildren(); len(args) == 1 && args[0].Kind != "keyword_argument" {
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
func (c *nsCollector) dictKeys(e *syntax.Node, at, depth int) ([]string, bool) {
	var out []string
	for _, p := range e.NamedChildren() {
		switch p.Kind {
		case "comment":
		case "dictionary_splat":
			keys, ok := c.keysOf(first(p.NamedChildren()), at, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, keys...)
		case "pair":
			k, ok := stringValue(p.Child("key"), c.src)
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
func (c *nsCollector) comprehensionKeys(e *syntax.Node, at, depth int) ([]string, bool) {
	body, loop := comprehensionParts(e)
	if body == nil || body.Kind != "identifier" || loop == nil {
		return nil, false
	}
	index, ok := targetIndex(loop.Child("left"), body.Text(c.src), c.src)
	if !ok {
		return nil, false
	}
	elems, ok := c.elementsOf(loop.Child("right"), at, depth)
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
func comprehensionParts(e *syntax.Node) (body, loop *syntax.Node) {
	body = e.Child("body")
	if body != nil && body.Kind == "pair" {
		body = body.Child("key")
	}
	for _, ch := range e.NamedChildren() {
		if ch.Kind == "for_in_clause" {
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
func (c *nsCollector) elementString(el *syntax.Node, index int) (string, bool) {
	if index >= 0 {
		parts := el.NamedChildren()
		if el.Kind != "tuple" && el.Kind != "list" || index >= len(parts) {
			return "", false
		}
		el = parts[index]
	}
	return stringValue(el, c.src)
}

// targetIndex returns where name is in a loop target: -1 for the whole target, else its
// index in a tuple of names.
func targetIndex(target *syntax.Node, name string, src []byte) (int, bool) {
	if target == nil {
		return 0, false
	}
	if target.Kind == "identifier" {
		return -1, target.Text(src) == name
	}
	if target.Kind != "pattern_list" && target.Kind != "tuple_pattern" {
		return 0, false
	}
	for i, t := range target.NamedChildren() {
		if t.Kind == "identifier" && t.Text(src) == name {
			return i, true
		}
	}
	return 0, false
}

// elementsOf returns the elements of a literal sequence, in place or bound to a name
// before offset at.
func (c *nsCollector) elementsOf(e *syntax.Node, at, depth int) ([]*syntax.Node, bool) {
	if e == nil || depth > maxTableDepth {
		return nil, false
	}
	if e.Kind == "identifier" {
		v := c.lastBinding(e.Text(c.src), at)
		if v == nil {
			return nil, false
		}
		return c.elementsOf(v, v.Start, depth+1)
	}
	if e.Kind != "list" && e.Kind != "tuple" && e.Kind != "set" {
		return nil, false
	}
	var out []*syntax.Node
	for _, el := range e.NamedChildren() {
		if el.Kind != "comment" {
			out = append(out, el)
		}
	}
	return out, true
}

// lastBinding returns the value of the last top-level plain assignment to name before
// offset at, nil when there is none.
func (c *nsCollector) lastBinding(name string, at int) *syntax.Node {
	var v *syntax.Node
	for _, s := range syntax.ModuleStatements(c.root) {
		if s.Start >= at {
			break
		}
		if as := s.FirstOfKind("assignment"); s.Kind == "expression_statement" && as != nil && as.Child("left").Text(c.src) == name {
			v = as.Child("right")
		}
	}
	return v
}

// nameKeys lists the keys of the table bound to a top-level name as the module has it at
// offset at: its last binding and what the top level adds after it.
func (c *nsCollector) nameKeys(name string, at, depth int) ([]string, bool) {
	var keys []string
	bound, handled := false, map[*syntax.Node]bool{}
	for _, s := range syntax.ModuleStatements(c.root) {
		if s.Start >= at {
			break
		}
		switch s.Kind {
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
func (c *nsCollector) tableStatement(s *syntax.Node, name string, depth int) (keys []string, effect tableEffect, ok bool) {
	e := first(s.NamedChildren())
	if e == nil {
		return nil, none, true
	}
	switch e.Kind {
	case "assignment":
		return c.tableAssignment(e, s.Start, name, depth)
	case "augmented_assignment":
		if e.Child("left").Text(c.src) == name {
			keys, ok := c.keysOf(e.Child("right"), s.Start, depth+1)
			return keys, adds, ok
		}
	case "call":
		return c.tableCall(e, s.Start, name, depth)
	}
	return nil, none, true
}

// tableAssignment reads name = … and name["k"] = ….
func (c *nsCollector) tableAssignment(e *syntax.Node, at int, name string, depth int) ([]string, tableEffect, bool) {
	left := e.Child("left")
	switch {
	case left.Kind == "identifier" && left.Text(c.src) == name:
		keys, ok := c.keysOf(e.Child("right"), at, depth+1)
		return keys, rebinds, ok
	case left.Kind == "subscript" && left.Child("value").Text(c.src) == name:
		k, ok := stringValue(left.Child("subscript"), c.src)
		return []string{k}, adds, ok
	}
	return nil, none, true
}

// tableCall reads name.update(…), .extend, .add, .append and the calls that remove.
func (c *nsCollector) tableCall(e *syntax.Node, at int, name string, depth int) ([]string, tableEffect, bool) {
	fn := e.Child("function")
	if fn.Kind != "attribute" || fn.Child("object").Text(c.src) != name {
		return nil, none, true
	}
	args := e.Child("arguments").NamedChildren()
	switch fn.Child("attribute").Text(c.src) {
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
func (c *nsCollector) importedKeys(s *syntax.Node, name string, depth int) (keys []string, ok, found bool) {
	for _, ch := range s.Children {
		imported, local := ch.Text(c.src), ch.Text(c.src)
		if ch.Kind == "aliased_import" {
			imported, local = ch.Child("name").Text(c.src), ch.Child("alias").Text(c.src)
		}
		if ch.Field == "name" && local == name {
			keys, ok := c.literalIn(c.resolve(s.Child("module_name")), imported, depth+1)
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
func (c *nsCollector) grownElsewhere(name string, handled map[*syntax.Node]bool) bool {
	grown := false
	c.root.Walk(func(n *syntax.Node) bool {
		if grown || handled[n] {
			return false
		}
		switch n.Kind {
		case "assignment", "augmented_assignment":
			left := n.Child("left")
			grown = left != nil && (left.Kind == "subscript" && left.Child("value").Text(c.src) == name ||
				n.Kind == "augmented_assignment" && left.Text(c.src) == name)
		case "call":
			if fn := n.Child("function"); fn != nil && fn.Kind == "attribute" && fn.Child("object").Text(c.src) == name {
				switch fn.Child("attribute").Text(c.src) {
				case "update", "extend", "add", "append", "setdefault", "__setitem__", "insert":
					grown = true
				}
			}
		}
		return !grown
	})
	return grown
}
