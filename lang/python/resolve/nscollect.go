package resolve

import (
	"strconv"
	"strings"

	"github.com/agentverify/agentverify/lang/python/syntax"
)

// nsCollector collects the top-level names of one module's source (see namespace).
type nsCollector struct {
	j      *job
	module string
	pkg    bool
	src    []byte
	root   *syntax.Node
	ns     *namespace
	// getattr is the module's own __getattr__ (PEP 562); replaced is the class whose
	// instance the module puts in sys.modules in its own place (pygments.lexers).
	getattr, replaced *syntax.Node
}

// block adds the names the statements under n bind, through conditionals, loops, with
// and try, not into functions and classes.
func (c *nsCollector) block(n *syntax.Node) {
	for _, s := range n.Children {
		switch s.Kind {
		case "decorated_definition":
			if d := s.Child("definition"); d != nil {
				c.definition(d)
			}
		case "function_definition", "class_definition":
			c.definition(s)
		case "expression_statement":
			for _, e := range s.NamedChildren() {
				c.expression(e)
			}
		case "import_statement":
			c.importNames(s)
		case "import_from_statement", "future_import_statement":
			c.fromImport(s)
		case "for_statement":
			c.targets(s.Child("left"))
			c.block(s)
		case "with_statement":
			s.Walk(func(n *syntax.Node) bool {
				if n.Kind == "as_pattern_target" {
					c.targets(n)
				}
				return n.Kind != "block"
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

func (c *nsCollector) definition(d *syntax.Node) {
	name := d.Child("name").Text(c.src)
	c.ns.names[name] = true
	if d.Kind == "function_definition" && name == "__getattr__" {
		c.getattr = d
	}
}

// expression handles a top-level expression: assignments bind, and some calls make the
// namespace dynamic.
func (c *nsCollector) expression(e *syntax.Node) {
	switch e.Kind {
	case "assignment", "augmented_assignment":
		for a := e; a != nil && (a.Kind == "assignment" || a.Kind == "augmented_assignment"); a = a.Child("right") {
			c.assignTarget(a.Child("left"), a.Child("right"))
		}
	case "call":
		fn := e.Child("function").Text(c.src)
		switch {
		case fn == "exec" || fn == "exec_" || fn == "setattr" && strings.Contains(e.Text(c.src), "sys.modules"):
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
func (c *nsCollector) assignTarget(left, right *syntax.Node) {
	if left == nil {
		return
	}
	switch left.Kind {
	case "subscript":
		v := left.Child("value").Text(c.src)
		switch {
		case v == "globals()" || v == "vars()" || v == "locals()":
			c.ns.dynamic = true
		case v == "sys.modules" && left.Child("subscript").Text(c.src) == "__name__":
			c.replacement(right)
		}
	case "identifier":
		name := left.Text(c.src)
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
func (c *nsCollector) replacement(value *syntax.Node) {
	if value != nil && value.Kind == "identifier" {
		value = c.assignedValue(value.Text(c.src))
	}
	if value != nil && value.Kind == "call" {
		name := value.Child("function").Text(c.src)
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
func (c *nsCollector) assignedValue(name string) *syntax.Node {
	for _, s := range syntax.ModuleStatements(c.root) {
		if as := s.FirstOfKind("assignment"); s.Kind == "expression_statement" && as != nil && as.Child("left").Text(c.src) == name {
			return as.Child("right")
		}
	}
	return nil
}

// findClass returns the top-level class named name, or nil.
func findClass(root *syntax.Node, src []byte, name string) *syntax.Node {
	for _, s := range syntax.ModuleStatements(root) {
		if d, _ := syntax.Unwrap(s); d.Kind == "class_definition" && d.Child("name").Text(src) == name {
			return d
		}
	}
	return nil
}

// targets adds the names in a target list.
func (c *nsCollector) targets(n *syntax.Node) {
	if n == nil {
		return
	}
	n.Walk(func(m *syntax.Node) bool {
		switch m.Kind {
		case "identifier":
			c.ns.names[m.Text(c.src)] = true
		case "attribute", "subscript":
			return false
		}
		return true
	})
}

func (c *nsCollector) importNames(s *syntax.Node) {
	for _, ch := range s.Children {
		if ch.Field != "name" {
			continue
		}
		switch ch.Kind {
		case "dotted_name":
			first, _, _ := strings.Cut(ch.Text(c.src), ".")
			c.ns.names[first] = true
		case "aliased_import":
			c.ns.names[ch.Child("alias").Text(c.src)] = true
		}
	}
}

func (c *nsCollector) fromImport(s *syntax.Node) {
	for _, ch := range s.Children {
		switch {
		case ch.Kind == "wildcard_import":
			c.star(c.resolve(s.Child("module_name")))
		case ch.Field != "name":
		case ch.Kind == "aliased_import":
			c.ns.names[ch.Child("alias").Text(c.src)] = true
		default:
			c.ns.names[syntax.LastName(ch.Text(c.src))] = true
		}
	}
}

// resolve returns the absolute name of the module an import statement names, relative
// imports resolved against this module; "" when it climbs above the top.
func (c *nsCollector) resolve(m *syntax.Node) string {
	return resolveModule(m, c.src, c.module, c.pkg)
}

// resolveModule returns the absolute name of a from-import's module in module (pkg: an
// __init__), "" when a relative import climbs above the top package.
func resolveModule(m *syntax.Node, src []byte, module string, pkg bool) string {
	if m == nil {
		return ""
	}
	text := m.Text(src)
	if m.Kind != "relative_import" {
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
func (c *nsCollector) globals(root *syntax.Node) {
	root.Walk(func(n *syntax.Node) bool {
		if n.Kind == "global_statement" {
			for _, id := range n.NamedChildren() {
				c.ns.names[id.Text(c.src)] = true
			}
		}
		return true
	})
}

// lazy adds the names the module's __getattr__ answers, or makes the namespace dynamic
// when they cannot be listed.
func (c *nsCollector) lazy() {
	fns := []*syntax.Node{c.getattr}
	if c.replaced != nil {
		for _, s := range c.replaced.Child("body").Children {
			if d, _ := syntax.Unwrap(s); d.Kind == "function_definition" || d.Kind == "class_definition" {
				c.ns.names[d.Child("name").Text(c.src)] = true
				if d.Child("name").Text(c.src) == "__getattr__" {
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
func stringValue(n *syntax.Node, src []byte) (string, bool) {
	if n == nil || n.Kind != "string" || n.FirstOfKind("interpolation") != nil {
		return "", false
	}
	s, err := strconv.Unquote(syntax.GoQuote(n.Text(src)))
	return s, err == nil
}
