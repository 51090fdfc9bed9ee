package resolve

import (
	"strings"

	"github.com/agentverify/agentverify/lang/python/syntax"
)

// classInfo is what the mixin check needs of one class of the project: its bases (and
// metaclass) by their last dotted name and the attributes its body and methods define.
type classInfo struct {
	bases []string
	attrs map[string]bool
	// init says whether a decorator generates the class's __init__, and fields are the
	// parameters of attrs' (generated.go).
	init   initGen
	fields []attrField
}

// projectClasses maps a class name to every class of that name in the project.
type projectClasses map[string][]*classInfo

// mixinMember reports whether attr, which pyright finds on no class in self's type
// (class), is defined by a class of the project that derives from class, or by another
// base of such a class: a mixin's self.attr that the class it is mixed into provides
// (PyYAML's Scanner uses self.peek from Reader; requests' RequestHooksMixin uses
// self.hooks from Request). When such a class also derives from a class outside the
// project (cachetools' test mixin used with unittest.TestCase, which has assertEqual),
// the members are not known here, and the attribute may be one of them. A made-up
// attribute of a mixin that only project classes use is still reported.
func (j *job) mixinMember(class, attr string) bool {
	classes := j.projClasses
	if classes == nil {
		classes, _ = j.familyIndex(class, true, nil)
	}
	for _, infos := range classes {
		for _, c := range infos {
			anc := map[string]bool{}
			classes.ancestors(c, anc)
			if anc[class] && (classes.defines(c, attr, map[*classInfo]bool{}) || classes.outsideBase(c, map[*classInfo]bool{})) {
				return true
			}
		}
	}
	return false
}

// ancestors adds the names of c's bases, transitively through the project's classes.
func (pc projectClasses) ancestors(c *classInfo, seen map[string]bool) {
	for _, b := range c.bases {
		if seen[b] {
			continue
		}
		seen[b] = true
		for _, bc := range pc[b] {
			pc.ancestors(bc, seen)
		}
	}
}

// defines reports whether c or one of its bases in the project defines attr.
func (pc projectClasses) defines(c *classInfo, attr string, seen map[*classInfo]bool) bool {
	if seen[c] {
		return false
	}
	seen[c] = true
	if c.attrs[attr] {
		return true
	}
	for _, b := range c.bases {
		for _, bc := range pc[b] {
			if pc.defines(bc, attr, seen) {
				return true
			}
		}
	}
	return false
}

// outsideBase reports whether c derives, itself or through its bases in the project, from
// a class the project does not define (other than the ones that define nothing a mixin
// would use: object, Generic, Protocol, ABC).
func (pc projectClasses) outsideBase(c *classInfo, seen map[*classInfo]bool) bool {
	if seen[c] {
		return false
	}
	seen[c] = true
	for _, b := range c.bases {
		switch {
		case inert[b]:
		case len(pc[b]) == 0:
			return true
		default:
			for _, bc := range pc[b] {
				if pc.outsideBase(bc, seen) {
					return true
				}
			}
		}
	}
	return false
}

// inert are the bases whose members no mixin uses.
var inert = map[string]bool{"object": true, "Generic": true, "Protocol": true, "ABC": true, "ABCMeta": true, "type": true}

// collectClasses appends the class definitions under n, nested ones included.
func collectClasses(n *syntax.Node, src []byte, out *[]namedClass) {
	collectDecorated(n, src, nil, out)
}

// collectDecorated is collectClasses for n under the given decorators.
func collectDecorated(n *syntax.Node, src []byte, decorators []string, out *[]namedClass) {
	if n == nil {
		return
	}
	if n.Kind == "class_definition" {
		if name := n.Child("name"); name != nil {
			c := &classInfo{bases: classBases(n.Child("superclasses"), src), attrs: map[string]bool{}}
			classAttrs(n.Child("body"), src, c.attrs, false)
			c.init, c.fields = classInit(n, decorators, src)
			*out = append(*out, namedClass{name.Text(src), c})
		}
	}
	if n.Kind == "assignment" {
		outside(n.Child("left"), src, out)
	}
	var decos []string
	if n.Kind == "decorated_definition" {
		decos = decoratorTexts(n, src)
	}
	for _, ch := range n.Children {
		if ch.Field == "definition" {
			collectDecorated(ch, src, decos, out)
		} else {
			collectDecorated(ch, src, nil, out)
		}
	}
}

