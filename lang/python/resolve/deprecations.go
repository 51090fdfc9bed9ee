package resolve

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/lang/python/syntax"
	"github.com/agentverify/agentverify/lazyregexp"
	"github.com/pelletier/go-toml/v2"
)

// pyRange is the Python versions a project supports: floor ≤ v < ceiling, from
// requires-python ("" when it states no bound).
type pyRange struct{ floor, ceiling string }

// admits reports whether some version the project supports is in [since, until) ("" is
// unbounded).
func (r pyRange) admits(since, until string) bool {
	if since != "" && r.ceiling != "" && !pyright.Less(since, r.ceiling) {
		return false // deprecated after the last version the project supports
	}
	return until == "" || r.floor == "" || pyright.Less(r.floor, until)
}

// has reports whether every version the project supports has what Python v added (an
// unstated floor is taken to be recent: entries whose replacement needs a stated one are
// pinned).
func (r pyRange) has(v string) bool { return v == "" || r.floor == "" || !pyright.Less(r.floor, v) }

// from reports whether every version the project supports is v or newer: a removal in v
// is then a removal everywhere.
func (r pyRange) from(v string) bool { return v != "" && r.floor != "" && !pyright.Less(r.floor, v) }

func (r pyRange) String() string {
	switch {
	case r.floor == "" && r.ceiling == "":
		return "any Python 3"
	case r.ceiling == "":
		return "Python " + r.floor + " and newer"
	case r.floor == "":
		return "Python before " + r.ceiling
	}
	return "Python " + r.floor + " up to " + r.ceiling
}

// upperBound matches the clauses of a version specifier that bound it from above.
var upperBound = lazyregexp.New(`^\s*(<=|<|==|~=)\s*(\d+)(?:\.(\d+))?(\.\*|\.\d+)?`)

// pythonRange reads the supported versions from requires-python (pyproject.toml).
func (j *job) pythonRange() pyRange {
	if j.pyRange != nil {
		return *j.pyRange
	}
	r := pyRange{}
	if proj, err := j.projectConfig(); err == nil {
		r.floor = proj.Floor
	}
	if head := j.headFS(); head != nil {
		if data, err := fs.ReadFile(head, "pyproject.toml"); err == nil {
			var doc struct {
				Project struct {
					RequiresPython string `toml:"requires-python"`
				} `toml:"project"`
			}
			if toml.Unmarshal(data, &doc) == nil {
				r.ceiling = ceiling(doc.Project.RequiresPython)
			}
		}
	}
	j.pyRange = &r
	return r
}

// ceiling returns the first minor version a requires-python specifier excludes above
// ("<3.12" and "<=3.11" give "3.12", "==3.10.*" and "~=3.10.2" give "3.11"), "" when
// none does.
func ceiling(spec string) string {
	best := ""
	for _, clause := range strings.Split(spec, ",") {
		m := upperBound.FindStringSubmatch(clause)
		if m == nil {
			continue
		}
		if m[3] == "" {
			m[3] = "0"
		}
		v := m[2] + "." + m[3]
		switch {
		case m[1] == "<" && (m[4] == "" || m[4] == ".0"):
		case m[1] == "~=" && m[4] == "":
			continue // ~=3.10 admits every 3.x from 3.10
		default:
			v = nextMinor(m[2], m[3])
		}
		if best == "" || pyright.Less(v, best) {
			best = v
		}
	}
	return best
}

func nextMinor(major, minor string) string {
	n := 0
	fmt.Sscan(minor, &n)
	return fmt.Sprintf("%s.%d", major, n+1)
}

// deprecatedStep reports uses of APIs their own documentation deprecates within the
// Python versions the project supports (design.md §4.3): the standard library's
// documented deprecations and removals (stale.go), what typeshed's stubs and installed
// or project modules declare with @deprecated (PEP 702), and asyncio.get_event_loop()
// outside a coroutine. Guarded code (version and feature tests, ImportError handlers)
// is left alone; so are stubs, which describe APIs rather than use them.
func deprecatedStep(j *job) ([]lang.Problem, error) {
	var out []lang.Problem
	modules, names, methods := staleModules(), staleNames(), staleMethods() // built once, read by every file
	for _, t := range j.targets {
		if t.idx == nil || t.broken || strings.HasSuffix(t.f.Path, ".pyi") {
			continue
		}
		d := &deprecations{j: j, t: t, r: j.pythonRange(), modules: modules, names: names, methods: methods}
		d.walk(t.tree, false)
		out = append(out, d.out...)
	}
	return out, nil
}

// deprecations checks one file.
type deprecations struct {
	j       *job
	t       *target
	r       pyRange
	modules map[string]staleAPI
	names   map[string]staleAPI
	methods map[string]staleMethod
	// own are the deprecations the file itself declares, read on first use.
	own *modDecl
	out []lang.Problem
}

