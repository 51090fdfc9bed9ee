package resolve

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/lang/typescript/npm"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// A declaration file beside a JavaScript module of the project (src/util.d.ts beside
// src/util.js) is what the compiler takes for the module: it resolves "./util" to the
// .d.ts and never reads the .js. So an export a changed declaration file declares that
// the .js does not have (`export declare function invented(): void`) makes the compiler
// vouch for an API that does not exist at run time. The exports such a file adds against
// the base (by text, as for ambient declarations: pool) are weighed against the exports
// read from the .js as the head has it (npm.FileExports: ESM export statements and
// CommonJS exports, relative re-exports followed; never run): a statement exporting a
// name the .js does not export is blanked (`export{}` in its place, so the file stays a
// module), and the import is checked as if it were absent: unknown-symbol, the message
// naming the change's declaration. What stays: names the .js exports, types (interfaces,
// type aliases, `export type`), `export =`, `export *` and `export as namespace`
// (a whole module or another's: not weighed here), and everything beside a .js whose
// exports cannot be listed (module.exports set to a function or a computed value).

// jsSiblings are the JavaScript files the declaration file at p may type: x.d.ts types
// x.js (or x.jsx), x.d.mts x.mjs, x.d.cts x.cjs.
func jsSiblings(p string) []string {
	for _, ext := range []struct{ decl, js string }{{".d.ts", ".js"}, {".d.mts", ".mjs"}, {".d.cts", ".cjs"}} {
		if stem, ok := strings.CutSuffix(p, ext.decl); ok {
			if ext.js == ".js" {
				return []string{stem + ".js", stem + ".jsx"}
			}
			return []string{stem + ext.js}
		}
	}
	return nil
}

// siblingExports returns the exports of the JavaScript module, in the head, that the
// declaration file at p types; nil when there is none or its exports cannot be listed.
func (j *job) siblingExports(p string) *npm.Exports {
	set := j.req.Changes
	if set.HeadFS == nil && set.Root == "" {
		return nil
	}
	fsys := j.headFS()
	for _, js := range jsSiblings(p) {
		if st, err := fs.Stat(fsys, js); err == nil && st.Mode().IsRegular() {
			if x := npm.FileExports(fsys, js); !x.Open {
				return x
			}
			return nil
		}
	}
	return nil
}

// declarationItems lists the blankable items of the file at p: its module and global
// declarations, and for a declaration file its value exports — those exported (when
// set) does not accept, all when it is nil.
func declarationItems(p string, root *syntax.Node, src []byte, exported func(string) bool) []item {
	out := ambientItems(root, src)
	if syntax.IsDeclaration(p) && !isScript(root) {
		out = exportItems(moduleLocals(out, root, src), root, src, "exports of "+p, exported)
	}
	return out
}

// moduleLocals drops from items the top-level declarations of a module declaration file
// that it exports through an export clause (`declare const a: number; export { a as b }`,
// as the compiler emits them): they describe the module's exports, weighed as such, not
// globals.
func moduleLocals(items []item, root *syntax.Node, src []byte) []item {
	locals := map[string]bool{}
	for _, st := range root.Children {
		for _, spec := range st.OfKind("export_clause").NamedChildren() {
			if n := spec.Child("name"); n != nil && st.Child("source") == nil {
				locals[n.Text(src)] = true
			}
		}
	}
	if len(locals) == 0 {
		return items
	}
	out := items[:0]
	for _, it := range items {
		if it.node.Parent != root || it.module != "" || len(it.names) == 0 || slices.ContainsFunc(it.names, func(n string) bool { return !locals[n] }) {
			out = append(out, it)
		}
	}
	return out
}

// exportItems adds the value exports of a module's top-level statements: a declaration
// statement whose names exported does not all accept, a specifier of an export clause.
func exportItems(out []item, root *syntax.Node, src []byte, scope string, exported func(string) bool) []item {
	missing := func(name string) bool { return exported == nil || !exported(name) }
	for _, st := range root.Children {
		if st.Kind != "export_statement" || isTypeOnly(st) {
			continue
		}
		if clause := st.OfKind("export_clause"); clause != nil {
			for _, spec := range clause.NamedChildren() {
				name := specifierName(spec, src)
				if spec.Kind == "export_specifier" && !isTypeOnly(spec) && missing(name) {
					out = append(out, item{scope: scope, text: squeeze(spec.Text(src)), node: spec, sep: separator(spec), label: name, decl: spec, export: true})
				}
			}
			continue
		}
		for _, name := range exportedValues(st, src) {
			if missing(name) {
				out = append(out, item{scope: scope, text: squeeze(st.Text(src)), node: st, label: name, decl: st, export: true, stub: true})
				break
			}
		}
	}
	return out
}

// isTypeOnly reports whether an export statement or specifier is `export type`.
func isTypeOnly(n *syntax.Node) bool {
	for _, c := range n.Children {
		if c.Kind == "type" {
			return true
		}
	}
	return false
}

// specifierName is the name an export specifier exports (its alias, else its name).
func specifierName(spec *syntax.Node, src []byte) string {
	n := spec.Child("alias")
	if n == nil {
		n = spec.Child("name")
	}
	if n == nil {
		return ""
	}
	return strings.Trim(n.Text(src), `"'`)
}

// exportedValues are the run-time names an export statement declares: "default" for a
// default export, the names of a function, variable, class, enum or namespace with
// values; none for types.
func exportedValues(st *syntax.Node, src []byte) []string {
	if st.OfKind("default") != nil {
		return []string{"default"}
	}
	d := st.Child("declaration")
	if d != nil && d.Kind == "ambient_declaration" {
		if in := d.NamedChildren(); len(in) == 1 {
			d = in[0]
		}
	}
	if d == nil || typeLevel(d) {
		return nil
	}
	switch d.Kind {
	case "internal_module", "module":
		if body := d.Child("body"); body != nil && !allTypeLevel(body) {
			return []string{d.Child("name").Text(src)}
		}
		return nil
	}
	return declaredNames(d, src)
}

// allTypeLevel reports whether a namespace body declares types only.
func allTypeLevel(body *syntax.Node) bool {
	for _, st := range body.NamedChildren() {
		if !typeLevel(st) {
			return false
		}
	}
	return true
}

// exportsOf returns what accepts a name the JavaScript module exports (a CommonJS
// module's default import is its exports object).
func exportsOf(x *npm.Exports) func(string) bool {
	return func(name string) bool { return x.Names[name] || name == "default" && x.CommonJS }
}

// siblingNote is the message note for a problem about a name a blanked export declared.
func siblingNote(v vouch) string {
	return fmt.Sprintf(" (the change's own declaration of %s at %s:%d does not count: %s, which Node loads, does not export it)", v.export, v.at.File, v.at.Line, v.js)
}
