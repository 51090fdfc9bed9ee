package resolve

import (
	"strings"

	"github.com/agentverify/agentverify/lang/python/syntax"
)

// Attributes set by name: setattr(obj, "name", v) defines name; setattr(obj, expr, v),
// obj.__dict__.update(…) and vars(obj).update(…) define names only the run knows
// (requests' status codes: setattr(codes, title, code) for every title of a table). The
// class of obj — self's or cls's class in a method, C for a module variable bound to
// C(…) — is then dynamic: no attribute of it is reported made up.

// anyClass holds the attributes set by a literal setattr on an object of unknown class.
const anyClass = "*"

// setAttrs maps a class name to what setattr and friends set on its instances.
type setAttrs map[string]*setInfo

type setInfo struct {
	attrs map[string]bool
	// dynamic: attributes are set by computed names.
	dynamic bool
}

// sets reports whether the index has attr set on instances of class by name (or
// computed names set on them), or attr set by name on an object of unknown class.
func (sa setAttrs) sets(class, attr string) bool {
	c, any := sa[class], sa[anyClass]
	return c != nil && (c.dynamic || c.attrs[attr]) || any != nil && any.attrs[attr]
}

// merge adds what another file sets (a file's own index, which it must not modify).
func (sa setAttrs) merge(other setAttrs) {
	for owner, o := range other {
		c := sa[owner]
		if c == nil {
			c = &setInfo{attrs: map[string]bool{}}
			sa[owner] = c
		}
		c.dynamic = c.dynamic || o.dynamic
		for a := range o.attrs {
			c.attrs[a] = true
		}
	}
}

// add records attr set on an instance of owner, or owner dynamic when attr is "".
func (sa setAttrs) add(owner, attr string) {
	c := sa[owner]
	if c == nil {
		c = &setInfo{attrs: map[string]bool{}}
		sa[owner] = c
	}
	if attr == "" {
		c.dynamic = c.dynamic || owner != anyClass
	} else {
		c.attrs[attr] = true
	}
}

// collectSetattrs records the setattr and __dict__ updates of a file in out.
func collectSetattrs(root *syntax.Node, src []byte, out setAttrs) {
	vars := instanceVars(root, src)
	var class []string // the enclosing classes
	var walk func(n *syntax.Node)
	walk = func(n *syntax.Node) {
		if n.Kind == "class_definition" {
			class = append(class, n.Child("name").Text(src))
			defer func() { class = class[:len(class)-1] }()
		}
		if obj, attr, ok := setByName(n, src); ok {
			owner := anyClass
			if len(class) > 0 && (obj == "self" || obj == "cls") {
				owner = class[len(class)-1]
			} else if c := vars[obj]; c != "" {
				owner = c
			}
			out.add(owner, attr)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(root)
	collectNewInstances(root, src, out)
}

// instanceVars maps the module's variables bound to C(…) to C.
func instanceVars(root *syntax.Node, src []byte) map[string]string {
	vars := map[string]string{}
	for _, s := range syntax.ModuleStatements(root) {
		as := s.FirstOfKind("assignment")
		if s.Kind != "expression_statement" || as == nil || as.Child("left").Kind != "identifier" {
			continue
		}
		if r := as.Child("right"); r != nil && r.Kind == "call" && r.Child("function").Kind == "identifier" {
			vars[as.Child("left").Text(src)] = r.Child("function").Text(src)
		}
	}
	return vars
}

// setByName recognises setattr(obj, name, v) (attr the literal name, "" when computed)
// and obj.__dict__.update(…) / vars(obj).update(…) (attr "").
func setByName(call *syntax.Node, src []byte) (obj, attr string, ok bool) {
	if call.Kind != "call" {
		return "", "", false
	}
	fn := call.Child("function")
	args := call.Child("arguments")
	if fn == nil || args == nil {
		return "", "", false
	}
	as := args.NamedChildren()
	switch t := fn.Text(src); {
	case t == "setattr" && len(as) == 3 && as[0].Kind == "identifier":
		name, _ := stringValue(as[1], src)
		return as[0].Text(src), name, true
	case fn.Kind == "attribute" && fn.Child("attribute").Text(src) == "update":
		if obj := dictOwner(fn.Child("object"), src); obj != "" {
			return obj, "", true
		}
	}
	return "", "", false
}

// collectNewInstances records the attributes a class's methods set on an instance they
// create with __new__ (a metaclass's obj = type.__new__(mcs, …); obj._styles = {} in
// pygments' StyleMeta): attributes of the class's instances, self in its other methods.
func collectNewInstances(root *syntax.Node, src []byte, out setAttrs) {
	root.Walk(func(n *syntax.Node) bool {
		if n.Kind != "class_definition" {
			return true
		}
		attrs := map[string]bool{}
		for _, s := range blockOf(n.Child("body")) {
			if d, _ := syntax.Unwrap(s); d.Kind == "function_definition" {
				newInstanceAttrs(d.Child("body"), src, attrs)
			}
		}
		for a := range attrs {
			out.add(n.Child("name").Text(src), a)
		}
		return true
	})
}

// newInstanceAttrs adds the attributes body assigns on names it binds to X.__new__(…).
func newInstanceAttrs(body *syntax.Node, src []byte, attrs map[string]bool) {
	created := map[string]bool{}
	var assigns []*syntax.Node
	body.Walk(func(m *syntax.Node) bool {
		if m.Kind != "assignment" {
			return m.Kind != "function_definition" && m.Kind != "class_definition"
		}
		l, r := m.Child("left"), m.Child("right")
		if l != nil && l.Kind == "identifier" && r != nil && r.Kind == "call" &&
			strings.HasSuffix(r.Child("function").Text(src), "__new__") {
			created[l.Text(src)] = true
		}
		assigns = append(assigns, m)
		return true
	})
	for _, a := range assigns {
		l := a.Child("left")
		if l != nil && l.Kind == "attribute" && created[l.Child("object").Text(src)] {
			attrs[l.Child("attribute").Text(src)] = true
		}
	}
}

// dictOwner returns obj of obj.__dict__ or vars(obj), "" for anything else.
func dictOwner(o *syntax.Node, src []byte) string {
	switch {
	case o == nil:
	case o.Kind == "attribute" && o.Child("attribute").Text(src) == "__dict__" && o.Child("object").Kind == "identifier":
		return o.Child("object").Text(src)
	case o.Kind == "call" && o.Child("function").Text(src) == "vars":
		if va := o.Child("arguments").NamedChildren(); len(va) == 1 && va[0].Kind == "identifier" {
			return va[0].Text(src)
		}
	}
	return ""
}
