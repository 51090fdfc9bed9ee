package resolve

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/npm"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// A module declaration the change adds vouches for nothing. `declare module "pkg" {
// export function invented(): void }` (ambient, or an augmentation inside a module)
// makes the compiler accept an import of a member the package does not ship, and
// `declare module "pkg";` or `declare module "*";` makes everything `any`. So, in the
// content the compiler reads, what a changed file's module declarations add against
// the base (of every file the change touches: a declaration moved from one of them to
// another is not new; global.go's pool) is blanked (spaces, positions kept) when it could vouch for
// a package: a value the declaration adds (function, variable, class, enum, namespace,
// export assignment or re-export), a shorthand declaration, a pattern that matches bare
// names ("*", "prefix*"). The import is then checked as if the declaration were absent:
// unknown-symbol for a member the package's own types do not have, unknown-package or
// the like for a package nobody has (packagesStep). What stays: interfaces and type
// aliases (augmenting a package's interfaces is the idiom), patterns for non-module
// files ("*.css", "*?raw"), names that are not packages ("virtual:x"), declarations
// the base already has, and a shim for an installed package that ships no types (its
// members are checked against the exports of its entry files, untypedStep).

// vouch is a declaration of the change that was blanked: a module declaration's, a
// global's (global names it), a lib reference (lib is its text), or an export of a
// declaration file beside the JavaScript module js (export names it).
type vouch struct {
	module, global, lib string
	export, js          string
	at                  lang.Location
}

// parser reads a file into a syntax tree (syntax.Parse; a test's stand-in).
type parser func(syntax.Dialect, []byte) (*syntax.Tree, error)

// unvouched returns src (the head of the changed file at p) with what its module and
// global declarations add against the base (pool) blanked, and for a declaration file
// beside a JavaScript module the exports the module does not have (sibling.go), and the
// declarations it blanked. A file whose tree cannot be read is an error: what it
// declares could not be weighed, and its declarations would otherwise count unread
// (fails closed).
func (j *job) unvouched(p string, src []byte, pl *pool) ([]byte, []vouch, error) {
	if syntax.IsJS(p) || !mayDeclare(p, src) {
		return src, nil, nil
	}
	var exported func(string) bool
	js := j.siblingExports(p)
	if js != nil {
		exported = exportsOf(js)
	}
	tree, err := pl.tree(p, src)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: reading its declarations: %w", p, err)
	}
	b := &blanker{src: src}
	var vs []vouch
	for _, it := range declarationItems(p, tree.Root, src, exported) {
		if it.export && js == nil || !j.blankable(p, it) || pl.take(p, it.scope, it.text) || pl.definesAll(it.names) {
			continue
		}
		b.blank(it.node, it.stub)
		if it.sep != nil {
			b.blank(it.sep, false)
		}
		v := it.vouch(p)
		if it.export {
			v.export, v.global, v.js = it.label, "", js.Entry
		}
		vs = append(vs, v)
	}
	if b.out == nil {
		return src, nil, nil
	}
	return b.out, vs, nil
}

// blankable reports whether an item could vouch for what does not exist: any global,
// a module declaration only for a name that could be a package (vouchable).
func (j *job) blankable(p string, it item) bool {
	return it.module == "" || j.vouchable(p, it.module)
}

// blanker blanks parts of src.
type blanker struct {
	src, out []byte // out is nil until something is blanked
}

// blank replaces n's text with spaces, line breaks kept (positions hold); stub starts
// it with `export{}` where it fits, so that a module whose exports are all blanked stays
// a module.
func (b *blanker) blank(n *syntax.Node, stub bool) {
	if b.out == nil {
		b.out = bytes.Clone(b.src)
	}
	for i := n.Start; i < n.End && i < len(b.out); i++ {
		if b.out[i] != '\n' && b.out[i] != '\r' {
			b.out[i] = ' '
		}
	}
	const module = "export{}"
	if stub && n.End-n.Start >= len(module) && !bytes.ContainsAny(b.out[n.Start:n.Start+len(module)], "\r\n") {
		copy(b.out[n.Start:], module)
	}
}

