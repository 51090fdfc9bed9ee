package resolve

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/signature"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// A function that takes **kwargs accepts, for pyright, any keyword. When its real source
// passes them unchanged to exactly one callable it can name (def f(a, **kw): return
// g(a, **kw); json.dumps → cls(..., **kw) with cls defaulting to JSONEncoder), the
// keywords it accepts are its own and those the callee accepts, followed to a bounded
// depth (design.md §4.3). Anything else done with kwargs (passed to two callees, to a
// method of a value, stored, iterated) leaves the function open: no finding.

// maxForward bounds how many forwarding functions are followed.
const maxForward = 4

// callable is a function or class definition found in a module's real source.
type callable struct {
	module string
	pkg    bool
	src    []byte
	def    *syntax.Node // function_definition or class_definition
}

// accepted are the keywords a callable accepts, via the callable kwargs reach last.
type accepted struct {
	names []string
	via   string
	// refused: the function itself raises on keywords it does not read.
	refused bool
}

// forwardedKeywords returns the keywords module.name accepts when it forwards **kwargs
// (ok false when it takes no **kwargs or does something else with them). passed are the
// keywords of the call.
func (j *job) forwardedKeywords(module, name string, passed map[string]bool) (accepted, bool) {
	if j.isStdlib(module) && !stubTakesKwargs(j.source(module), name) {
		return accepted{}, false // typeshed states its keywords: pyright checks them
	}
	c := j.lookupCallable(module, name, 0)
	if c == nil {
		return accepted{}, false
	}
	fn := c.function()
	if fn == nil || kwargsParam(fn.Child("parameters"), c.src) == "" {
		return accepted{}, false
	}
	return j.keywordsOf(c, passed, 0)
}

// function returns the function whose parameters a call binds: the def, or a class's
// own __init__; nil for a class without one in its body.
func (c *callable) function() *syntax.Node {
	if c.def.Kind == "function_definition" {
		return c.def
	}
	for _, s := range blockOf(c.def.Child("body")) {
		if d, decs := syntax.Unwrap(s); d.Kind == "function_definition" && len(decs) == 0 && d.Child("name").Text(c.src) == "__init__" {
			return d
		}
	}
	return nil
}

// keywordsOf returns the keywords c accepts, following its **kwargs.
func (j *job) keywordsOf(c *callable, passed map[string]bool, depth int) (accepted, bool) {
	fn := c.function()
	if fn == nil || depth > maxForward {
		return accepted{}, false
	}
	own, kw := c.ownKeywords(fn)
	if kw == "" {
		return accepted{names: own, via: c.module + "." + c.def.Child("name").Text(c.src)}, true
	}
	uses := kwargsUses(fn.Child("body"), c.src, kw)
	if uses.ok && len(uses.forward) == 0 && uses.rejects {
		return accepted{names: append(own, uses.keys...), refused: true}, true
	}
	if !uses.ok || len(uses.forward) != 1 {
		return accepted{}, false
	}
	site := uses.forward[0]
	explicit, positional := forwardArgs(site, c.src)
	callee := j.calleeOf(c, fn, site.Child("function"), passed, depth)
	if callee == nil {
		return accepted{}, false
	}
	inner, ok := j.keywordsOf(callee, explicit, depth+1)
	if !ok {
		return accepted{}, false
	}
	names := append(own, uses.keys...)
	for i, n := range inner.names {
		if !explicit[n] && i >= positional { // the call's positional arguments fill the first
			names = append(names, n)
		}
	}
	return accepted{names: names, via: inner.via, refused: inner.refused}, true
}

// ownKeywords returns the keywords fn names itself and the name of its **kwargs ("").
func (c *callable) ownKeywords(fn *syntax.Node) ([]string, string) {
	ps := fn.Child("parameters")
	kw := kwargsParam(ps, c.src)
	own := []string{}
	for _, n := range parameterKeywords(ps, c.src, c.def.Kind == "class_definition") {
		if n != kw {
			own = append(own, n)
		}
	}
	return own, kw
}

// forwardArgs returns the keywords a forwarding call passes itself and how many
// positional arguments it passes (a large negative number after *args: unknown).
func forwardArgs(site *syntax.Node, src []byte) (map[string]bool, int) {
	explicit := map[string]bool{}
	positional := 0
	for _, a := range site.Child("arguments").NamedChildren() {
		switch a.Kind {
		case "keyword_argument":
			explicit[a.Child("name").Text(src)] = true
		case "list_splat":
			positional = -1 << 30 // how many it fills is unknown: none taken away
		case "dictionary_splat", "comment":
		default:
			positional++
		}
	}
	return explicit, positional
}