// walk visits the file's statements and expressions; inAsync is set inside a coroutine.
func (d *deprecations) walk(n *syntax.Node, inAsync bool) {
	n.Walk(func(m *syntax.Node) bool {
		if m != n && m.Kind == "function_definition" {
			d.walk(m, strings.HasPrefix(m.Text(d.t.src), "async"))
			return false
		}
		if d.t.idx.guarded(m.Pos.Line) {
			return true
		}
		switch m.Kind {
		case "import_statement":
			d.importStatement(m)
			return false
		case "import_from_statement":
			d.fromImport(m)
			return false
		case "attribute":
			d.attribute(m, inAsync)
		case "call":
			d.ownCall(m)
		}
		return true
	})
}

func (d *deprecations) importStatement(n *syntax.Node) {
	for _, c := range n.Children {
		if c.Field == "name" {
			name := syntax.NameOf(c)
			d.module(syntax.Dotted(c, d.t.src), name)
		}
	}
}

// module reports an import of a deprecated module or of a module below one.
func (d *deprecations) module(mod string, at *syntax.Node) bool {
	for m := mod; m != ""; m = parentModule(m) {
		if api, ok := d.modules[m]; ok {
			return d.report(at, m, "module "+m, api, nil)
		}
	}
	return false
}

func (d *deprecations) fromImport(n *syntax.Node) {
	modNode := n.Child("module_name")
	if modNode == nil || modNode.Kind == "relative_import" {
		return
	}
	mod := modNode.Text(d.t.src)
	if d.module(mod, modNode) {
		return
	}
	for _, c := range n.Children {
		if c.Field != "name" {
			continue
		}
		name := syntax.NameOf(c)
		d.member(mod+"."+name.Text(d.t.src), name, nil)
	}
}

// attribute checks a dotted use: a deprecated function, class, constant or method of a
// module the file imports, or a deprecated method by its name.
func (d *deprecations) attribute(n *syntax.Node, inAsync bool) {
	text := n.Text(d.t.src)
	attr := n.Child("attribute")
	if attr == nil || strings.ContainsAny(text, "()[] \t\n\\#") {
		d.method(n)
		return
	}
	q := d.t.idx.qualified(text)
	if q == "" {
		d.method(n)
		return
	}
	if q == "asyncio.get_event_loop" && !inAsync && isCallee(n) {
		d.report(attr, q, q+"() outside a coroutine", staleAPI{since: "3.10",
			use: "asyncio.run(main()) to run a coroutine, asyncio.new_event_loop() for a loop of your own, or asyncio.get_running_loop() inside a coroutine"}, nil)
		return
	}
	d.member(q, attr, n)
}

// isCallee reports whether n is the function of a call.
func isCallee(n *syntax.Node) bool {
	return n.Field == "function"
}

// member checks the qualified name q used at name (expr is the whole attribute
// expression, nil in a from-import): the table first, then the declarations of the
// module it belongs to.
func (d *deprecations) member(q string, name, expr *syntax.Node) bool {
	if api, ok := d.names[q]; ok {
		return d.report(name, q, q, api, expr)
	}
	for mod := parentModule(q); mod != ""; mod = parentModule(mod) {
		cands, ok := d.j.deprecatedCandidates(mod)
		if !ok {
			continue // no such module: q may name a class of its parent
		}
		if !cands[syntax.LastName(q)] {
			return false // nothing of that name follows a @deprecated: no need to parse
		}
		key := strings.TrimPrefix(q, mod+".")
		if dep, ok := d.j.declOf(mod).deprecated[key]; ok && d.r.admits(dep.since, dep.until) {
			return d.declared(name, q, dep)
		}
		return false
	}
	return false
}

// deprecatedDef matches a @deprecated decorator (one line or several) and the name of
// the def or class it decorates: the first defined after it.
var deprecatedDef = lazyregexp.New(`(?s)@\s*(?:[A-Za-z_][A-Za-z_0-9]*\.)*deprecated\b.*?\b(?:def|class)\s+([A-Za-z_][A-Za-z_0-9]*)`)

// deprecatedCandidates returns the names a @deprecated decorator of module's stub or
// source may mark (a regular expression over its text, so that a module is parsed only
// when a use names one of them), and whether the module has a file; once per job.
func (j *job) deprecatedCandidates(module string) (map[string]bool, bool) {
	if c, ok := j.depCands[module]; ok {
		return c, c != nil
	}
	if j.depCands == nil {
		j.depCands = map[string]map[string]bool{}
	}
	src, _, _ := j.declFile(module)
	var c map[string]bool
	if src != nil {
		c = map[string]bool{}
		for _, m := range deprecatedDef.FindAllSubmatch(src, -1) {
			c[string(m[1])] = true
		}
	}
	j.depCands[module] = c
	return c, c != nil
}

// method checks a call of a deprecated method by its name (self.assertEquals(…)).
func (d *deprecations) method(n *syntax.Node) {
	attr, obj := n.Child("attribute"), n.Child("object")
	if attr == nil || obj == nil || !isCallee(n) {
		return
	}
	name := attr.Text(d.t.src)
	m, ok := d.methods[name]
	if !ok || d.t.idx.defs[name] {
		return
	}
	if len(m.receivers) > 0 {
		recv := syntax.LastName(obj.Text(d.t.src))
		found := false
		for _, r := range m.receivers {
			found = found || r == recv
		}
		if !found {
			return
		}
	}
	d.report(attr, m.class+"."+name, m.class+"."+name, m.staleAPI, n)
}

