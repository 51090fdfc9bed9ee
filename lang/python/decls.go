package python

import (
	"strings"

	"github.com/agentverify/agentverify/lang"
)

// extractor walks one parsed file.
type extractor struct {
	src  []byte
	lf   *lang.File
	role fileRole
	// all holds the names of a literal __all__; nil when the module has none.
	all map[string]bool
	// code marks, by 1-based line, the lines that hold a token other than a comment.
	code []bool
	// commentEnds and commentStarts index the comments by last line and by first line
	// (to the column), built on first use.
	commentEnds   map[int]bool
	commentStarts map[int]int
}

func newExtractor(p string, src []byte, lf *lang.File) *extractor {
	return &extractor{src: src, lf: lf, role: roleOf(p)}
}

// owner is the class whose body a declaration is in; nil at module level.
type owner struct {
	name     string // qualified: "Outer.Inner"
	exported bool
	unittest bool // a unittest TestCase subclass
	pytest   bool // a Test* class of a test module
}

// module lists the module's declarations. Definitions inside module-level if, try and
// with statements count as module level: that is how Python code declares things
// conditionally (TYPE_CHECKING, version checks, optional imports).
func (x *extractor) module(root *node) {
	x.all = dunderAll(root, x.src)
	seen := map[string]bool{}
	x.statements(moduleStatements(root), nil, seen)
}

// moduleStatements returns the module's statements, with those of the blocks of
// module-level if, try and with statements spliced in.
func moduleStatements(root *node) []*node {
	var out []*node
	var visit func(n *node)
	visit = func(n *node) {
		for _, c := range n.children {
			switch c.kind {
			case "if_statement", "try_statement", "with_statement", "elif_clause", "else_clause",
				"except_clause", "except_group_clause", "finally_clause", "block":
				visit(c)
			default:
				if c.named {
					out = append(out, c)
				}
			}
		}
	}
	visit(root)
	return out
}

// statements lists the declarations among stmts, the statements of the module or of the
// body of class o. seen holds the names declared already: the first binding declares.
func (x *extractor) statements(stmts []*node, o *owner, seen map[string]bool) {
	for i, s := range stmts {
		def, decorators := unwrap(s)
		switch def.kind {
		case "function_definition":
			x.function(s, def, decorators, o)
		case "class_definition":
			x.class(s, def, o)
		case "expression_statement":
			x.assignments(s, o, seen, next(stmts, i))
		case "type_alias_statement":
			x.typeAlias(def, o, seen)
		}
	}
}

// next returns stmts[i+1], or nil.
func next(stmts []*node, i int) *node {
	if i+1 < len(stmts) {
		return stmts[i+1]
	}
	return nil
}

// unwrap returns the definition of a decorated definition and its decorators' texts
// (without '@'); other statements come back as they are.
func unwrap(s *node) (*node, []*node) {
	if s.kind != "decorated_definition" {
		return s, nil
	}
	var decs []*node
	for _, c := range s.children {
		if c.kind == "decorator" {
			decs = append(decs, c)
		}
	}
	if d := s.child("definition"); d != nil {
		return d, decs
	}
	return s, decs
}

// qualify prefixes name with the owner's qualified name.
func qualify(o *owner, name string) string {
	if o == nil {
		return name
	}
	return o.name + "." + name
}

// exported reports whether name, declared in o's body (or the module), is public.
func (x *extractor) exported(o *owner, name string) bool {
	if x.role != source {
		return false // test modules and conftest.py are nobody's API
	}
	if o != nil {
		return o.exported && (!strings.HasPrefix(name, "_") || isDunder(name))
	}
	if x.all != nil {
		return x.all[name]
	}
	return !strings.HasPrefix(name, "_")
}

// isDunder reports whether name is a special name: __init__, __all__.
func isDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