// calleeOf resolves the callable a forwarding call names in c's module: a function or
// class of the module or imported into it, mod.name of an imported module, or a
// parameter the body defaults (if cls is None: cls = JSONEncoder) that the call leaves
// unset.
func (j *job) calleeOf(c *callable, fn, callee *syntax.Node, passed map[string]bool, depth int) *callable {
	if callee == nil {
		return nil
	}
	switch callee.Kind {
	case "identifier":
		name := callee.Text(c.src)
		if isParam(fn.Child("parameters"), c.src, name) {
			if passed[name] {
				return nil // the caller chose the callee
			}
			d := defaultedTo(fn.Child("body"), c.src, name)
			if d == nil {
				return nil
			}
			return j.calleeOf(c, fn, d, passed, depth)
		}
		return j.lookupCallable(c.module, name, depth+1)
	case "attribute":
		obj := callee.Child("object")
		if obj == nil || obj.Kind != "identifier" {
			return nil
		}
		tree, _, _ := j.parsedModule(c.module)
		if mod := importedModule(tree, c.src, obj.Text(c.src)); mod != "" {
			return j.lookupCallable(mod, callee.Child("attribute").Text(c.src), depth+1)
		}
	}
	return nil
}

// lookupCallable finds the top-level function or class name of module, following
// from-imports and star imports into other modules. Decorated definitions are not
// followed: a decorator may change the signature.
func (j *job) lookupCallable(module, name string, depth int) *callable {
	if depth > maxForward {
		return nil
	}
	tree, src, pkg := j.parsedModule(module)
	if tree == nil {
		return nil
	}
	for _, s := range syntax.ModuleStatements(tree) {
		if d, decs := syntax.Unwrap(s); (d.Kind == "function_definition" || d.Kind == "class_definition") &&
			d.Child("name").Text(src) == name {
			if len(decs) > 0 {
				return nil
			}
			return &callable{module: module, pkg: pkg, src: src, def: d}
		}
	}
	return j.importedCallable(tree, src, module, pkg, name, depth)
}

// importedCallable follows the from-imports of a module's tree that may bind name.
func (j *job) importedCallable(tree *syntax.Node, src []byte, module string, pkg bool, name string, depth int) *callable {
	for _, s := range syntax.ModuleStatements(tree) {
		if s.Kind != "import_from_statement" {
			continue
		}
		from := resolveModule(s.Child("module_name"), src, module, pkg)
		for _, ch := range s.Children {
			switch {
			case ch.Kind == "wildcard_import":
				if c := j.lookupCallable(from, name, depth+1); c != nil {
					return c
				}
			case ch.Field != "name":
			case ch.Kind == "aliased_import" && ch.Child("alias").Text(src) == name:
				return j.lookupCallable(from, ch.Child("name").Text(src), depth+1)
			case ch.Kind == "dotted_name" && ch.Text(src) == name:
				return j.lookupCallable(from, name, depth+1)
			}
		}
	}
	return nil
}

// why says where the keywords end.
func (a accepted) why() string {
	if a.refused {
		return "it raises on a **kwargs key it does not read"
	}
	return "it passes **kwargs on to " + a.via + "(), which does not take it either"
}

// parsedModule returns the syntax tree of a module's real source, parsed once per job.
func (j *job) parsedModule(module string) (*syntax.Node, []byte, bool) {
	if p, ok := j.parsed[module]; ok {
		return p.tree, p.src, p.pkg
	}
	var p parsedSource
	if ms := j.realSource(module); ms != nil {
		if cached, ok := j.fe.srcs.tree(ms.key); ok {
			p = cached
		} else if tree, err := j.fe.g.Parse(ms.src); err == nil {
			p = parsedSource{tree: tree, src: ms.src, pkg: ms.pkg}
			j.fe.srcs.putTree(ms.key, p)
		}
	}
	j.parsed[module] = p
	return p.tree, p.src, p.pkg
}

type parsedSource struct {
	tree *syntax.Node
	src  []byte
	pkg  bool
}

// importedModule returns the module a top-level `import m` / `import m as name` binds to
// name, "" when there is none.
func importedModule(tree *syntax.Node, src []byte, name string) string {
	for _, s := range syntax.ModuleStatements(tree) {
		if s.Kind != "import_statement" {
			continue
		}
		for _, ch := range s.Children {
			switch {
			case ch.Field != "name":
			case ch.Kind == "aliased_import" && ch.Child("alias").Text(src) == name:
				return ch.Child("name").Text(src)
			case ch.Kind == "dotted_name" && ch.Text(src) == name:
				return name
			}
		}
	}
	return ""
}

