package resolve

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/lang/python/syntax"
	"github.com/agentverify/agentverify/lazyregexp"
)

// modDecl is what a module's stub or source declares, read with tree-sitter and never
// imported (design.md §4.3): its top-level names, its classes with their members and
// bases, what it imports, and the deprecations its decorators declare. Suggestions read
// it for the names a misspelt member may have meant (star imports and base classes
// followed), the deprecation check for @deprecated (PEP 702).
type modDecl struct {
	module    string
	pkg, stub bool
	// names are bound at the top level (a stub's plain imports are not: PEP 484 says
	// only `import x as x` re-exports).
	names map[string]bool
	// imports maps a local name to the "module.name" a from-import binds it to, or to
	// the module an import binds.
	imports map[string]string
	// stars are the absolute modules a star import adds the names of.
	stars   []string
	classes map[string]*classDecl
	// deprecated holds, by "name" or "Class.member", what a @deprecated decorator says.
	deprecated map[string]deprecation
}

// classDecl is one class of a module: its own members and its bases as written.
type classDecl struct {
	members map[string]bool
	bases   []string
}

// deprecation is one declared deprecation: its note, and the Python versions it is
// declared for (since ≤ v < until; "" is unbounded), from the version tests around it.
type deprecation struct {
	note         string
	since, until string
}

// maxDeclDepth bounds how far star imports and base classes are followed.
const maxDeclDepth = 8

// declOf returns what module's stub or source declares (nil when it has none), read
// once per job.
func (j *job) declOf(module string) *modDecl {
	if j.decls == nil {
		j.decls = map[string]*modDecl{}
	}
	if d, ok := j.decls[module]; ok {
		return d
	}
	j.decls[module] = nil // a cycle reads as nothing
	src, pkg, stub := j.declFile(module)
	var d *modDecl
	if src != nil {
		d = j.fe.moduleDecl(module, src, pkg, stub)
	}
	j.decls[module] = d
	return d
}

// declFile returns the file pyright reads for a module: typeshed's stub for the standard
// library, else the head tree's stub or source, stub packages and stubs on sys.path,
// typeshed's bundled third-party stubs, then installed sources.
func (j *job) declFile(module string) (src []byte, pkg, stub bool) {
	if std, err := j.stdlibIndex(); err == nil {
		if p := std.Stub(module); p != "" {
			src, _ := os.ReadFile(p)
			return src, strings.HasSuffix(p, "__init__.pyi"), true
		}
	}
	rel := strings.ReplaceAll(module, ".", "/")
	cands := []string{rel + ".pyi", rel + "/__init__.pyi", rel + ".py", rel + "/__init__.py"}
	if head := j.headFS(); head != nil {
		for _, c := range cands {
			if data, err := fs.ReadFile(head, c); err == nil {
				return data, strings.Contains(c, "__init__"), strings.HasSuffix(c, "i")
			}
		}
	}
	top, sub, _ := strings.Cut(rel, "/")
	stubPkg := []string{top + "-stubs/" + sub + ".pyi", top + "-stubs/" + sub + "/__init__.pyi"}
	if sub == "" {
		stubPkg = []string{top + "-stubs/__init__.pyi"}
	}
	for _, try := range []struct {
		dirs []string
		rels []string
	}{
		{j.sysPath(), append(append([]string(nil), stubPkg...), cands[:2]...)},
		{j.stubDirsHolding(top), cands[:2]},
		{j.sysPath(), cands[2:]},
	} {
		for _, d := range try.dirs {
			for _, r := range try.rels {
				if data, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(r))); err == nil {
					return data, strings.Contains(r, "__init__"), strings.HasSuffix(r, "i")
				}
			}
		}
	}
	return nil, false, false
}

// readDecl collects what the module's tree declares.
func readDecl(module string, tree *syntax.Node, src []byte, pkg, stub bool) *modDecl {
	d := &modDecl{module: module, pkg: pkg, stub: stub, names: map[string]bool{}, imports: map[string]string{},
		classes: map[string]*classDecl{}, deprecated: map[string]deprecation{}}
	r := declReader{d: d, src: src, partial: map[string]bool{}}
	r.block(tree, nil, versionRange{})
	for k := range r.partial {
		delete(d.deprecated, k)
	}
	return d
}

// declReader walks a module's statements for readDecl.
type declReader struct {
	d   *modDecl
	src []byte
	// partial holds the names some of whose overloads are not deprecated.
	partial map[string]bool
}

// versionRange is the Python versions code under version tests runs on (since ≤ v <
// until).
type versionRange struct{ since, until string }