// outside records C.attr = … written outside the class (logging's Logger.manager =
// Manager(Logger.root)) as an attribute of every class named C.
func outside(left *syntax.Node, src []byte, out *[]namedClass) {
	if left == nil || left.Kind != "attribute" {
		return
	}
	obj, a := left.Child("object"), left.Child("attribute")
	if obj == nil || a == nil || obj.Kind != "identifier" || obj.Text(src) == "self" || obj.Text(src) == "cls" {
		return
	}
	*out = append(*out, namedClass{obj.Text(src), &classInfo{attrs: map[string]bool{a.Text(src): true}}})
}

// definedOn reports whether a class named class, or one of its bases in the project,
// defines attr (assignments from outside the class included), or the project sets attr
// on its instances by name (setattr.go). It reads only the files that can tell
// (definingIndex), unless the whole project is indexed already.
func (j *job) definedOn(class, attr string) bool {
	classes, sets := j.projClasses, j.setIndex
	if classes == nil {
		classes, sets = j.definingIndex(class, attr)
	}
	if sets.sets(class, attr) {
		return true
	}
	for _, c := range classes[class] {
		if classes.defines(c, attr, map[*classInfo]bool{}) {
			return true
		}
	}
	return false
}

// classBases are the last dotted names of a class's bases and metaclass (a class is its
// metaclass's self).
func classBases(sup *syntax.Node, src []byte) []string {
	if sup == nil {
		return nil
	}
	var out []string
	for _, b := range sup.NamedChildren() {
		if b.Kind == "keyword_argument" && b.Child("name").Text(src) == "metaclass" {
			b = b.Child("value")
		}
		if b != nil && (b.Kind == "identifier" || b.Kind == "attribute") {
			t := b.Text(src)
			out = append(out, t[strings.LastIndexByte(t, '.')+1:])
		}
	}
	return out
}

// classAttrs adds the names a class body defines: its functions and assigned names, and
// every self.name (any attribute of a method's receiver) its methods assign.
func classAttrs(n *syntax.Node, src []byte, attrs map[string]bool, inMethod bool) {
	if n == nil {
		return
	}
	switch n.Kind {
	case "class_definition":
		if !inMethod {
			if name := n.Child("name"); name != nil {
				attrs[name.Text(src)] = true
			}
		}
		return // a nested class's body is its own
	case "function_definition":
		if !inMethod {
			if name := n.Child("name"); name != nil {
				attrs[name.Text(src)] = true
			}
		}
		classAttrs(n.Child("body"), src, attrs, true)
		return
	case "assignment", "augmented_assignment":
		assignedAttrs(n.Child("left"), src, attrs, inMethod)
	}
	for _, ch := range n.Children {
		classAttrs(ch, src, attrs, inMethod)
	}
}

// assignedAttrs adds what an assignment's left side defines: a name in the class body, an
// attribute of self (or cls) in a method.
func assignedAttrs(n *syntax.Node, src []byte, attrs map[string]bool, inMethod bool) {
	if n == nil {
		return
	}
	switch n.Kind {
	case "identifier":
		if !inMethod {
			attrs[n.Text(src)] = true
		}
	case "attribute":
		if obj := n.Child("object"); obj != nil && (obj.Text(src) == "self" || obj.Text(src) == "cls") {
			if a := n.Child("attribute"); a != nil {
				attrs[a.Text(src)] = true
			}
		}
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list":
		for _, ch := range n.NamedChildren() {
			assignedAttrs(ch, src, attrs, inMethod)
		}
	}
}