// kwargsParam returns the name of a parameter list's **kwargs, "" when it has none.
func kwargsParam(ps *syntax.Node, src []byte) string {
	if ps == nil {
		return ""
	}
	for _, p := range ps.NamedChildren() {
		if p.Kind == "typed_parameter" {
			p = p.FirstNamed()
		}
		if p != nil && p.Kind == "dictionary_splat_pattern" {
			return signature.ParamName(p).Text(src)
		}
	}
	return ""
}

func isParam(ps *syntax.Node, src []byte, name string) bool {
	for _, id := range signature.ParamNames(ps) {
		if id.Text(src) == name {
			return true
		}
	}
	return false
}

// defaultedTo returns Y of `if name is None: name = Y` in body, nil when absent.
func defaultedTo(body *syntax.Node, src []byte, name string) *syntax.Node {
	var found *syntax.Node
	body.Walk(func(s *syntax.Node) bool {
		switch {
		case found != nil || s.Kind == "function_definition" || s.Kind == "class_definition" || s.Kind == "lambda":
			return false
		case s.Kind != "if_statement" || strings.Join(strings.Fields(s.Child("condition").Text(src)), " ") != name+" is None":
			return true
		}
		for _, b := range blockOf(s.Child("consequence")) {
			as := b.FirstOfKind("assignment")
			if b.Kind == "expression_statement" && as != nil && as.Child("left").Text(src) == name {
				if r := as.Child("right"); r.Kind == "identifier" || r.Kind == "attribute" {
					found = r
				}
			}
		}
		return false
	})
	return found
}

// kwUses is what a function body does with its **kwargs: forward are the calls that pass
// them on (**kw), keys the literal keys it reads or sets itself (kw.pop("x"), kw["x"]);
// ok is false when it does anything else with them.
type kwUses struct {
	forward []*syntax.Node
	keys    []string
	ok      bool
	// rejects: an `if kwargs:` raises, so what the body did not read is refused
	// (logging.basicConfig's "Unrecognised argument(s)").
	rejects bool
}

// kwargsUses classifies every use of kw in body.
func kwargsUses(body *syntax.Node, src []byte, kw string) kwUses {
	u := kwUses{ok: true}
	var visit func(n *syntax.Node, parents []*syntax.Node)
	visit = func(n *syntax.Node, parents []*syntax.Node) {
		if !u.ok {
			return
		}
		switch n.Kind {
		case "function_definition", "lambda", "class_definition":
			if len(parents) > 0 && strings.Contains(n.Text(src), kw) {
				u.ok = false // a closure over kwargs
			}
			return
		case "identifier":
			if n.Text(src) == kw {
				u.use(parents, src)
			}
			return
		}
		for _, c := range n.Children {
			visit(c, append(parents, n))
		}
	}
	visit(body, nil)
	return u
}

// use classifies one use of kwargs, given its ancestors (nearest last).
func (u *kwUses) use(parents []*syntax.Node, src []byte) {
	for _, a := range parents {
		if a.Kind == "raise_statement" {
			return // named in the error it raises
		}
	}
	p := parents[len(parents)-1]
	gp := &syntax.Node{} // the grandparent, a node of no kind at the top
	if len(parents) > 1 {
		gp = parents[len(parents)-2]
	}
	switch {
	case p.Kind == "dictionary_splat" && gp.Kind == "argument_list" && len(parents) > 2:
		u.forward = append(u.forward, parents[len(parents)-3])
	case p.Kind == "if_statement":
		u.rejects = u.rejects || raises(p.Child("consequence"))
	case p.Kind == "not_operator" || p.Kind == "boolean_operator":
		// a truthiness test
	case p.Kind == "attribute" && gp.Kind == "call":
		u.method(p.Child("attribute").Text(src), gp, src)
	case p.Kind == "subscript":
		u.key(p.Child("subscript"), src)
	case p.Kind == "comparison_operator":
		u.key(first(p.NamedChildren()), src)
	default:
		u.ok = false
	}
}

// method handles kwargs.m(...): get, pop and setdefault of a literal key read it.
func (u *kwUses) method(m string, call *syntax.Node, src []byte) {
	args := call.Child("arguments").NamedChildren()
	if (m == "get" || m == "pop" || m == "setdefault") && len(args) > 0 {
		u.key(args[0], src)
		return
	}
	u.ok = false
}

// key records a literal key read from kwargs; anything else leaves them open.
func (u *kwUses) key(k *syntax.Node, src []byte) {
	if v, lit := stringValue(k, src); lit {
		u.keys = append(u.keys, v)
		return
	}
	u.ok = false
}

