package resolve

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// A change that alters what a module exports reaches the files that import what it
// changed, directly or through modules that re-export it (`export *`, `export * as
// ns`, `export { x } from`), and through the exports of an importer whose own
// declarations use it. Those files are checked with the changed ones; the compiler
// follows their imports. Changes travel as paths of names: "x" for the export x,
// "ns.x" for x inside the namespace ns a module re-exports; an import is reached when
// its binding's uses (`ns.a.b`, read lexically, which errs towards more) overlap a
// changed path. An importer reached outside the bodies of functions that write out
// their return type may export something different too: all its exports change. A
// module's `export *` re-exporter is checked itself when a name it now gives may clash
// with another `export *`'s (an error there): a name added that another file of the
// project mentions, or any when it also re-exports a package the scan does not read.

// specifiers lists, lexically, the distinct strings of data that may name a module:
// those after from, import, require, module (an augmentation), and reference path or
// types (`from "m"`, `import("m")`, `require("m")`, `module "m"`, `path="m"`). Comments
// and strings that merely look so only add candidates.
func specifiers(data []byte) []string {
	var out []string
	for i, c := range data {
		if c != '"' && c != '\'' {
			continue
		}
		end := i + 1
		for end < len(data) && data[end] != '"' && data[end] != '\'' && data[end] != '\n' && data[end] != '\r' {
			end++
		}
		if end < len(data) && data[end] == c && afterKeyword(data, i) {
			out = append(out, string(data[i+1:end]))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// specKeywords are the words a module specifier follows.
var specKeywords = map[string]bool{"from": true, "import": true, "require": true, "module": true, "path": true, "types": true}

// afterKeyword reports whether the quote at i follows a specKeyword, with spaces, an
// opening parenthesis or an equals sign between.
func afterKeyword(data []byte, i int) bool {
	j := skipSpaceBack(data, i-1)
	if j >= 0 && data[j] == '(' {
		j = skipSpaceBack(data, j-1)
	}
	if j >= 0 && data[j] == '=' {
		j = skipSpaceBack(data, j-1)
	}
	end := j + 1
	for j >= 0 && (data[j] == '_' || data[j] == '$' || data[j] >= 'a' && data[j] <= 'z' || data[j] >= 'A' && data[j] <= 'Z' || data[j] >= '0' && data[j] <= '9') {
		j--
	}
	return specKeywords[string(data[j+1:end])]
}

func skipSpaceBack(data []byte, j int) int {
	for j >= 0 && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
		j--
	}
	return j
}

// exportChange follows a change of exports through a project's files.
type exportChange struct {
	reach   *reacher
	read    func(p string) ([]byte, error)
	specs   map[string][]string        // every source of the project: what it may import
	paths   map[string]map[string]bool // by module, the paths of names it exports that changed
	checked map[string]bool            // the unchanged files whose errors count
	trees   map[string]*syntax.Tree    // the importers read so far
	// added holds, by module, the names it exports now and did not (through `export
	// *` too); mentioned those of them some other file of the project holds: only
	// they may clash with a name another `export *` gives.
	added     map[string]map[string]bool
	mentioned map[string]bool
}

// follow spreads the changes in e.paths through the importers until nothing grows;
// ok is false when an importer cannot be read.
func (e *exportChange) follow() bool {
	files := make([]string, 0, len(e.specs))
	for f := range e.specs {
		files = append(files, f)
	}
	slices.Sort(files)
	for grown := true; grown; {
		grown = false
		for _, f := range files {
			if !e.hit(f) {
				continue
			}
			r, ok := e.importer(f)
			if !ok {
				return false
			}
			if r.checked && !e.checked[f] {
				e.checked[f], grown = true, true
			}
			grown = merge(e.paths, f, r.exports) || grown
			grown = merge(e.added, f, r.added) || grown
		}
	}
	return true
}

// merge adds names to m[f] and reports whether it grew.
func merge(m map[string]map[string]bool, f string, names map[string]bool) bool {
	grown := false
	for n := range names {
		if m[f] == nil {
			m[f] = map[string]bool{}
		}
		if !m[f][n] {
			m[f][n], grown = true, true
		}
	}
	return grown
}

// hit reports whether a specifier of f may lead to a changed module.
func (e *exportChange) hit(f string) bool {
	for _, s := range e.specs[f] {
		if len(e.changedAt(f, s)) > 0 {
			return true
		}
	}
	return false
}

// changedAt is the union of the changed paths of the modules spec, written in f, may
// lead to.
func (e *exportChange) changedAt(f, spec string) map[string]bool {
	return e.unionAt(e.paths, f, spec)
}

// unionAt is the union of m's sets of the modules spec, written in f, may lead to.
func (e *exportChange) unionAt(m map[string]map[string]bool, f, spec string) map[string]bool {
	r := e.reach.of(f, spec)
	var out map[string]bool
	for mod, ps := range m {
		if len(ps) == 0 || mod == f || !r.leads(mod) {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		for p := range ps {
			out[p] = true
		}
	}
	return out
}

// reached is what an importer makes of the changes it imports.
type reached struct {
	checked bool
	exports map[string]bool
	added   map[string]bool // the names it now exports through `export *`
	all     bool            // every export of its own changes
}

// binding is a local name an import binds, and the path of what it names in the
// module ("" for the namespace).
type binding struct {
	local, base string
	changed     map[string]bool
}

// importer reads how f takes the changes; ok is false when f cannot be read or parsed.
func (e *exportChange) importer(f string) (reached, bool) {
	t, ok := e.tree(f)
	if !ok {
		return reached{}, false
	}
	r := reached{exports: map[string]bool{}, added: map[string]bool{}}
	binds, skip, static := e.statements(f, t, &r)
	if e.wholeUses(f, t, static) {
		r.checked, r.all = true, true
	}
	r.uses(t, t.Src, binds, skip)
	if r.all {
		for _, n := range ownExports(t.Src, t) {
			r.exports[n] = true
		}
	}
	return r, true
}

// tree is f's syntax tree, parsed once.
func (e *exportChange) tree(f string) (*syntax.Tree, bool) {
	if t, ok := e.trees[f]; ok {
		return t, true
	}
	src, err := e.read(f)
	if err != nil {
		return nil, false
	}
	t, ok := parseIntact(f, src)
	if ok {
		e.trees[f] = t
	}
	return t, ok
}

// statements reads f's import and export-from statements: the bindings of changed
// modules' names, the statements' spans (not uses), and the specifiers they name.
func (e *exportChange) statements(f string, t *syntax.Tree, r *reached) (binds []binding, skip [][2]int, static map[string]bool) {
	src := t.Src
	packageStars := e.packageStars(f, src, t)
	static = map[string]bool{}
	for _, st := range t.Root.Children {
		spec, ps := e.statementSpec(f, src, st)
		if spec == "" {
			continue
		}
		static[spec] = true
		skip = append(skip, [2]int{st.Start, st.End})
		switch {
		case len(ps) == 0:
		case st.Kind == "export_statement":
			r.reexport(src, st, ps)
			if isStar(st) {
				e.starAdded(r, f, spec, packageStars)
			}
		default:
			for _, b := range importBindings(src, st) {
				b.changed = ps
				r.checked = r.checked || b.base != "" && ps[b.base] // the name itself came, went or changed
				binds = append(binds, b)
			}
		}
	}
	return binds, skip, static
}

// wholeUses reports whether f takes a changed module as a whole, beyond the
// statements: require(), import() (a type query too), an augmentation of it, a
// reference to it, or a specifier neither the statements nor the calls account for.
func (e *exportChange) wholeUses(f string, t *syntax.Tree, static map[string]bool) bool {
	accounted := maps.Clone(static)
	for _, imp := range syntax.Imports(t) {
		if topStatement(t, imp.Node) {
			continue // read by statements, unless nested (in a module declaration): then not
		}
		if len(e.changedAt(f, imp.Spec)) > 0 {
			return true
		}
		accounted[imp.Spec] = true
	}
	for _, m := range globalDecl.FindAllIndex(t.Src, -1) {
		if spec, ok := augmented(t.Src, m); ok && len(e.changedAt(f, spec)) > 0 {
			return true
		}
	}
	for _, s := range e.specs[f] {
		if !accounted[s] && len(e.changedAt(f, s)) > 0 {
			return true
		}
	}
	return false
}

// topStatement reports whether the specifier node spec is the source of a top-level
// import or export statement, the ones statements reads.
func topStatement(t *syntax.Tree, spec *syntax.Node) bool {
	p := spec.Parent
	if p != nil && p.Kind == "import_require_clause" {
		p = p.Parent
	}
	return p != nil && (p.Kind == "import_statement" || p.Kind == "export_statement") && p.Parent == t.Root
}

// parseIntact parses the file at p; ok is false when it does not parse, or when what
// tree-sitter cannot read (a grammar gap: variance annotations with a constraint) is
// not inside one top-level statement, whose kind and names are then still read.
func parseIntact(p string, src []byte) (*syntax.Tree, bool) {
	t, err := syntax.Parse(syntax.DialectOf(p), src)
	if err != nil {
		return nil, false
	}
	if len(t.Errors) == 0 {
		return t, true
	}
	for _, st := range t.Root.Children {
		if st.Kind == "ERROR" || st.Missing {
			return nil, false
		}
		if st.Kind == "export_statement" && st.Child("source") == nil && st.OfKind("export_clause") == nil &&
			st.OfKind("default") == nil && len(topNames(src, st.Child("declaration"))) == 0 {
			return nil, false
		}
	}
	return t, true
}

// statementSpec is the module an import or export-from statement names, and what
// changed there.
func (e *exportChange) statementSpec(f string, src []byte, st *syntax.Node) (string, map[string]bool) {
	var s *syntax.Node
	switch st.Kind {
	case "import_statement":
		if s = st.Child("source"); s == nil {
			if c := st.OfKind("import_require_clause"); c != nil {
				s = c.Child("source")
			}
		}
	case "export_statement":
		s = st.Child("source")
	}
	if s == nil {
		return "", nil
	}
	spec := unquote(s.Text(src))
	return spec, e.changedAt(f, spec)
}

// importBindings lists the names an import statement binds.
func importBindings(src []byte, st *syntax.Node) []binding {
	var out []binding
	if c := st.OfKind("import_require_clause"); c != nil {
		if id := c.OfKind("identifier"); id != nil {
			out = append(out, binding{local: id.Text(src)})
		}
		return out
	}
	clause := st.OfKind("import_clause")
	for _, c := range clause.NamedChildren() {
		switch c.Kind {
		case "identifier":
			out = append(out, binding{local: c.Text(src), base: "default"})
		case "namespace_import":
			if id := c.OfKind("identifier"); id != nil {
				out = append(out, binding{local: id.Text(src)})
			}
		case "named_imports":
			for _, s := range c.NamedChildren() {
				if s.Kind != "import_specifier" {
					continue
				}
				name := s.Child("name").Text(src)
				local := name
				if a := s.Child("alias"); a != nil {
					local = a.Text(src)
				}
				out = append(out, binding{local: local, base: unquote(name)})
			}
		}
	}
	return out
}

// reexport carries the changes ps of the module an export-from statement names into
// the file's exports.
func (r *reached) reexport(src []byte, st *syntax.Node, ps map[string]bool) {
	if ns := st.OfKind("namespace_export"); ns != nil { // export * as ns from
		name := ""
		if id := ns.OfKind("identifier"); id != nil {
			name = id.Text(src)
		} else if s := ns.OfKind("string"); s != nil {
			name = unquote(s.Text(src))
		}
		for p := range ps {
			r.exports[name+"."+p] = true
		}
		return
	}
	if c := st.OfKind("export_clause"); c != nil { // export { a as b } from
		for _, sp := range c.NamedChildren() {
			name := unquote(sp.Child("name").Text(src))
			alias := name
			if a := sp.Child("alias"); a != nil {
				alias = unquote(a.Text(src))
			}
			for p := range ps {
				if p == name {
					r.checked, r.exports[alias] = true, true
				} else if rest, ok := strings.CutPrefix(p, name+"."); ok {
					r.exports[alias+"."+rest] = true
				}
			}
		}
		return
	}
	for p := range ps { // export * from: every name but the default
		if p != "default" && !strings.HasPrefix(p, "default.") {
			r.exports[p] = true
		}
	}
}

// isStar reports whether st is `export * from`.
func isStar(st *syntax.Node) bool {
	return st.Kind == "export_statement" && st.Child("source") != nil && st.OfKind("namespace_export") == nil && st.OfKind("export_clause") == nil
}

// starAdded carries the names the module spec names now exports through f's `export *
// from spec`; f is checked when one of them may clash with a name another `export *`
// of f gives: one some other file of the project mentions, or any when f re-exports a
// package (packageStars), which the scan does not read.
func (e *exportChange) starAdded(r *reached, f, spec string, packageStars bool) {
	for n := range e.unionAt(e.added, f, spec) {
		if n == "default" {
			continue
		}
		r.added[n] = true
		if packageStars || e.mentioned[n] {
			r.checked = true
		}
	}
}

// packageStars reports whether f re-exports everything of a module the scan does not
// read (`export * from "pkg"`), directly or through a module of the project it
// re-exports everything of: the names such a module gives are unseen, any may clash.
func (e *exportChange) packageStars(f string, src []byte, t *syntax.Tree) bool {
	return e.starsUnseen(f, src, t, map[string]bool{f: true})
}

// starsUnseen is packageStars, seen holding the modules already followed; a module
// that cannot be read may give any name.
func (e *exportChange) starsUnseen(f string, src []byte, t *syntax.Tree, seen map[string]bool) bool {
	for _, st := range t.Root.Children {
		if !isStar(st) {
			continue
		}
		r := e.reach.of(f, unquote(st.Child("source").Text(src)))
		if len(r.stems) == 0 && len(r.dirs) == 0 {
			return true
		}
		for m := range e.specs {
			if seen[m] || !r.leads(m) {
				continue
			}
			seen[m] = true
			mt, ok := e.tree(m)
			if !ok || e.starsUnseen(m, mt.Src, mt, seen) {
				return true
			}
		}
	}
	return false
}

// uses finds, lexically, the uses of each binding outside the statements in skip: the
// path each names (`ns.a.b`: a.b under the binding's base) that overlaps a changed one
// makes the file checked; one outside a typed function body (its own exports may
// change) makes all its exports changed. An `export { b as c }` of a binding carries
// its changes into the file's exports as c.
func (r *reached) uses(t *syntax.Tree, src []byte, binds []binding, skip [][2]int) {
	if len(binds) == 0 {
		return
	}
	locals := map[string]bool{}
	for _, b := range binds {
		locals[b.local] = true
	}
	var bodies [][2]int
	at := map[string][]int{} // each binding's references
	t.Root.Walk(func(n *syntax.Node) bool {
		if b := typedBody(n); b != nil {
			bodies = append(bodies, [2]int{b.Start, b.End})
		}
		if n.Kind == "export_statement" && n.Child("source") == nil && r.exportLocal(src, n, binds) {
			skip = append(skip, [2]int{n.Start, n.End})
			return false
		}
		if referenceKinds[n.Kind] && locals[n.Text(src)] {
			at[n.Text(src)] = append(at[n.Text(src)], n.Start)
		}
		return true
	})
	for _, b := range binds {
		for _, o := range at[b.local] {
			if inSpans(o, skip) {
				continue
			}
			p := joinPath(b.base, chainAfter(src, o+len(b.local)))
			if !overlaps(p, b.changed) {
				continue
			}
			r.checked = true
			if !inSpans(o, bodies) {
				r.all = true
			}
		}
	}
}

// referenceKinds are the syntax tree's kinds of a name that may refer to an import
// (a declaration that shadows one included: it errs towards more).
var referenceKinds = map[string]bool{"identifier": true, "type_identifier": true,
	"shorthand_property_identifier": true, "shorthand_property_identifier_pattern": true}

// exportLocal carries the changes of the bindings an `export { … }` or an `export
// default b` names into the file's exports; false for another export statement.
func (r *reached) exportLocal(src []byte, st *syntax.Node, binds []binding) bool {
	if c := st.OfKind("export_clause"); c != nil {
		for _, sp := range c.NamedChildren() {
			name := sp.Child("name").Text(src)
			alias := name
			if a := sp.Child("alias"); a != nil {
				alias = unquote(a.Text(src))
			}
			r.exportAs(name, alias, binds)
		}
		return true
	}
	if v := st.Child("value"); st.OfKind("default") != nil && v != nil && v.Kind == "identifier" {
		r.exportAs(v.Text(src), "default", binds)
		return true
	}
	return false
}

// exportAs carries the changes of the binding named local into the export alias.
func (r *reached) exportAs(local, alias string, binds []binding) {
	for _, b := range binds {
		if b.local != local {
			continue
		}
		for p := range b.changed {
			switch {
			case b.base == "":
				r.exports[alias+"."+p] = true
			case p == b.base:
				r.exports[alias] = true
			default:
				if rest, ok := strings.CutPrefix(p, b.base+"."); ok {
					r.exports[alias+"."+rest] = true
				}
			}
		}
	}
}

func inSpans(at int, spans [][2]int) bool {
	for _, s := range spans {
		if at >= s[0] && at < s[1] {
			return true
		}
	}
	return false
}

func joinPath(base, chain string) string {
	switch {
	case base == "":
		return chain
	case chain == "":
		return base
	}
	return base + "." + chain
}

// overlaps reports whether the path p (what a use names; "" the namespace itself)
// and a changed path are one inside the other.
func overlaps(p string, changed map[string]bool) bool {
	if p == "" {
		return len(changed) > 0
	}
	for c := range changed {
		if c == p || strings.HasPrefix(c, p+".") || strings.HasPrefix(p, c+".") {
			return true
		}
	}
	return false
}

// chainRe is a member access after a name: `.a`, `?.a`, `!.a`.
var chainRe = regexp.MustCompile(`^\s*[!?]?\.\s*([A-Za-z_$][\w$]*)`)

// chainAfter reads the names of the member accesses that follow offset at, dotted.
func chainAfter(src []byte, at int) string {
	var parts []string
	for {
		m := chainRe.FindSubmatchIndex(src[at:])
		if m == nil {
			return strings.Join(parts, ".")
		}
		parts = append(parts, string(src[at+m[2]:at+m[3]]))
		at += m[1]
	}
}

// ownExports lists the names a module exports itself (not through export-from).
func ownExports(src []byte, t *syntax.Tree) []string {
	var out []string
	for _, st := range t.Root.Children {
		if st.Kind != "export_statement" || st.Child("source") != nil {
			continue
		}
		if st.OfKind("default") != nil {
			out = append(out, "default")
			continue
		}
		if d := st.Child("declaration"); d != nil {
			out = append(out, topNames(src, d)...)
		}
		if c := st.OfKind("export_clause"); c != nil {
			for _, sp := range c.NamedChildren() {
				n := sp.Child("alias")
				if n == nil {
					n = sp.Child("name")
				}
				out = append(out, unquote(n.Text(src)))
			}
		}
	}
	return out
}

// containsWord reports whether data holds w as a whole word.
func containsWord(data []byte, w string) bool {
	for i := 0; ; {
		k := bytes.Index(data[i:], []byte(w))
		if k < 0 {
			return false
		}
		at, end := i+k, i+k+len(w)
		if (at == 0 || !identByte(data[at-1])) && (end == len(data) || !identByte(data[end])) {
			return true
		}
		i = at + 1
	}
}

func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// readAll is what narrowing reads of a project for an export change: every source
// under its directory (node_modules, .git and, unless the project includes one, hidden
// directories aside), with what it may import; roots are those the project includes that
// may declare globals. A linked directory, which the compiler would follow and the walk
// does not, is an error: the scan would miss what it holds.
func readAll(fsys fs.FS, dir string, js bool, includes func(string) bool, hidden bool, visit func(p string, data []byte)) (specs map[string][]string, roots []string, err error) {
	specs = map[string][]string{}
	err = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && (d.Name() == "node_modules" || d.Name() == ".git" || !hidden && strings.HasPrefix(d.Name(), ".")) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if st, err := fs.Stat(fsys, p); err == nil && st.IsDir() {
				return fmt.Errorf("%s: a linked directory", p)
			}
		}
		if !source(p, js) {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		specs[p] = specifiers(data)
		visit(p, data)
		if includes(p) && global(data) {
			roots = append(roots, p)
		}
		return nil
	})
	return specs, roots, err
}

// includesHidden reports whether the project's include patterns name a hidden
// directory or file (a pattern's segment starting with a dot), which the compiler then
// reads.
func includesHidden(patterns []string) bool {
	for _, p := range patterns {
		for _, seg := range strings.Split(p, "/") {
			if strings.HasPrefix(seg, ".") && seg != "." && seg != ".." {
				return true
			}
		}
	}
	return false
}
