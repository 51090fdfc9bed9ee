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
// the same file at the base is blanked (spaces, positions kept) when it could vouch for
// a package: a value the declaration adds (function, variable, class, enum, namespace,
// export assignment or re-export), a shorthand declaration, a pattern that matches bare
// names ("*", "prefix*"). The import is then checked as if the declaration were absent:
// unknown-symbol for a member the package's own types do not have, unknown-package or
// the like for a package nobody has (packagesStep). What stays: interfaces and type
// aliases (augmenting a package's interfaces is the idiom), patterns for non-module
// files ("*.css", "*?raw"), names that are not packages ("virtual:x"), declarations
// the base already has, and a shim for an installed package that ships no types (its
// members are checked against the exports of its entry files, untypedStep).

// vouch is a module declaration of the change that was blanked.
type vouch struct {
	module string
	at     lang.Location
}

// unvouched returns src (the head of the changed file at p) with what its module
// declarations add against base blanked, and the declarations it blanked.
func (j *job) unvouched(p string, src, base []byte) ([]byte, []vouch) {
	if !bytes.Contains(src, []byte("module")) || syntax.IsJS(p) {
		return src, nil
	}
	tree, err := syntax.Parse(syntax.DialectOf(p), src)
	if err != nil {
		return src, nil
	}
	b := &blanker{src: src, had: baseModules(p, base)}
	var vs []vouch
	for _, m := range moduleDecls(tree.Root) {
		name := stringValue(src, m.Child("name"))
		if j.vouchable(p, name) && b.module(m, name) {
			vs = append(vs, vouch{module: name, at: lang.Location{File: p, Line: m.Pos.Line, Column: m.Pos.Column}})
		}
	}
	if b.out == nil {
		return src, nil
	}
	return b.out, vs
}

// blanker blanks what a file's module declarations add against the base's (had).
type blanker struct {
	src, out []byte // out is nil until something is blanked
	had      declared
}

// module blanks what the declaration m of module name adds: its value statements, or
// the whole of a shorthand or catch-all declaration. It reports whether it blanked any.
func (b *blanker) module(m *syntax.Node, name string) bool {
	body := m.Child("body")
	if body == nil || catchAll(name) {
		if b.had.take(name, m.Parent.Text(b.src)) {
			return false
		}
		b.blank(m.Parent)
		return true
	}
	blanked := false
	for _, st := range body.NamedChildren() {
		if !typeLevel(st) && !b.had.take(name, st.Text(b.src)) {
			b.blank(st)
			blanked = true
		}
	}
	return blanked
}

// blank replaces n's text with spaces, line breaks kept (positions hold).
func (b *blanker) blank(n *syntax.Node) {
	if b.out == nil {
		b.out = bytes.Clone(b.src)
	}
	for i := n.Start; i < n.End && i < len(b.out); i++ {
		if b.out[i] != '\n' && b.out[i] != '\r' {
			b.out[i] = ' '
		}
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

// moduleDecls returns the `declare module "x"` nodes of a tree (the module node; its
// parent is the ambient declaration).
func moduleDecls(root *syntax.Node) []*syntax.Node {
	var out []*syntax.Node
	root.Walk(func(n *syntax.Node) bool {
		if n.Kind == "module" && n.Parent != nil && n.Parent.Kind == "ambient_declaration" {
			if name := n.Child("name"); name != nil && name.Kind == "string" {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// declared counts, by module name, the statements (and whole declarations) of the base's
// module declarations, by their text with blanks squeezed.
type declared map[string]map[string]int

func (d declared) take(module, text string) bool {
	k := squeeze(text)
	if d[module][k] > 0 {
		d[module][k]--
		return true
	}
	return false
}

// baseModules reads the module declarations of the base of the file at p.
func baseModules(p string, base []byte) declared {
	d := declared{}
	if !bytes.Contains(base, []byte("module")) {
		return d
	}
	tree, err := syntax.Parse(syntax.DialectOf(p), base)
	if err != nil {
		return d
	}
	for _, m := range moduleDecls(tree.Root) {
		name := stringValue(base, m.Child("name"))
		if d[name] == nil {
			d[name] = map[string]int{}
		}
		d[name][squeeze(m.Parent.Text(base))]++
		for _, st := range m.Child("body").NamedChildren() {
			d[name][squeeze(st.Text(base))]++
		}
	}
	return d
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

// noteVouched tells, on the compiler's findings about a module whose declaration the
// change added and that was blanked, why the declaration did not count.
func noteVouched(ps []lang.Problem, vs []vouch) {
	for i := range ps {
		p := &ps[i]
		if p.Kind != lang.UnknownSymbol && p.Kind != lang.UnknownImport && p.Kind != lang.UnknownMember {
			continue
		}
		for _, v := range vs {
			if strings.Contains(p.Message, `"`+v.module+`"`) {
				p.Message += fmt.Sprintf(" (the change's own declare module %q at %s:%d does not count: a package has what it ships)", v.module, v.at.File, v.at.Line)
				break
			}
		}
	}
}
