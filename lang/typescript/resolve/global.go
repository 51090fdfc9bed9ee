package resolve

import (
	"bytes"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
	"github.com/agentverify/agentverify/lazyregexp"
)

// A global declaration the change adds vouches for nothing either. `declare global {
// function invented(): void }`, a top-level `declare function/var/const/let/class/enum/
// namespace` (in a script or a .d.ts the change adds or edits, in a module too: the name
// is looked up among the globals at run time), or a member added to an interface whose
// members are run-time values (`interface Window { invented(): void }`, `interface
// Array<T> { toSorted(): T[] }`) makes the compiler accept a call to something no
// runtime has. So what they add against the base is blanked as for module declarations,
// and the call is checked as if the declaration were absent (undefined, unknown-member,
// api-too-new). What stays: declarations the base has (in any file the change touches:
// a declaration moved from one file to another is not new), types (interfaces other
// than those, type aliases, namespaces of types such as NodeJS.ProcessEnv), and the
// declaration of a global the change itself defines at run time (a polyfill: an
// assignment to globalThis.x, window.x, self.x, global.x or X.prototype.x, or
// Object.defineProperty on them). A global that a <script> tag or the bundler provides
// (`declare const __APP_VERSION__`, window.dataLayer) cannot be told from an invented
// one: its declaration counts once the base has it (the safe default).

// item is one unit of a file's ambient declarations that can be blanked: a value
// statement of a module declaration (or a whole shorthand or catch-all declaration), a
// value statement of the global scope, a member of a value interface.
type item struct {
	scope string // where it declares: `module "x"`, "global", "global Window", "global ns N"
	text  string // its text, blanks squeezed (how the base's copy is recognised)
	node  *syntax.Node
	// module is the module name of a module declaration's item; names are the globals
	// a global item declares (none: it is never defined by the change).
	module string
	names  []string
	// label names a global item in messages ("invented", "Window.invented").
	label string
	// decl is where the vouch points: the module declaration, or the item itself.
	decl *syntax.Node
	// sep is the separator after an interface member or an export specifier, blanked
	// with it (a lone ";" in an interface is a syntax error).
	sep *syntax.Node
	// export is set for an export of a declaration file (sibling.go); stub for one whose
	// blanked statement becomes `export{}`.
	export, stub bool
}

// vouch is what blanking the item at file p is reported as.
func (it item) vouch(p string) vouch {
	return vouch{module: it.module, global: it.label, at: lang.Location{File: p, Line: it.decl.Pos.Line, Column: it.decl.Pos.Column}}
}

// mayDeclare reports whether src, the file at p, may hold declarations to weigh (a
// cheap test before the parse): `declare`, an interface in a file with no import or
// export (a script, whose interfaces are global), or a declaration file's exports.
func mayDeclare(p string, src []byte) bool {
	return bytes.Contains(src, []byte("declare")) || syntax.IsDeclaration(p) && bytes.Contains(src, []byte("export")) ||
		bytes.Contains(src, []byte("interface")) && !bytes.Contains(src, []byte("import")) && !bytes.Contains(src, []byte("export"))
}

// ambientItems lists the blankable items of a file's module and global declarations.
func ambientItems(root *syntax.Node, src []byte) []item {
	var out []item
	script := isScript(root)
	root.Walk(func(n *syntax.Node) bool {
		if n.Kind == "interface_declaration" && n.Parent == root && script {
			out = interfaceItems(out, src, "global", n) // a script's interfaces are global
			return false
		}
		if n.Kind != "ambient_declaration" {
			return true
		}
		switch {
		case n.OfKind("global") != nil:
			for _, st := range n.OfKind("statement_block").NamedChildren() {
				out = globalItems(out, src, "global", st, st)
			}
			return false
		case moduleName(n, src) != "":
			out = moduleItems(out, src, n)
		case n.Parent == root:
			if d := n.NamedChildren(); len(d) == 1 {
				out = globalItems(out, src, "global", d[0], n)
			}
			return false
		}
		return true
	})
	return out
}

// isScript reports whether a file is a script (no top-level import or export): its
// declarations are global.
func isScript(root *syntax.Node) bool {
	for _, c := range root.Children {
		if c.Kind == "import_statement" || c.Kind == "export_statement" {
			return false
		}
	}
	return true
}