// ownCall checks a call of a function the file itself declares @deprecated.
func (d *deprecations) ownCall(n *syntax.Node) {
	fn := n.Child("function")
	if fn == nil || fn.Kind != "identifier" {
		return
	}
	if d.own == nil {
		module, pkg := fileModule(d.t.f.Path)
		d.own = readDecl(module, d.t.tree, d.t.src, pkg, false)
	}
	if dep, ok := d.own.deprecated[fn.Text(d.t.src)]; ok && d.r.admits(dep.since, dep.until) {
		d.declared(fn, fn.Text(d.t.src), dep)
	}
}

// declared reports a use of what a @deprecated decorator marks.
func (d *deprecations) declared(at *syntax.Node, what string, dep deprecation) bool {
	msg := what + " is deprecated"
	if dep.since != "" {
		msg += " since Python " + dep.since
	}
	msg += " (its declaration is marked @deprecated)"
	sugg := "use what the deprecation note names instead"
	if dep.note != "" {
		sugg = "the deprecation note says: " + dep.note
	}
	d.out = append(d.out, lang.Problem{Kind: lang.Deprecated, Location: d.location(at), Message: msg, Suggestion: sugg, Symbol: what})
	return true
}

// report reports a use of api at name, when the project's Python versions make it
// deprecated and its replacement exists in all of them; expr is the whole expression a
// rename fixes.
func (d *deprecations) report(at *syntax.Node, symbol, what string, api staleAPI, expr *syntax.Node) bool {
	if api.pinned && d.r.floor == "" || !d.r.has(api.needs) || api.since != "" && !d.r.admits(api.since, "") {
		return false
	}
	var msg string
	switch {
	case api.lib != "":
		msg = fmt.Sprintf("%s is deprecated since %s", what, api.lib)
	case d.r.from(api.removed):
		msg = fmt.Sprintf("%s was removed in Python %s; the project supports %s (requires-python)", what, api.removed, d.r)
	case api.removed != "":
		msg = fmt.Sprintf("%s is deprecated since Python %s and removed in %s; the project supports %s (requires-python)", what, api.since, api.removed, d.r)
	default:
		msg = fmt.Sprintf("%s is deprecated since Python %s; the project supports %s (requires-python)", what, api.since, d.r)
	}
	p := lang.Problem{Kind: lang.Deprecated, Location: d.location(at), Message: msg, Suggestion: "use " + api.use + " instead", Symbol: symbol}
	if api.rename != "" && expr != nil {
		p.Fix = d.renameFix(at, expr, api)
	}
	d.out = append(d.out, p)
	return true
}

// renameFix replaces the deprecated name (or, for whole, the expression) with its
// replacement.
func (d *deprecations) renameFix(at, expr *syntax.Node, api staleAPI) *lang.Fix {
	target := at
	if api.whole {
		target = expr
	}
	return &lang.Fix{
		Description: fmt.Sprintf("replace %s with %s", target.Text(d.t.src), api.rename),
		Edits: []lang.Edit{{Range: lang.Location{File: d.t.f.Path, Line: target.Pos.Line, Column: target.Pos.Column,
			EndLine: target.EndPos.Line, EndColumn: target.EndPos.Column + 1}, NewText: api.rename}},
	}
}

func (d *deprecations) location(n *syntax.Node) lang.Location {
	return lang.Location{File: d.t.f.Path, Line: n.Pos.Line, Column: n.Pos.Column, EndLine: n.EndPos.Line, EndColumn: n.EndPos.Column + 1}
}

// mergeDeprecated folds a deprecation into pyright's unknown name at the same place:
// an API removed in every version the project supports is an error, not a warning, and
// the deprecation says what replaces it.
func mergeDeprecated(ps []lang.Problem) []lang.Problem {
	unknown := map[place]int{}
	for i, p := range ps {
		switch p.Kind {
		case lang.UnknownSymbol, lang.UnknownMember, lang.UnknownImport, lang.UnknownPackage:
			unknown[placeOf(p, syntax.LastName(p.Symbol))] = i
		}
	}
	out := ps[:0:0]
	merged := map[int]string{}
	for _, p := range ps {
		if p.Kind != lang.Deprecated {
			continue
		}
		if i, ok := unknown[placeOf(p, syntax.LastName(p.Symbol))]; ok {
			merged[i] = p.Message + "; " + p.Suggestion
		}
	}
	for i, p := range ps {
		if m, ok := merged[i]; ok {
			p.Suggestion = strings.TrimPrefix(p.Suggestion+"; ", "; ") + m
		}
		if p.Kind == lang.Deprecated {
			if _, ok := unknown[placeOf(p, syntax.LastName(p.Symbol))]; ok {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}
