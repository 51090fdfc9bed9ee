package python

import (
	"strconv"
	"strings"
)

// nsCollector collects the top-level names of one module's source (see namespace).
type nsCollector struct {
	j      *job
	module string
	pkg    bool
	src    []byte
	root   *node
	ns     *namespace
	// getattr is the module's own __getattr__ (PEP 562); replaced is the class whose
	// instance the module puts in sys.modules in its own place (pygments.lexers).
	getattr, replaced *node
}

// block adds the names the statements under n bind, through conditionals, loops, with
// and try, not into functions and classes.
func (c *nsCollector) block(n *node) {
	for _, s := range n.children {
		switch s.kind {
		case "decorated_definition":
			if d := s.child("definition"); d != nil {
				c.definition(d)
			}
		case "function_definition", "class_definition":
			c.definition(s)
		case "expression_statement":
			for _, e := range s.namedChildren() {
				c.expression(e)
			}
		case "import_statement":
			c.importNames(s)
		case "import_from_statement", "future_import_statement":
			c.fromImport(s)
		case "for_statement":
			c.targets(s.child("left"))
			c.block(s)
		case "with_statement":
			s.walk(func(n *node) bool {
				if n.kind == "as_pattern_target" {
					c.targets(n)
				}
				return n.kind != "block"
			})
			c.block(s)
		case "exec_statement":
			c.ns.dynamic = true
		case "if_statement", "elif_clause", "else_clause", "try_statement", "except_clause",
			"except_group_clause", "finally_clause", "while_statement", "block":
			c.block(s)
		}
	}
}

func (c *nsCollector) definition(d *node) {
	name := d.child("name").text(c.src)
	c.ns.names[name] = true
	if d.kind == "function_definition" && name == "__getattr__" {
		c.getattr = d
	}
}

// expression handles a top-level expression: assignments bind, and some calls make the
// namespace dynamic.
func (c *nsCollector) expression(e *node) {
	switch e.kind {
	case "assignment", "augmented_assignment":
		for a := e; a != nil && (a.kind == "assignment" || a.kind == "augmented_assignment"); a = a.child("right") {
			c.assignTarget(a.child("left"), a.child("right"))
		}
	case "call":
		fn := e.child("function").text(c.src)
		switch {
		case fn == "exec" || fn == "exec_" || fn == "setattr" && strings.Contains(e.text(c.src), "sys.modules"):
			c.ns.dynamic = true
		case strings.HasSuffix(fn, ".update") && dynamicUpdate(strings.TrimSuffix(fn, ".update")):
			c.ns.dynamic = true
		}
	}
}

// dynamicUpdate reports whether calling update on obj writes the module's namespace:
// globals(), vars(), locals(), sys.modules[...].__dict__ (obj.__dict__.update(old.__dict__)
// of a replacement module copies names it has already).
func dynamicUpdate(obj string) bool {
	switch {
	case obj == "globals()" || obj == "vars()" || obj == "locals()":
		return true
	case strings.HasPrefix(obj, "sys.modules[") && strings.HasSuffix(obj, ".__dict__"):
		return true
	}
	return false
}

// assignTarget adds what an assignment's left side binds; a write to globals()[...],
// __path__ or sys.modules[__name__] is a dynamic namespace (a replacement module whose
// class has a __getattr__ is analysed as the module's own).
func (c *nsCollector) assignTarget(left, right *node) {
	if left == nil {
		return
	}
	switch left.kind {
	case "subscript":
		v := left.child("value").text(c.src)
		switch {
		case v == "globals()" || v == "vars()" || v == "locals()":
			c.ns.dynamic = true
		case v == "sys.modules" && left.child("subscript").text(c.src) == "__name__":
			c.replacement(right)
		}
	case "identifier":
		name := left.text(c.src)
		c.ns.names[name] = true
		if name == "__path__" || name == "__getattr__" {
			c.ns.dynamic = true // namespace extension, or a __getattr__ made by a call
			c.ns.open = c.ns.open || name == "__getattr__"
		}
	default:
		c.targets(left)
	}
}

// replacement handles sys.modules[__name__] = Class(...): the module's attributes are then
// the instance's, found through the class's __getattr__ when it is a class of the module.
func (c *nsCollector) replacement(value *node) {
	if value != nil && value.kind == "identifier" {
		value = c.assignedValue(value.text(c.src))
	}
	if value != nil && value.kind == "call" {
		name := value.child("function").text(c.src)
		if cls := findClass(c.root, c.src, name); cls != nil {
			if c.replaced != nil {
				c.ns.dynamic = true
			}
			c.replaced = cls
			return
		}
	}
	c.ns.dynamic, c.ns.open = true, true
}

// assignedValue returns the value of the top-level assignment to name, nil when there is
// none.
func (c *nsCollector) assignedValue(name string) *node {
	for _, s := range moduleStatements(c.root) {
		if as := s.firstOfKind("assignment"); s.kind == "expression_statement" && as != nil && as.child("left").text(c.src) == name {
			return as.child("right")
		}
	}
	return nil
}