// moduleName is the name of the `declare module "x"` an ambient declaration is, or "".
func moduleName(n *syntax.Node, src []byte) string {
	m := n.OfKind("module")
	if m == nil {
		return ""
	}
	if name := m.Child("name"); name != nil && name.Kind == "string" {
		return stringValue(src, name)
	}
	return ""
}

// moduleItems adds what a `declare module "x"` (the ambient declaration n) could vouch
// with: its value statements, or the whole of a shorthand or catch-all declaration.
func moduleItems(out []item, src []byte, n *syntax.Node) []item {
	m := n.OfKind("module")
	name := moduleName(n, src)
	scope := "module " + name
	body := m.Child("body")
	if body == nil || catchAll(name) {
		return append(out, item{scope: scope, text: squeeze(n.Text(src)), node: n, module: name, decl: m})
	}
	for _, st := range body.NamedChildren() {
		if !typeLevel(st) {
			out = append(out, item{scope: scope, text: squeeze(st.Text(src)), node: st, module: name, decl: m})
		}
	}
	return out
}

// globalItems adds what the statement st of a global scope declares at run time; whole
// is what blanks it (the ambient declaration around a top-level one).
func globalItems(out []item, src []byte, scope string, st, whole *syntax.Node) []item {
	switch st.Kind {
	case "expression_statement": // the grammar's wrapping of a namespace in a block
		if in := st.NamedChildren(); len(in) == 1 && in[0].Kind == "internal_module" {
			return namespaceItems(out, src, scope, in[0], st)
		}
	case "internal_module", "module":
		return namespaceItems(out, src, scope, st, whole)
	case "export_statement":
		if d := st.Child("declaration"); d != nil {
			return globalItems(out, src, scope, d, st)
		}
	case "interface_declaration":
		return interfaceItems(out, src, scope, st)
	}
	if typeLevel(st) {
		return out
	}
	names := declaredNames(st, src)
	return append(out, item{scope: scope, text: squeeze(st.Text(src)), node: whole, names: names, label: first(names), decl: st})
}

// namespaceItems adds the value statements of a namespace of the global scope (and the
// whole of one without a body).
func namespaceItems(out []item, src []byte, scope string, ns, whole *syntax.Node) []item {
	name := ns.Child("name").Text(src)
	body := ns.Child("body")
	if body == nil {
		return append(out, item{scope: scope, text: squeeze(ns.Text(src)), node: whole, names: []string{name}, label: name, decl: ns})
	}
	for _, st := range body.NamedChildren() {
		out = globalItems(out, src, scope+" ns "+name, st, st)
	}
	return out
}

// interfaceItems adds the members of a global interface whose members are run-time
// values (valueInterfaces), and the whole interface when it extends another (whose
// members it would take).
func interfaceItems(out []item, src []byte, scope string, st *syntax.Node) []item {
	name := st.Child("name").Text(src)
	if scope != "global" || !valueInterfaces[name] {
		return out
	}
	if st.OfKind("extends_type_clause") != nil {
		return append(out, item{scope: scope, text: squeeze(st.Text(src)), node: st, label: name, decl: st})
	}
	for _, m := range st.Child("body").NamedChildren() {
		if m.Kind == "comment" {
			continue
		}
		var names []string
		label := name
		if n := m.Child("name"); n != nil && m.Kind != "index_signature" {
			names = []string{unquote(n.Text(src))}
			label += "." + names[0]
		}
		out = append(out, item{scope: scope + " " + name, text: squeeze(m.Text(src)), node: m, names: names, label: label, decl: m, sep: separator(m)})
	}
	return out
}

// separator is the ";" or "," after an interface member, or nil.
func separator(m *syntax.Node) *syntax.Node {
	sib := m.Parent.Children
	for i, c := range sib {
		if c == m && i+1 < len(sib) && (sib[i+1].Kind == ";" || sib[i+1].Kind == ",") {
			return sib[i+1]
		}
	}
	return nil
}

// declaredNames are the names a value declaration declares.
func declaredNames(st *syntax.Node, src []byte) []string {
	if n := st.Child("name"); n != nil {
		return []string{n.Text(src)}
	}
	var out []string
	for _, d := range st.NamedChildren() {
		if d.Kind == "variable_declarator" {
			out = append(out, d.Child("name").Text(src))
		}
	}
	return out
}

func first(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}