func (x *extractor) function(s, def *node, decorators []*node, o *owner) {
	nameNode := def.child("name")
	body := def.child("body")
	if nameNode == nil || body == nil || hasDecorator(decorators, x.src, "overload") {
		return // an @overload stub: the implementation carries the declaration
	}
	name := nameNode.text(x.src)
	d := lang.Decl{
		Name:       qualify(o, name),
		Kind:       lang.Func,
		Exported:   x.exported(o, name),
		Documented: docstring(body) != nil,
		Span:       s.span(),
		NamePos:    nameNode.pos,
		Signature:  signature(def, decorators, x.src),
		Metrics:    x.metrics(def, name),
	}
	if o != nil {
		d.Kind = lang.Method
		d.Documented = d.Documented || isAccessor(decorators, x.src) || isDunder(name)
		d.Test = strings.HasPrefix(name, "test") && (o.unittest || o.pytest)
	} else {
		d.Test = x.role == testModule && strings.HasPrefix(name, "test")
	}
	x.lf.Decls = append(x.lf.Decls, d)
}

func (x *extractor) class(s, def *node, o *owner) {
	nameNode := def.child("name")
	body := def.child("body")
	if nameNode == nil || body == nil {
		return
	}
	name := nameNode.text(x.src)
	c := &owner{
		name:     qualify(o, name),
		exported: x.exported(o, name) && (o == nil || !strings.HasPrefix(name, "_")),
		unittest: isTestCase(def.child("superclasses"), x.src),
		pytest:   x.role == testModule && strings.HasPrefix(name, "Test"),
	}
	x.lf.Decls = append(x.lf.Decls, lang.Decl{
		Name:       c.name,
		Kind:       lang.Type,
		Exported:   c.exported,
		Documented: docstring(body) != nil,
		Span:       s.span(),
		NamePos:    nameNode.pos,
		Signature:  classSignature(def, x.src),
	})
	x.statements(body.namedChildren(), c, map[string]bool{})
}

// isTestCase reports whether a class's bases include a unittest-style TestCase
// (unittest.TestCase, IsolatedAsyncioTestCase, django.test.TestCase, ...).
func isTestCase(bases *node, src []byte) bool {
	return baseMatches(bases, src, func(name string) bool { return strings.HasSuffix(name, "TestCase") })
}

// hasBase reports whether a class's bases include name, bare or qualified.
func hasBase(bases *node, src []byte, name string) bool {
	return baseMatches(bases, src, func(n string) bool { return n == name })
}

// baseMatches reports whether the last component of one of the bases' names (Base,
// mod.Base) satisfies match.
func baseMatches(bases *node, src []byte, match func(string) bool) bool {
	if bases == nil {
		return false
	}
	for _, b := range bases.namedChildren() {
		if b.kind != "identifier" && b.kind != "attribute" {
			continue
		}
		t := b.text(src)
		if match(t[strings.LastIndex(t, ".")+1:]) {
			return true
		}
	}
	return false
}

// hasDecorator reports whether one of decs is name, bare, qualified (typing.overload) or
// called.
func hasDecorator(decs []*node, src []byte, name string) bool {
	for _, d := range decs {
		t := strings.TrimSpace(strings.TrimPrefix(d.text(src), "@"))
		t, _, _ = strings.Cut(t, "(")
		if t == name || strings.HasSuffix(t, "."+name) {
			return true
		}
	}
	return false
}

// isAccessor reports whether a method is a property's setter or deleter, documented by
// the property's getter.
func isAccessor(decs []*node, src []byte) bool {
	return hasDecorator(decs, src, "setter") || hasDecorator(decs, src, "deleter")
}

// docstring returns the docstring of a body: its first statement when that is a string.
func docstring(body *node) *node {
	for _, s := range body.children {
		if s.kind == "comment" {
			continue
		}
		if s.kind != "expression_statement" {
			return nil
		}
		kids := s.namedChildren()
		if len(kids) == 1 && (kids[0].kind == "string" || kids[0].kind == "concatenated_string") {
			return s
		}
		return nil
	}
	return nil
}