// kwfwdStep reports keyword arguments a function that forwards **kwargs does not accept,
// nor the callable it forwards them to, with the closest real keywords.
func kwfwdStep(j *job) ([]lang.Problem, error) {
	var out []lang.Problem
	for _, t := range j.targets {
		if t.idx == nil || t.broken {
			continue
		}
		t.tree.Walk(func(n *syntax.Node) bool {
			if n.Kind == "call" {
				out = append(out, j.forwardedCall(t, n)...)
			}
			return true
		})
	}
	return out, nil
}

// forwardedCall checks the keywords of one call through the callee's **kwargs.
func (j *job) forwardedCall(t *target, call *syntax.Node) []lang.Problem {
	args := call.Child("arguments")
	if args == nil || args.Kind != "argument_list" {
		return nil
	}
	passed := map[string]bool{}
	var kws []*syntax.Node
	for _, a := range args.NamedChildren() {
		switch a.Kind {
		case "dictionary_splat":
			return nil
		case "keyword_argument":
			kws = append(kws, a.Child("name"))
			passed[a.Child("name").Text(t.src)] = true
		}
	}
	if len(kws) == 0 || t.idx.guarded(call.Pos.Line) {
		return nil
	}
	module, name := j.calleeName(t, call.Child("function").Text(t.src))
	if module == "" {
		return nil
	}
	acc, ok := j.forwardedKeywords(module, name, passed)
	if !ok {
		return nil
	}
	known := map[string]bool{}
	for _, n := range acc.names {
		known[n] = true
	}
	sort.Strings(acc.names)
	var out []lang.Problem
	for _, k := range kws {
		kw := k.Text(t.src)
		if known[kw] {
			continue
		}
		out = append(out, lang.Problem{
			Kind:       lang.UnknownKeyword,
			Location:   lang.Location{File: t.f.Path, Line: k.Pos.Line, Column: k.Pos.Column},
			Message:    fmt.Sprintf("%s.%s() accepts no keyword argument %s (%s)", module, name, kw, acc.why()),
			Suggestion: didYouMean(closest(kw, acc.names)),
			Symbol:     module + "." + name + "." + kw,
		})
	}
	return out
}

// calleeName splits the function a call names into its module and name: a function of
// the file itself, or one the file imports (from m import f; m.f; pkg.mod.f).
func (j *job) calleeName(t *target, fn string) (string, string) {
	if fn == "" || strings.ContainsAny(fn, "()[] \t\n") {
		return "", ""
	}
	if !strings.Contains(fn, ".") && t.idx.objects[fn] == "" {
		if !t.idx.defs[fn] {
			return "", ""
		}
		m, _ := fileModule(t.f.Path)
		return m, fn
	}
	q := t.idx.qualified(fn)
	i := strings.LastIndexByte(q, '.')
	if i < 0 {
		return "", ""
	}
	return q[:i], q[i+1:]
}

// stubTakesKwargs reports whether a definition of name in a stub's text (any overload)
// has a **parameter, without parsing the stub.
func stubTakesKwargs(stub []byte, name string) bool {
	text := string(stub)
	for i := 0; ; {
		k := strings.Index(text[i:], "def "+name+"(")
		if k < 0 {
			return false
		}
		start := i + k + len("def "+name+"(")
		depth, end := 1, start
		for ; end < len(text) && depth > 0; end++ {
			switch text[end] {
			case '(', '[':
				depth++
			case ')', ']':
				depth--
			}
		}
		if strings.Contains(text[start:end], "**") {
			return true
		}
		i = end
	}
}

// parameterKeywords lists the parameters of ps a caller can name, in order, but for the
// first of a method (self; keywordNames leaves out any self or cls, and a function's cls
// may be a real keyword, as json.dumps's is): not positional-only ones, not *args or
// **kwargs.
func parameterKeywords(ps *syntax.Node, src []byte, method bool) []string {
	var out []string
	for i, p := range ps.NamedChildren() {
		if i == 0 && method {
			continue
		}
		switch p.Kind {
		case "positional_separator":
			out = out[:0]
		case "list_splat_pattern", "dictionary_splat_pattern", "keyword_separator", "comment":
		default:
			if id := signature.ParamName(p); id != nil {
				out = append(out, id.Text(src))
			}
		}
	}
	return out
}

// raises reports whether a block ends in a raise.
func raises(block *syntax.Node) bool {
	stmts := blockOf(block)
	return len(stmts) > 0 && stmts[len(stmts)-1].Kind == "raise_statement"
}