// valueInterfaces are the global interfaces of the standard library (lib.*.d.ts) whose
// members are run-time values: the global object's (a member of Window is a global) and
// the built-in objects' and prototypes' (a member of Array is a method every array has).
// A member a change adds to one of them is a value it claims exists. Other interfaces
// declare types, and merging into them is how a project types what it has.
var valueInterfaces = map[string]bool{
	"Window": true, "WindowOrWorkerGlobalScope": true, "WorkerGlobalScope": true, "DedicatedWorkerGlobalScope": true,
	"ServiceWorkerGlobalScope": true, "Document": true, "Navigator": true, "Location": true, "History": true, "Storage": true,
	"Console": true, "Performance": true, "Crypto": true, "SubtleCrypto": true, "Element": true, "HTMLElement": true,
	"Node": true, "EventTarget": true, "Event": true, "Response": true, "Request": true, "Headers": true, "URL": true,
	"URLSearchParams": true, "Array": true, "ReadonlyArray": true, "ArrayConstructor": true, "String": true,
	"StringConstructor": true, "Number": true, "NumberConstructor": true, "Boolean": true, "Object": true,
	"ObjectConstructor": true, "Function": true, "CallableFunction": true, "Promise": true, "PromiseConstructor": true,
	"Map": true, "MapConstructor": true, "ReadonlyMap": true, "Set": true, "SetConstructor": true, "ReadonlySet": true,
	"WeakMap": true, "WeakSet": true, "Date": true, "DateConstructor": true, "RegExp": true, "RegExpConstructor": true,
	"Error": true, "ErrorConstructor": true, "Math": true, "JSON": true, "Symbol": true, "SymbolConstructor": true,
	"BigInt": true, "BigIntConstructor": true, "Iterator": true, "IteratorObject": true, "AsyncIterator": true,
	"Uint8Array": true, "ArrayBuffer": true, "Intl": true, "Reflect": true, "Atomics": true, "Blob": true,
	"FormData": true, "AbortSignal": true, "AbortController": true,
}

// pool is what the base declares, by scope and text, over every file the change
// touches, and what the change defines at run time. A base declaration counts for the
// head first in its own file; only one its file no longer has (moved out, or the file
// deleted or renamed) counts for another file: a declaration moved from one file to
// another is not new, a copy of one that stays where it was is. Both are read when
// first asked for: most changes declare nothing.
type pool struct {
	parse parser
	// bases and heads are the changed files' contents (bases by their base path), read
	// into own, moved and defined.
	bases, heads map[string][]byte
	own          map[string]declared // by file: the base's declarations of it
	moved        declared            // the base's declarations their file no longer has
	defined      map[string]bool
	trees        map[string]*syntax.Tree // the heads parsed, by path
}

// declared counts texts by scope.
type declared map[string]int

// newPool returns the pool of a change's files.
func newPool(bases, heads map[string][]byte, parse parser) *pool {
	return &pool{parse: parse, bases: bases, heads: heads, trees: map[string]*syntax.Tree{}}
}

// tree parses src, the head of the file at p, once.
func (pl *pool) tree(p string, src []byte) (*syntax.Tree, error) {
	if t, ok := pl.trees[p]; ok && bytes.Equal(t.Src, src) {
		return t, nil
	}
	t, err := pl.parse(syntax.DialectOf(p), src)
	if err == nil {
		pl.trees[p] = t
	}
	return t, err
}

// take reports whether the base has one more declaration of text in scope than the
// head has taken already, in the file at p itself or moved out of another, and takes it.
func (pl *pool) take(p, scope, text string) bool {
	if pl.own == nil {
		pl.read()
	}
	k := scope + "\x00" + text
	for _, d := range []declared{pl.own[p], pl.moved} {
		if d[k] > 0 {
			d[k]--
			return true
		}
	}
	return false
}

// read reads the declarations of the bases, and counts as moved those their file's head
// no longer has. A base file whose tree cannot be read adds nothing (its declarations
// count as new).
func (pl *pool) read() {
	pl.own, pl.moved = map[string]declared{}, declared{}
	for p, src := range pl.bases {
		had := pl.declarations(p, src, func(p string, src []byte) (*syntax.Tree, error) { return pl.parse(syntax.DialectOf(p), src) })
		if len(had) == 0 {
			continue
		}
		pl.own[p] = had
		kept := declared{}
		if head, ok := pl.heads[p]; ok {
			kept = pl.declarations(p, head, pl.tree)
		}
		for k, n := range had {
			pl.moved[k] += max(n-kept[k], 0)
		}
	}
}

