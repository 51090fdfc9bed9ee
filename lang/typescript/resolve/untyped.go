package resolve

import (
	"fmt"
	"io/fs"
	"path"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/npm"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// untypedStep checks what changed files take from installed packages that ship no type
// declarations (and have no @types package), where the compiler sees only `any`: named
// imports, destructured requires and members of the module object must be among the
// exports read from the package's entry file (npm.ReadExports; never run). A package
// whose exports cannot be listed is left alone.
func untypedStep(j *job) ([]lang.Problem, error) {
	d := j.deps()
	cache := map[string]*npm.Exports{}
	var out []lang.Problem
	j.eachImport(func(t *target, imp syntax.Import) {
		name := npm.PackageName(imp.Spec)
		if imp.TypeOnly || name == "" || npm.Builtin(imp.Spec) || imp.Spec != name {
			return // subpaths have entries of their own
		}
		if x := d.untyped(t.f.Path, name, cache); x != nil && !x.Open {
			out = append(out, checkUses(t, imp, name, x)...)
		}
	})
	return out, nil
}

// eachImport calls visit with every unguarded import of the changed files that parse
// (a guarded one runs without its module: a try handles its failure).
func (j *job) eachImport(visit func(t *target, imp syntax.Import)) {
	for _, t := range j.targets {
		if t.broken || t.tree == nil {
			continue
		}
		for _, imp := range syntax.Imports(t.tree) {
			if !imp.Guarded {
				visit(t, imp)
			}
		}
	}
}

// untyped returns the exports of package name as installed for the file at p, nil when
// it is not installed or the compiler knows its types.
func (d *deps) untyped(p, name string, cache map[string]*npm.Exports) *npm.Exports {
	dir := npm.InstalledDir(d.disk, path.Dir(p), name)
	if dir == "" {
		return nil
	}
	if x, ok := cache[dir]; ok {
		return x
	}
	cache[dir] = nil
	data, err := fs.ReadFile(d.disk, path.Join(dir, "package.json"))
	if err != nil {
		return nil
	}
	m, err := npm.ParseManifest(path.Join(dir, "package.json"), data)
	if err != nil || npm.Typed(d.disk, dir, m) || npm.Installed(d.disk, path.Dir(p), typesPackage(name)) {
		return nil
	}
	x := npm.ReadExports(d.disk, m)
	cache[dir] = x
	return x
}

// checkUses checks one import's names and the members used of its module object.
func checkUses(t *target, imp syntax.Import, name string, x *npm.Exports) []lang.Problem {
	var out []lang.Problem
	src := t.tree.Src
	report := func(n *syntax.Node, member string) {
		out = append(out, lang.Problem{Kind: lang.UnknownSymbol, Symbol: member,
			Location:   lang.Location{File: t.f.Path, Line: n.Pos.Line, Column: n.Pos.Column},
			Message:    fmt.Sprintf("package %s exports no %s (read from %s: the package has no type declarations)", name, member, x.Entry),
			Suggestion: didYouMean(nearest(member, keys(x.Names)))})
	}
	names := imp.Names
	names = append(names, requiredNames(src, imp.Node)...)
	for _, n := range names {
		switch {
		case n.Name == "*" || n.Name == "default" && x.CommonJS:
		case !x.Names[n.Name]:
			report(n.Node, n.Name)
		}
	}
	for _, local := range moduleObjects(src, imp) {
		for _, m := range members(t.tree, local) {
			if member := m.Text(src); !x.Names[member] {
				report(m, member)
			}
		}
	}
	return out
}

// requiredNames are the names `const { a, b: c } = require("m")` takes.
func requiredNames(src []byte, str *syntax.Node) []syntax.ImportedName {
	vd := declaratorOf(str)
	if vd == nil || vd.Child("name").Kind != "object_pattern" {
		return nil
	}
	var out []syntax.ImportedName
	for _, p := range vd.Child("name").NamedChildren() {
		switch p.Kind {
		case "shorthand_property_identifier_pattern":
			out = append(out, syntax.ImportedName{Name: p.Text(src), Node: p})
		case "pair_pattern":
			if k := p.Child("key"); k != nil && k.Kind == "property_identifier" {
				out = append(out, syntax.ImportedName{Name: k.Text(src), Node: k})
			}
		}
	}
	return out
}

// declaratorOf returns the variable declarator whose value is the require call holding
// str, nil otherwise.
func declaratorOf(str *syntax.Node) *syntax.Node {
	call := str.Parent
	if call != nil {
		call = call.Parent // arguments → call
	}
	if call == nil || call.Kind != "call_expression" || call.Parent == nil || call.Parent.Kind != "variable_declarator" {
		return nil
	}
	return call.Parent
}

// moduleObjects are the local names bound to the module object: a namespace import,
// a default import of CommonJS (the caller decides), `const m = require("m")`.
func moduleObjects(src []byte, imp syntax.Import) []string {
	var out []string
	for _, n := range imp.Names {
		if n.Name == "*" {
			if id := n.Node.OfKind("identifier"); id != nil {
				out = append(out, id.Text(src))
			}
		} else if n.Name == "default" {
			out = append(out, n.Local)
		}
	}
	if vd := declaratorOf(imp.Node); vd != nil && vd.Child("name").Kind == "identifier" {
		out = append(out, vd.Child("name").Text(src))
	}
	return out
}

// members returns the property nodes of `local.x` in the file, where local is not
// assigned to again (a reassigned binding is no longer the module).
func members(tree *syntax.Tree, local string) []*syntax.Node {
	var out []*syntax.Node
	reassigned := false
	tree.Root.Walk(func(n *syntax.Node) bool {
		switch n.Kind {
		case "member_expression":
			obj, prop := n.Child("object"), n.Child("property")
			if obj != nil && prop != nil && obj.Kind == "identifier" && obj.Text(tree.Src) == local && prop.Kind == "property_identifier" {
				if p := n.Parent; p != nil && p.Kind == "assignment_expression" && p.Child("left") == n {
					reassigned = true // m.x = …: the code adds to the module object
				}
				out = append(out, prop)
			}
		case "assignment_expression":
			if l := n.Child("left"); l != nil && l.Kind == "identifier" && l.Text(tree.Src) == local {
				reassigned = true
			}
		}
		return true
	})
	if reassigned {
		return nil
	}
	return out
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