// vouchable reports whether a module declaration of that name, in the file at p, could
// vouch for a package: a pattern that matches bare names, or a package whose types the
// compiler knows without it (or that is not installed at all).
func (j *job) vouchable(p, name string) bool {
	if strings.Contains(name, "*") {
		return catchAll(name)
	}
	pkg := npm.PackageName(name)
	if pkg == "" {
		return false
	}
	if npm.Builtin(name) {
		return true
	}
	return !j.shim(p, pkg)
}

// catchAll reports whether the module pattern name matches bare package names: nothing
// after its wildcard ("*", "@acme/*").
func catchAll(name string) bool {
	i := strings.LastIndex(name, "*")
	return i >= 0 && name[i+1:] == ""
}

// shim reports whether package name is installed for the file at p without type
// declarations of its own or from @types: a declaration for it is the project's way to
// type it, and untypedStep checks its uses against the package's real exports.
func (j *job) shim(p, name string) bool {
	disk := j.deps().disk
	dir := npm.InstalledDir(disk, path.Dir(p), name)
	if dir == "" {
		return false
	}
	data, err := fs.ReadFile(disk, path.Join(dir, "package.json"))
	if err != nil {
		return false
	}
	m, err := npm.ParseManifest(path.Join(dir, "package.json"), data)
	return err == nil && !npm.Typed(disk, dir, m) && !npm.Installed(disk, path.Dir(p), typesPackage(name))
}

// typeLevel reports whether a statement of a module declaration declares types only.
func typeLevel(st *syntax.Node) bool {
	switch st.Kind {
	case "comment", "interface_declaration", "type_alias_declaration", "import_statement", "empty_statement":
		return true
	case "export_statement":
		d := st.Child("declaration")
		return d != nil && (d.Kind == "interface_declaration" || d.Kind == "type_alias_declaration")
	}
	return false
}

func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// stringValue is the content of a string literal node.
func stringValue(src []byte, n *syntax.Node) string {
	s := n.Text(src)
	if len(s) >= 2 {
		return s[1 : len(s)-1]
	}
	return s
}

// noteVouched tells, on the compiler's findings about a module or global whose
// declaration the change added and that was blanked, why the declaration did not count.
func noteVouched(ps []lang.Problem, vs []vouch) {
	for i := range ps {
		p := &ps[i]
		switch p.Kind {
		case lang.UnknownSymbol, lang.UnknownImport, lang.UnknownMember, lang.Undefined, lang.APITooNew, lang.TypeError:
		default:
			continue
		}
		for _, v := range vs {
			if note := v.note(p); note != "" {
				p.Message += note
				break
			}
		}
	}
}

// note is what v adds to the message of p when p is about what v declared.
func (v vouch) note(p *lang.Problem) string {
	switch {
	case v.export != "" && strings.Contains(p.Message, "'"+v.export+"'"):
		return siblingNote(v)
	case v.module != "" && strings.Contains(p.Message, `"`+v.module+`"`):
		return fmt.Sprintf(" (the change's own declare module %q at %s:%d does not count: a package has what it ships)", v.module, v.at.File, v.at.Line)
	case v.lib != "" && p.Location.File == v.at.File && p.Kind != lang.UnknownSymbol && p.Kind != lang.UnknownImport:
		return fmt.Sprintf(" (the change's own %s at %s:%d does not count: the libraries are the base's tsconfig.json's)", v.lib, v.at.File, v.at.Line)
	case v.global != "" && strings.Contains(p.Message, "'"+lastName(v.global)+"'"):
		return fmt.Sprintf(" (the change's own ambient declaration of %s at %s:%d does not count: a global exists when code defines it, e.g. globalThis.%s = … in the change)",
			v.global, v.at.File, v.at.Line, lastName(v.global))
	}
	return ""
}

// lastName is the last dotted part of name ("Window.x" → "x").
func lastName(name string) string { return name[strings.LastIndex(name, ".")+1:] }