// declarations counts the items of the file at p (read by parse) by scope and text.
func (pl *pool) declarations(p string, src []byte, parse func(string, []byte) (*syntax.Tree, error)) declared {
	if syntax.IsJS(p) || !mayDeclare(p, src) {
		return nil
	}
	tree, err := parse(p, src)
	if err != nil {
		return nil
	}
	had := declared{}
	for _, it := range declarationItems(p, tree.Root, src, nil) {
		had[it.scope+"\x00"+it.text]++
	}
	return had
}

// definesAll reports whether the change defines every one of names at run time (none:
// false).
func (pl *pool) definesAll(names []string) bool {
	if len(names) == 0 {
		return false
	}
	if pl.defined == nil {
		pl.defined = map[string]bool{}
		for p, src := range pl.heads {
			definitions(pl.defined, p, src, pl.parse)
		}
	}
	return !slices.ContainsFunc(names, func(n string) bool { return !pl.defined[n] })
}

// definesMaybe is a cheap test before the parse: a member of the global object or of a
// prototype, or defineProperty.
var definesMaybe = lazyregexp.New(`\b(globalThis|window|self|global)\s*[.\[]|\.prototype\b|defineProperty`)

// globalObjects are the names the global object goes by.
var globalObjects = map[string]bool{"globalThis": true, "window": true, "self": true, "global": true}

// definitions adds the globals the file at p defines at run time: assignments to a
// member of the global object or of a prototype, and Object.defineProperty on them.
func definitions(out map[string]bool, p string, src []byte, parse parser) {
	if !definesMaybe.Match(src) {
		return
	}
	tree, err := parse(syntax.DialectOf(p), src)
	if err != nil {
		return // nothing counts as defined: the declarations stay blanked
	}
	tree.Root.Walk(func(n *syntax.Node) bool {
		switch n.Kind {
		case "assignment_expression", "augmented_assignment_expression":
			if name := memberOfGlobal(n.Child("left"), src); name != "" {
				out[name] = true
			}
		case "call_expression":
			if name := definedProperty(n, src); name != "" {
				out[name] = true
			}
		}
		return true
	})
}

// memberOfGlobal is the property name of globalThis.x, window["x"], X.prototype.x, or "".
func memberOfGlobal(n *syntax.Node, src []byte) string {
	if n == nil || (n.Kind != "member_expression" && n.Kind != "subscript_expression") || !globalTarget(n.Child("object"), src) {
		return ""
	}
	if p := n.Child("property"); p != nil {
		return p.Text(src)
	}
	if i := n.Child("index"); i != nil && i.Kind == "string" {
		return stringValue(src, i)
	}
	return ""
}

// globalTarget reports whether n is the global object or a prototype.
func globalTarget(n *syntax.Node, src []byte) bool {
	n = n.Unparen()
	if n == nil {
		return false
	}
	if n.Kind == "identifier" {
		return globalObjects[n.Text(src)]
	}
	return n.Kind == "member_expression" && n.Child("property").Text(src) == "prototype"
}

// definedProperty is x of Object.defineProperty(target, "x", …) (or Reflect's) on the
// global object or a prototype, or "".
func definedProperty(call *syntax.Node, src []byte) string {
	fn := call.Child("function")
	if fn == nil || fn.Kind != "member_expression" || fn.Child("property").Text(src) != "defineProperty" {
		return ""
	}
	args := call.Child("arguments").NamedChildren()
	if len(args) < 2 || !globalTarget(args[0], src) || args[1].Kind != "string" {
		return ""
	}
	return stringValue(src, args[1])
}

// libReference matches a `/// <reference lib="…" />` directive, which adds a library to
// the whole program as raising tsconfig's lib would (tsconfig/weaken.go): one the change
// adds would make an API newer than the project's target compile.
var libReference = lazyregexp.New(`^\s*///\s*<reference\s+lib\s*=`)

// unreferenced returns src (of the file at p) with every lib reference that base does
// not have on a line of the same content made inert ("<referenc_", same length: a plain
// comment), and the references it defused.
func unreferenced(p string, src, base []byte) ([]byte, []vouch) {
	if !bytes.Contains(src, []byte("lib")) || !bytes.Contains(src, []byte("<reference")) {
		return src, nil
	}
	var vs []vouch
	out := newLines(src, base, libReference, func(i int, l []byte) []byte {
		vs = append(vs, vouch{lib: strings.TrimSpace(string(l)), at: lang.Location{File: p, Line: i + 1, Column: 1}})
		return bytes.Replace(l, []byte("<reference"), []byte("<referenc_"), 1)
	})
	return out, vs
}