// findClass returns the top-level class named name, or nil.
func findClass(root *node, src []byte, name string) *node {
	for _, s := range moduleStatements(root) {
		if d, _ := unwrap(s); d.kind == "class_definition" && d.child("name").text(src) == name {
			return d
		}
	}
	return nil
}

// targets adds the names in a target list.
func (c *nsCollector) targets(n *node) {
	if n == nil {
		return
	}
	n.walk(func(m *node) bool {
		switch m.kind {
		case "identifier":
			c.ns.names[m.text(c.src)] = true
		case "attribute", "subscript":
			return false
		}
		return true
	})
}

func (c *nsCollector) importNames(s *node) {
	for _, ch := range s.children {
		if ch.field != "name" {
			continue
		}
		switch ch.kind {
		case "dotted_name":
			first, _, _ := strings.Cut(ch.text(c.src), ".")
			c.ns.names[first] = true
		case "aliased_import":
			c.ns.names[ch.child("alias").text(c.src)] = true
		}
	}
}

func (c *nsCollector) fromImport(s *node) {
	for _, ch := range s.children {
		switch {
		case ch.kind == "wildcard_import":
			c.star(c.resolve(s.child("module_name")))
		case ch.field != "name":
		case ch.kind == "aliased_import":
			c.ns.names[ch.child("alias").text(c.src)] = true
		default:
			c.ns.names[lastName(ch.text(c.src))] = true
		}
	}
}

// resolve returns the absolute name of the module an import statement names, relative
// imports resolved against this module; "" when it climbs above the top.
func (c *nsCollector) resolve(m *node) string {
	return resolveModule(m, c.src, c.module, c.pkg)
}

// resolveModule returns the absolute name of a from-import's module in module (pkg: an
// __init__), "" when a relative import climbs above the top package.
func resolveModule(m *node, src []byte, module string, pkg bool) string {
	if m == nil {
		return ""
	}
	text := m.text(src)
	if m.kind != "relative_import" {
		return text
	}
	return absoluteModule(module, pkg, text)
}

// absoluteModule resolves the relative module name rel ("..x.y") written in module (a
// package's __init__ when pkg); "" when it climbs above the top-level package.
func absoluteModule(module string, pkg bool, rel string) string {
	dots := len(rel) - len(strings.TrimLeft(rel, "."))
	base := module
	if !pkg {
		base = parentModule(base)
	}
	for i := 1; i < dots; i++ {
		if base == "" {
			return ""
		}
		base = parentModule(base)
	}
	rest := rel[dots:]
	switch {
	case base == "":
		return rest
	case rest == "":
		return base
	}
	return base + "." + rest
}

func parentModule(m string) string {
	if i := strings.LastIndexByte(m, '.'); i >= 0 {
		return m[:i]
	}
	return ""
}

// star adds the names `from module import *` binds: its __all__, else its public names.
// A module that cannot be read (a compiled extension) makes this one dynamic.
func (c *nsCollector) star(module string) {
	if module == "" {
		c.ns.dynamic = true
		return
	}
	if std, err := c.j.stdlibIndex(); err == nil {
		if _, ok := std.Since(module); ok {
			for _, n := range c.j.moduleMembers(module) {
				c.ns.names[n] = true
			}
			return
		}
	}
	other := c.j.namespaceOf(module)
	if other == nil || other.dynamic {
		c.ns.dynamic = true
		return
	}
	for n := range other.names {
		if !strings.HasPrefix(n, "_") {
			c.ns.names[n] = true
		}
	}
}

// globals adds the names functions declare global (and so may bind).
func (c *nsCollector) globals(root *node) {
	root.walk(func(n *node) bool {
		if n.kind == "global_statement" {
			for _, id := range n.namedChildren() {
				c.ns.names[id.text(c.src)] = true
			}
		}
		return true
	})
}

// lazy adds the names the module's __getattr__ answers, or makes the namespace dynamic
// when they cannot be listed.
func (c *nsCollector) lazy() {
	fns := []*node{c.getattr}
	if c.replaced != nil {
		for _, s := range c.replaced.child("body").children {
			if d, _ := unwrap(s); d.kind == "function_definition" || d.kind == "class_definition" {
				c.ns.names[d.child("name").text(c.src)] = true
				if d.child("name").text(c.src) == "__getattr__" {
					fns = append(fns, d)
				}
			}
		}
	}
	for _, fn := range fns {
		if fn == nil {
			continue
		}
		names, ok := c.getattrNames(fn)
		if !ok {
			c.ns.dynamic, c.ns.open = true, true
			return
		}
		for _, n := range names {
			c.ns.names[n] = true
		}
	}
}

// stringValue returns the value of a plain string literal.
func stringValue(n *node, src []byte) (string, bool) {
	if n == nil || n.kind != "string" || n.firstOfKind("interpolation") != nil {
		return "", false
	}
	s, err := strconv.Unquote(pyQuote(n.text(src)))
	return s, err == nil
}