// block reads the statements under n; class is the class whose body they are, nil at
// the top level.
func (r declReader) block(n *syntax.Node, class *classDecl, vr versionRange) {
	for _, s := range n.Children {
		switch s.Kind {
		case "decorated_definition", "function_definition", "class_definition":
			r.definition(s, class, vr)
		case "expression_statement":
			r.assignment(s, class)
		case "import_from_statement":
			if class == nil {
				r.fromImport(s)
			}
		case "import_statement":
			if class == nil {
				r.importStatement(s)
			}
		case "if_statement":
			r.ifStatement(s, class, vr)
		case "try_statement", "except_clause", "finally_clause", "with_statement", "block", "else_clause":
			r.block(s, class, vr)
		}
	}
}

// ifStatement reads both branches of an if, narrowing the versions under
// `sys.version_info >= (3, N)` and `<` tests (the else branch gets the other side).
func (r declReader) ifStatement(s *syntax.Node, class *classDecl, vr versionRange) {
	then, other := vr, vr
	if op, v, ok := versionTest(s.Child("condition").Text(r.src)); ok {
		if op == ">=" {
			then.since, other.until = v, v
		} else {
			then.until, other.since = v, v
		}
	}
	r.block(s.Child("consequence"), class, then)
	for _, alt := range s.Children {
		if alt.Field != "alternative" {
			continue
		}
		if alt.Kind == "else_clause" {
			r.block(alt, class, other)
		} else {
			r.ifStatement(alt, class, vr) // elif: its own test, the versions of the if
		}
	}
}

// versionCmp matches `sys.version_info >= (3, 12)` and `sys.version_info < (3, 12)`.
var versionCmp = lazyregexp.New(`^sys\.version_info\s*(>=|<)\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)$`)

func versionTest(cond string) (op, v string, ok bool) {
	m := versionCmp.FindStringSubmatch(strings.TrimSpace(cond))
	if m == nil {
		return "", "", false
	}
	return m[1], m[2] + "." + m[3], true
}

// definition reads a function or class, with its decorators.
func (r declReader) definition(s *syntax.Node, class *classDecl, vr versionRange) {
	def, decs := syntax.Unwrap(s)
	nameNode := def.Child("name")
	if nameNode == nil {
		return
	}
	name := nameNode.Text(r.src)
	key := name
	if class != nil {
		class.members[name] = true
		key = r.classKey(class) + "." + name
	} else {
		r.d.names[name] = true
	}
	r.deprecation(key, decs, vr)
	if def.Kind == "class_definition" && class == nil {
		r.class(def, name, vr)
	}
}

// classKey returns the name of the class c of the module.
func (r declReader) classKey(c *classDecl) string {
	for k, x := range r.d.classes {
		if x == c {
			return k
		}
	}
	return ""
}

// deprecation records what a @deprecated decorator among decs says of key.
func (r declReader) deprecation(key string, decs []*syntax.Node, vr versionRange) {
	note, dep := deprecatedBy(decs, r.src)
	if !dep {
		if syntax.HasDecorator(decs, r.src, "overload") {
			r.partial[key] = true // another overload may be (shlex.split(None)): a type tells them apart
		}
		return
	}
	since := vr.since
	if m := noteSince.FindStringSubmatch(note); m != nil && since == "" {
		since = m[1] // typeshed: "Deprecated since Python 3.12; removed in Python 3.14."
	}
	r.d.deprecated[key] = deprecation{note: note, since: since, until: vr.until}
}

// class reads a top-level class: its bases and its body's members.
func (r declReader) class(def *syntax.Node, name string, vr versionRange) {
	c := r.d.classes[name]
	if c == nil {
		c = &classDecl{members: map[string]bool{}}
		r.d.classes[name] = c
	}
	if sup := def.Child("superclasses"); sup != nil {
		for _, b := range sup.NamedChildren() {
			if b.Kind == "keyword_argument" || b.Kind == "comment" {
				continue
			}
			base, _, _ := strings.Cut(b.Text(r.src), "[")
			c.bases = append(c.bases, base)
		}
	}
	r.block(def.Child("body"), c, vr)
}

// deprecatedDecorator matches the decorators that declare a deprecation: PEP 702's
// (typing_extensions.deprecated, warnings.deprecated) and the deprecated and deprecation
// libraries' (the name is the same).
var deprecatedDecorator = lazyregexp.New(`^@\s*(?:[A-Za-z_][A-Za-z_0-9]*\.)*deprecated\b`)

// noteSince matches the version a deprecation note dates the deprecation from.
var noteSince = lazyregexp.New(`(?i)deprecated since Python (\d+\.\d+)`)

// deprecatedBy returns the note of the decorator among decs that declares a
// deprecation: its first string argument, or its reason=/details= keyword.
func deprecatedBy(decs []*syntax.Node, src []byte) (string, bool) {
	for _, dec := range decs {
		if !deprecatedDecorator.MatchString(dec.Text(src)) {
			continue
		}
		note := ""
		dec.Walk(func(n *syntax.Node) bool {
			if note != "" {
				return false
			}
			switch n.Kind {
			case "keyword_argument":
				if k := n.Child("name").Text(src); k == "reason" || k == "details" || k == "message" {
					note, _ = stringValue(n.Child("value"), src)
				}
				return false
			case "string":
				note, _ = stringValue(n, src)
				return false
			}
			return true
		})
		return note, true
	}
	return "", false
}

