package resolve

import (
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/lang/commonlisp/asdf"
	"github.com/agentverify/agentverify/lang/commonlisp/cltable"
	"github.com/agentverify/agentverify/lang/commonlisp/index"
	"github.com/agentverify/agentverify/lang/commonlisp/lambdalist"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// origin is where a package of the world comes from.
type origin uint8

const (
	fromCL      origin = iota // COMMON-LISP: symbols from cltable
	fromBuiltin               // SBCL and ASDF: symbols from the generated table, or unlisted
	fromProject               // defined by the project's files
	fromDep                   // defined by a dependency found in the source registry
)

// pkg is a package of the world, with what its symbols resolve to.
type pkg struct {
	name    string
	origin  origin
	system  string // the dependency that defines it (fromDep)
	use     []string
	imports map[string]string // symbol name → package name as written
	shadow  map[string]bool
	exports map[string]bool
	// listed is set when exports is the package's whole export list.
	listed         bool
	reexport       []string
	localNicknames map[string]string
	builtin        *builtinPackage
	incomplete     bool // a source file of its system did not read cleanly
}

// fdef is what the world knows of a name in function position in one package.
type fdef struct {
	function, macro, generic bool
	// lambda is the lambda list calls are checked against; nil when there is none or
	// the definitions disagree.
	lambda   *lambdalist.List
	lambdas  map[string]bool
	methods  bool
	fromDeps bool
}

// world is everything a Lisp file of a project can refer to: the project's packages and
// definitions, its declared dependencies', SBCL's and ASDF's, and COMMON-LISP.
type world struct {
	pkgs  map[string]*pkg // by name and nickname
	funcs map[string]*fdef
	setf  map[string]bool
	// maybe holds the names that a top-level form of a project macro may define, e.g.
	// BAR of (define-foo bar …): calls to them are not reported; derived holds those of
	// def… macros, whose expansions often define names made from them (WITH-BAR).
	maybe, derived map[string]bool
	// names are the project's function and macro names, for suggestions.
	names map[string]bool
	// included are the accessor prefixes of structures that :include another, whose
	// inherited slots' accessors the index does not list: names with them are not
	// reported.
	included map[string]bool
	// hasASD is set when the files belong to a system of an .asd file.
	hasASD   bool
	declared map[string]bool
	self     map[string]bool
	missing  []string
	deps     *Deps
	// dispatch holds the dispatch macro sub-characters the project defines (upper case);
	// made the names of packages made where the index does not look (macro templates).
	dispatch, made map[string]bool
	// macros are the names of the project's macros.
	macros map[string]bool
	// unread holds the text of the project files that did not read cleanly.
	unread [][]byte
	// verdicts caches what an unknown package name turned out to be.
	verdicts map[string]*verdict
	// undeclaredSystems are the systems reported as undeclared dependencies.
	undeclaredSystems map[string]bool
}

func newWorld(deps *Deps) *world {
	w := &world{pkgs: map[string]*pkg{}, funcs: map[string]*fdef{}, setf: map[string]bool{}, maybe: map[string]bool{}, derived: map[string]bool{},
		names: map[string]bool{}, included: map[string]bool{}, declared: map[string]bool{}, self: map[string]bool{}, deps: deps,
		verdicts: map[string]*verdict{}, dispatch: map[string]bool{}, made: map[string]bool{}, macros: map[string]bool{},
		undeclaredSystems: map[string]bool{}}
	w.add(&pkg{name: "COMMON-LISP", origin: fromCL, listed: true}, "CL")
	w.add(&pkg{name: "KEYWORD", origin: fromBuiltin}, "")
	// The packages scripts and .asd files are read in hold the project's definitions.
	w.add(&pkg{name: "COMMON-LISP-USER", origin: fromProject, use: clUserUses}, "CL-USER")
	w.add(&pkg{name: "ASDF-USER", origin: fromProject, use: []string{"COMMON-LISP", "ASDF", "UIOP"}}, "")
	for i := range builtinPackages {
		b := &builtinPackages[i]
		use := []string{"COMMON-LISP"}
		if b.Name == "ASDF/INTERFACE" {
			use = append(use, "UIOP")
		}
		w.add(&pkg{name: b.Name, origin: fromBuiltin, listed: true, builtin: b, use: use}, "")
		for _, n := range b.Nicknames {
			w.pkgs[n] = w.pkgs[b.Name]
		}
	}
	return w
}

// add adds p under its name and nickname unless a package of that name is known.
func (w *world) add(p *pkg, nickname string) {
	if _, ok := w.pkgs[p.name]; !ok {
		w.pkgs[p.name] = p
	}
	if _, ok := w.pkgs[nickname]; nickname != "" && !ok {
		w.pkgs[nickname] = p
	}
}

// addPackages adds the packages a project or dependency defines.
func (w *world) addPackages(ps []index.Package, o origin, sys string, incomplete bool) {
	for _, ip := range ps {
		if _, ok := w.pkgs[ip.Name]; ok {
			continue
		}
		p := &pkg{name: ip.Name, origin: o, system: sys, use: ip.Use, imports: map[string]string{},
			shadow: map[string]bool{}, exports: map[string]bool{}, listed: true, reexport: ip.Reexport,
			localNicknames: ip.LocalNicknames, incomplete: incomplete}
		if ip.Via == "uiop:define-package" && !hasUse(ip) {
			p.use = []string{"COMMON-LISP"} // define-package's default; defpackage's is none
		}
		for _, imp := range append(append([]index.Import(nil), ip.ImportFrom...), ip.ShadowingImportFrom...) {
			for _, s := range imp.Symbols {
				p.imports[s.Name] = imp.Package
			}
		}
		for _, s := range ip.Shadow {
			p.shadow[s] = true
		}
		for _, s := range ip.Export {
			p.exports[s.Name] = true
		}
		w.pkgs[p.name] = p
		for _, n := range ip.Nicknames {
			if _, ok := w.pkgs[n]; !ok {
				w.pkgs[n] = p
			}
		}
	}
}

// addExports adds what top-level export forms export to the packages of origin o they
// name (a package of another origin, or none, is not the project's to extend).
func (w *world) addExports(exports []index.Export, o origin) {
	for _, e := range exports {
		p := w.pkgs[e.Package]
		if p == nil || p.origin != o {
			continue
		}
		for _, s := range e.Symbols {
			p.exports[s.Name] = true
		}
	}
}

// hasUse reports whether a define-package form had a :use option (index.Package merges
// :use, :mix and :use-reexport into Use, so an empty Use means none).
func hasUse(ip index.Package) bool { return len(ip.Use) > 0 }

// addDefs records the definitions of a project or dependency.
func (w *world) addDefs(defs []index.Definition, fromDeps bool) {
	including := map[*reader.Form]bool{}
	for _, d := range defs {
		if d.Kind == index.Structure {
			if prefix := includePrefix(d); prefix != "" {
				w.included[prefix] = true
				including[d.Form] = true
			}
		}
		if including[d.Form] && strings.HasSuffix(d.Via, ":constructor") {
			d.Lambda = nil // it takes the included structure's slots too
		}
		if d.Kind == index.SetfExpander && d.Package != "" {
			w.setf[w.key(d.Package, d.Name)] = true
		}
		if d.Package == "" || !d.Kind.Callable() {
			continue
		}
		key := w.key(d.Package, d.Name)
		if d.Setf {
			w.setf[key] = true
			continue
		}
		fd := w.funcs[key]
		if fd == nil {
			fd = &fdef{lambdas: map[string]bool{}, fromDeps: fromDeps}
			w.funcs[key] = fd
		}
		fd.merge(d)
		if !fromDeps {
			w.names[strings.ToLower(d.Name)] = true
			w.macros[d.Name] = w.macros[d.Name] || d.Kind == index.Macro
		}
	}
}

// includePrefix returns the accessor prefix of a defstruct that has an :include option,
// "" when it has none or no prefix.
func includePrefix(d index.Definition) string {
	if d.Form == nil || len(d.Form.Items) < 2 || d.Form.Items[1].Kind != reader.List {
		return ""
	}
	prefix, include := d.Name+"-", false
	for _, o := range d.Form.Items[1].Items[1:] {
		switch {
		case o.Kind != reader.List || len(o.Items) == 0:
		case o.Items[0].IsKeyword("INCLUDE"):
			include = true
		case o.Items[0].IsKeyword("CONC-NAME"):
			prefix = ""
			if len(o.Items) > 1 && o.Items[1].Kind != reader.List && !o.Items[1].IsSymbol("NIL") {
				prefix = o.Items[1].Name
			}
		}
	}
	if !include {
		return ""
	}
	return prefix
}

// includedAccessor reports whether name may be the accessor of a slot a structure
// inherits through :include.
func (w *world) includedAccessor(name string) bool {
	for p := range w.included {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// merge adds one definition of the name.
func (fd *fdef) merge(d index.Definition) {
	switch d.Kind {
	case index.Macro:
		fd.macro = true
	case index.Generic:
		fd.generic, fd.function = true, true
	case index.Method:
		fd.methods, fd.function = true, true
		return // a method's lambda list is congruent with its generic function's, not it
	default:
		fd.function = true
	}
	if d.Lambda == nil {
		fd.lambdas["?"] = true
		return
	}
	fd.lambdas[d.Lambda.String()] = true
	fd.lambda = d.Lambda
}

// checked returns the lambda list a call is checked against, nil when there is no single
// one (several definitions disagree, methods without a defgeneric, also a macro).
func (fd *fdef) checked() *lambdalist.List {
	if fd.fromDeps && fd.macro {
		return nil
	}
	if fd.macro || len(fd.lambdas) != 1 || fd.lambdas["?"] || fd.methods && !fd.generic {
		return nil
	}
	return fd.lambda
}

// key is the canonical "PACKAGE::NAME" of a symbol.
func (w *world) key(pkgName, name string) string {
	if p := w.pkgs[pkgName]; p != nil {
		pkgName = p.name
	}
	return pkgName + "::" + name
}

// noteMacroDefined records the names top-level forms of non-CL operators may define:
// their first two arguments when symbols or strings (a C name "strlen" as STRLEN), or the
// elements of a list there ((define-foo (bar …)), ("strlen" c-strlen)).
func (w *world) noteMacroDefined(forms []*reader.Form) {
	for _, f := range forms {
		head := f.Head()
		if head == nil || head.Kind != reader.Symbol {
			continue
		}
		if head.IsSymbol("PROGN") || head.IsSymbol("EVAL-WHEN") {
			w.noteMacroDefined(f.Items[1:])
			continue
		}
		if _, cl := cltable.Lookup(head.Name); cl && (head.Package == "" || head.Package == "CL" || head.Package == "COMMON-LISP") {
			continue
		}
		def := strings.HasPrefix(head.Name, "DEF") || w.macros[head.Name]
		w.noteSlotFunctions(f.Items[1:], 0)
		for _, x := range f.Items[1:min(len(f.Items), 3)] {
			xs := []*reader.Form{x}
			if x.Kind == reader.List {
				xs = x.Items
			}
			for _, y := range xs {
				w.noteName(y, def)
			}
		}
	}
}

// slotOptions are the options that name a function in a class-like form.
var slotOptions = map[string]bool{"READER": true, "WRITER": true, "ACCESSOR": true}

// noteSlotFunctions records the functions :reader, :writer and :accessor options name
// anywhere in a macro form (a define-foreign-type's slots).
func (w *world) noteSlotFunctions(xs []*reader.Form, depth int) {
	if depth > 16 {
		return
	}
	for i, x := range xs {
		if x.Kind == reader.List {
			w.noteSlotFunctions(x.Items, depth+1)
		}
		if x.Kind == reader.Symbol && x.Package == reader.Keyword && slotOptions[x.Name] && i+1 < len(xs) && xs[i+1].Kind == reader.Symbol {
			w.maybe[xs[i+1].Name] = true
		}
	}
}

// noteName records one name a macro form may define.
func (w *world) noteName(x *reader.Form, def bool) {
	var name string
	switch {
	case x.Kind == reader.Symbol && x.Package != reader.Keyword:
		name = x.Name
	case x.Kind == reader.String:
		name = strings.ToUpper(strings.ReplaceAll(x.Name, "_", "-"))
	default:
		return
	}
	w.maybe[name] = true
	if def && len(name) >= 4 {
		w.derived[name] = true
	}
}

// mayBeDefined reports whether a project macro may define name: a name a top-level form
// names, or one made of a def… form's name and other words (WITH-RUN-STATE from
// (def-special-environment run-state …)).
func (w *world) mayBeDefined(name string) bool {
	if w.maybe[name] {
		return true
	}
	for d := range w.derived {
		if i := strings.Index(name, d); i >= 0 && (i == 0 || name[i-1] == '-') &&
			(i+len(d) == len(name) || name[i+len(d)] == '-') {
			return true
		}
	}
	return false
}

// projectFile is one Lisp file of the project as read for the world.
type projectFile struct {
	path string
	src  []byte
	rf   *reader.File
	ix   *index.File
	asd  bool
}

// systemDir returns the directory of the nearest .asd file at or above file's directory
// in head, and whether there is one.
func systemDir(head fs.FS, file string) (string, bool) {
	dir := path.Dir(file)
	for {
		if ents, err := fs.ReadDir(head, dir); err == nil {
			for _, e := range ents {
				if !e.IsDir() && strings.HasSuffix(strings.ToLower(e.Name()), ".asd") {
					return dir, true
				}
			}
		}
		if dir == "." || dir == "/" || dir == "" {
			return path.Dir(file), false
		}
		dir = path.Dir(dir)
	}
}

// Limits on the project files read for a world, so a huge tree cannot stall a check.
const (
	maxProjectFiles = 4000
	maxProjectBytes = 64 << 20
)

// lispFile reports whether a path names a Common Lisp source or system file.
func lispFile(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".lisp", ".lsp", ".cl", ".asd":
		return true
	}
	return false
}

// projectPaths lists the Lisp files of the world rooted at dir: every one below it when
// it has an .asd file, else those in dir itself.
func projectPaths(head fs.FS, dir string, tree bool) []string {
	var out []string
	var size int64
	_ = fs.WalkDir(head, dir, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case e.IsDir() && p != dir && (!tree || strings.HasPrefix(e.Name(), ".")):
			return fs.SkipDir
		case e.IsDir() || !lispFile(p) || len(out) >= maxProjectFiles:
			return nil
		}
		if info, err := e.Info(); err == nil && e.Type().IsRegular() {
			size += info.Size()
			if size <= maxProjectBytes {
				out = append(out, p)
			}
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// declare records the systems of the .asd files and their dependencies.
func (w *world) declare(a *asdf.ASD) {
	for _, s := range a.Systems {
		w.self[s.Name] = true
	}
	for _, s := range a.Systems {
		for _, d := range append(append([]asdf.Dependency(nil), s.DefsystemDependsOn...), s.DependsOn...) {
			w.declared[d.Name] = true
		}
	}
}

// selfSystem reports whether name is a system of the project or one of its
// subsystems ("foo/tests").
func (w *world) selfSystem(name string) bool {
	primary, _, _ := strings.Cut(name, "/")
	return w.self[name] || w.self[primary]
}
