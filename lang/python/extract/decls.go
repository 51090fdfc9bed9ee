package extract

import (
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/signature"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// extractor walks one parsed file.
type extractor struct {
	src  []byte
	lf   *lang.File
	role syntax.Role
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
	return &extractor{src: src, lf: lf, role: syntax.RoleOf(p)}
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
func (x *extractor) module(root *syntax.Node) {
	x.all = dunderAll(root, x.src)
	seen := map[string]bool{}
	x.statements(syntax.ModuleStatements(root), nil, seen)
}

// statements lists the declarations among stmts, the statements of the module or of the
// body of class o. seen holds the names declared already: the first binding declares.
func (x *extractor) statements(stmts []*syntax.Node, o *owner, seen map[string]bool) {
	for i, s := range stmts {
		def, decorators := syntax.Unwrap(s)
		switch def.Kind {
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
func next(stmts []*syntax.Node, i int) *syntax.Node {
	if i+1 < len(stmts) {
		return stmts[i+1]
	}
	return nil
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
	if x.role != syntax.Source {
		return false // test modules and conftest.py are nobody's API
	}
	if o != nil {
		return o.exported && (!strings.HasPrefix(name, "_") || syntax.IsDunder(name))
	}
	if x.all != nil {
		return x.all[name]
	}
	return !strings.HasPrefix(name, "_")
}

func (x *extractor) function(s, def *syntax.Node, decorators []*syntax.Node, o *owner) {
	nameNode := def.Child("name")
	body := def.Child("body")
	if nameNode == nil || body == nil || syntax.HasDecorator(decorators, x.src, "overload") {
		return // an @overload stub: the implementation carries the declaration
	}
	name := nameNode.Text(x.src)
	d := lang.Decl{
		Name:       qualify(o, name),
		Kind:       lang.Func,
		Exported:   x.exported(o, name),
		Documented: docstring(body) != nil,
		Span:       s.Span(),
		NamePos:    nameNode.Pos,
		Signature:  signature.Of(def, decorators, x.src),
		Metrics:    x.metrics(def, name),
	}
	if o != nil {
		d.Kind = lang.Method
		d.Documented = d.Documented || isAccessor(decorators, x.src) || syntax.IsDunder(name)
		d.Test = strings.HasPrefix(name, "test") && (o.unittest || o.pytest)
	} else {
		d.Test = x.role == syntax.TestModule && strings.HasPrefix(name, "test")
	}
	x.lf.Decls = append(x.lf.Decls, d)
}

func (x *extractor) class(s, def *syntax.Node, o *owner) {
	nameNode := def.Child("name")
	body := def.Child("body")
	if nameNode == nil || body == nil {
		return
	}
	name := nameNode.Text(x.src)
	c := &owner{
		name:     qualify(o, name),
		exported: x.exported(o, name) && (o == nil || !strings.HasPrefix(name, "_")),
		unittest: isTestCase(def.Child("superclasses"), x.src),
		pytest:   x.role == syntax.TestModule && strings.HasPrefix(name, "Test"),
	}
	x.lf.Decls = append(x.lf.Decls, lang.Decl{
		Name:       c.name,
		Kind:       lang.Type,
		Exported:   c.exported,
		Documented: docstring(body) != nil,
		Span:       s.Span(),
		NamePos:    nameNode.Pos,
		Signature:  signature.Class(def, x.src),
	})
	x.statements(body.NamedChildren(), c, map[string]bool{})
}

// isTestCase reports whether a class's bases include a unittest-style TestCase
// (unittest.TestCase, IsolatedAsyncioTestCase, django.test.TestCase, ...).
func isTestCase(bases *syntax.Node, src []byte) bool {
	return baseMatches(bases, src, func(name string) bool { return strings.HasSuffix(name, "TestCase") })
}

// hasBase reports whether a class's bases include name, bare or qualified.
func hasBase(bases *syntax.Node, src []byte, name string) bool {
	return baseMatches(bases, src, func(n string) bool { return n == name })
}

// baseMatches reports whether the last component of one of the bases' names (Base,
// mod.Base) satisfies match.
func baseMatches(bases *syntax.Node, src []byte, match func(string) bool) bool {
	if bases == nil {
		return false
	}
	for _, b := range bases.NamedChildren() {
		if b.Kind != "identifier" && b.Kind != "attribute" {
			continue
		}
		t := b.Text(src)
		if match(t[strings.LastIndex(t, ".")+1:]) {
			return true
		}
	}
	return false
}

// isAccessor reports whether a method is a property's setter or deleter, documented by
// the property's getter.
func isAccessor(decs []*syntax.Node, src []byte) bool {
	return syntax.HasDecorator(decs, src, "setter") || syntax.HasDecorator(decs, src, "deleter")
}

// docstring returns the docstring of a body: its first statement when that is a string.
func docstring(body *syntax.Node) *syntax.Node {
	for _, s := range body.Children {
		if s.Kind == "comment" {
			continue
		}
		if s.Kind != "expression_statement" {
			return nil
		}
		kids := s.NamedChildren()
		if len(kids) == 1 && (kids[0].Kind == "string" || kids[0].Kind == "concatenated_string") {
			return s
		}
		return nil
	}
	return nil
}