// assignment reads the names an assignment (or annotation) binds.
func (r declReader) assignment(s *syntax.Node, class *classDecl) {
	a := s.FirstOfKind("assignment")
	if a == nil || a.Child("left") == nil || a.Child("left").Kind != "identifier" {
		return
	}
	name := a.Child("left").Text(r.src)
	if class != nil {
		class.members[name] = true
	} else {
		r.d.names[name] = true
	}
}

func (r declReader) fromImport(s *syntax.Node) {
	mod := resolveModule(s.Child("module_name"), r.src, r.d.module, r.d.pkg)
	for _, c := range s.Children {
		switch {
		case c.Kind == "wildcard_import":
			if mod != "" {
				r.d.stars = append(r.d.stars, mod)
			}
		case c.Field != "name":
		case c.Kind == "aliased_import":
			alias := c.Child("alias").Text(r.src)
			r.d.names[alias] = true
			r.d.imports[alias] = mod + "." + c.Child("name").Text(r.src)
		default:
			name := c.Text(r.src)
			r.d.imports[name] = mod + "." + name
			if !r.d.stub {
				r.d.names[name] = true
			}
		}
	}
}

func (r declReader) importStatement(s *syntax.Node) {
	for _, c := range s.Children {
		switch {
		case c.Field != "name":
		case c.Kind == "aliased_import":
			alias := c.Child("alias").Text(r.src)
			r.d.imports[alias] = c.Child("name").Text(r.src)
			r.d.names[alias] = true
		default:
			first, _, _ := strings.Cut(c.Text(r.src), ".")
			r.d.imports[first] = first
			if !r.d.stub {
				r.d.names[first] = true
			}
		}
	}
}

// memberNames returns every name module declares, its star imports' names included.
func (j *job) memberNames(module string) []string {
	seen := map[string]bool{}
	j.collectNames(module, seen, map[string]bool{}, 0)
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (j *job) collectNames(module string, out, visited map[string]bool, depth int) {
	d := j.declOf(module)
	if d == nil || visited[module] || depth > maxDeclDepth {
		return
	}
	visited[module] = true
	for n := range d.names {
		out[n] = true
	}
	for _, s := range d.stars {
		j.collectNames(s, out, visited, depth+1)
	}
}

// classMemberNames returns the members of class in module, those its bases define
// included (followed through the module's imports, star imports and the builtins).
func (j *job) classMemberNames(module, class string) []string {
	seen := map[string]bool{}
	j.collectMembers(module, class, seen, map[string]bool{}, 0)
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (j *job) collectMembers(module, class string, out, visited map[string]bool, depth int) {
	key := module + ":" + class
	if visited[key] || depth > maxDeclDepth {
		return
	}
	visited[key] = true
	mod, c := j.findClass(module, class, 0)
	if c == nil {
		return
	}
	for n := range c.members {
		out[n] = true
	}
	for _, b := range c.bases {
		if bm, bc := j.resolveName(mod, b); bc != "" {
			j.collectMembers(bm, bc, out, visited, depth+1)
		}
	}
}

// findClass returns the class named class that module declares or re-exports, with the
// module that declares it.
func (j *job) findClass(module, class string, depth int) (string, *classDecl) {
	d := j.declOf(module)
	if d == nil || depth > maxDeclDepth {
		return "", nil
	}
	if c := d.classes[class]; c != nil {
		return module, c
	}
	if q := d.imports[class]; q != "" && strings.Contains(q, ".") {
		return j.findClass(parentModule(q), syntax.LastName(q), depth+1)
	}
	for _, s := range d.stars {
		if m, c := j.findClass(s, class, depth+1); c != nil {
			return m, c
		}
	}
	return "", nil
}

// resolveName returns the module and name that a class name written in module refers
// to: a class of the module, one it imports (`from m import C`, `m.C`), else a builtin.
func (j *job) resolveName(module, name string) (string, string) {
	d := j.declOf(module)
	head, rest, dotted := strings.Cut(name, ".")
	if d != nil && dotted {
		if m, ok := d.imports[head]; ok {
			full := m + "." + rest
			return parentModule(full), syntax.LastName(full)
		}
		return parentModule(name), syntax.LastName(name)
	}
	if d != nil {
		if _, ok := d.classes[name]; ok {
			return module, name
		}
		if q := d.imports[name]; q != "" && strings.Contains(q, ".") {
			return parentModule(q), syntax.LastName(q)
		}
		for _, s := range d.stars {
			if m, c := j.findClass(s, name, 0); c != nil {
				return m, name
			}
		}
	}
	return "builtins", name
}
