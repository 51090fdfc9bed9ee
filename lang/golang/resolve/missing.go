package resolve

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lang/suggest"
)

// missingImport handles "undefined: name" where name is used as a package qualifier
// (name.Member) and names a package the file does not import: one of the standard
// library, or of the module and the modules it requires directly. The finding says so,
// the suggestion is the import line, and a misspelt member of a standard-library package
// gets its own suggestion from the package's real API. ok is false when name is no such
// package.
func (c *converter) missingImport(pkg *load.Package, e load.Error, name string) (lang.Problem, bool) {
	id, file := findIdent(pkg, c.res.Fset, e.Pos)
	sel := selectorOn(file, id)
	if sel == nil {
		return lang.Problem{}, false
	}
	member := sel.Sel.Name
	api := loadStdAPI()
	paths, where := api.byName[name], "the standard library"
	if len(paths) == 0 {
		paths, where = c.modulePackagesNamed(name, pkg.PkgPath), "the module and its requirements"
	}
	if len(paths) == 0 {
		return lang.Problem{}, false
	}
	if alias, p := importedAs(file, paths); alias != "" {
		return lang.Problem{Kind: MissingImport, Symbol: name + "." + member,
			Message:    fmt.Sprintf("%s.%s: package %s is imported as %s", name, member, p, alias),
			Suggestion: fmt.Sprintf("write %s.%s", alias, member)}, true
	}
	if having := pathsDeclaring(api, paths, member); len(having) > 0 {
		paths = having
	}
	f := lang.Problem{Kind: MissingImport, Symbol: name + "." + member}
	imports := make([]string, len(paths))
	for i, p := range paths {
		imports[i] = fmt.Sprintf("import %q", p)
	}
	if len(paths) == 1 {
		f.Message = fmt.Sprintf("%s.%s: package %s is not imported", name, member, paths[0])
		f.Suggestion = "add " + imports[0]
		if _, isStd := api.members[paths[0]]; !isStd || slices.Contains(api.members[paths[0]], member) {
			// One package, and (where its API is known) it has the member: one exact fix.
			if edit, ok := importEdit(c.res.Fset, file, c.rel(e.Pos.Filename), paths[0]); ok {
				f.Fix = &lang.Fix{Description: "add " + imports[0], Edits: []lang.Edit{edit}}
			}
		}
	} else {
		f.Message = fmt.Sprintf("%s.%s: no package named %s is imported (%s has %s)", name, member, name, where, strings.Join(paths, ", "))
		f.Suggestion = "add one of: " + strings.Join(imports, "; ")
	}
	if _, isStd := api.members[paths[0]]; isStd && len(paths) == 1 && !slices.Contains(api.members[paths[0]], member) {
		f.Suggestion += "; " + memberHint(api, paths[0], name, member)
	}
	return f, true
}

// importEdit inserts an import of path into file (named rel in the repository): into the
// first parenthesised import declaration, else after the last import, else after the
// package clause.
func importEdit(fset *token.FileSet, file *ast.File, rel, path string) (lang.Edit, bool) {
	if file == nil || rel == "" {
		return lang.Edit{}, false
	}
	at := func(pos token.Pos, text string) (lang.Edit, bool) {
		p := fset.Position(pos)
		return lang.Edit{Range: lang.Location{File: rel, Line: p.Line, Column: p.Column, EndLine: p.Line, EndColumn: p.Column}, NewText: text}, true
	}
	var last *ast.GenDecl
	for _, d := range file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			break
		}
		if g.Lparen.IsValid() {
			return at(g.Lparen+1, "\n\t"+strconv.Quote(path))
		}
		last = g
	}
	if last != nil {
		return at(last.End(), "\nimport "+strconv.Quote(path))
	}
	return at(file.Name.End(), "\n\nimport "+strconv.Quote(path))
}

// modulePackagesNamed returns the packages of the module and of its direct requirements
// whose directory is named name (the package name, by convention), except self.
func (c *converter) modulePackagesNamed(name, self string) []string {
	if c.modPkgs == nil {
		c.modPkgs = []string{}
		if info := c.modInfo(); info != nil {
			c.modPkgs = append(c.modPkgs, packagesOf(&info.self)...)
			for _, r := range info.requires {
				if !r.indirect {
					c.modPkgs = append(c.modPkgs, packagesOf(&r)...)
				}
			}
		}
	}
	var out []string
	for _, p := range c.modPkgs {
		if p != self && pkgNameOf(p) == name {
			out = append(out, p)
		}
	}
	return out
}

// memberHint advises on a member the package does not declare: a curated hint when the
// name is close to one agents are known to invent (strings.Reversee → strings.Reverse,
// which does not exist either), else the closest real names.
func memberHint(api *stdAPI, path, name, member string) string {
	var curatedNames []string
	for k := range curated {
		if q, m, ok := strings.Cut(k, "."); ok && q == name && !strings.Contains(m, ".") {
			curatedNames = append(curatedNames, m)
		}
	}
	real := closest(member, api.members[path])
	if near := closest(member, curatedNames); len(near) > 0 && (len(real) == 0 || suggest.Distance(member, near[0]) < suggest.Distance(member, real[0])) {
		return curated[name+"."+near[0]]
	}
	if s := didYouMean(name+".", real); s != "" {
		return fmt.Sprintf("package %s has no %s: %s", path, member, s)
	}
	return fmt.Sprintf("package %s has no %s", path, member)
}

// importedAs returns the name under which file imports one of paths, when it imports it
// under a name other than the package's, and that path.
func importedAs(file *ast.File, paths []string) (string, string) {
	for _, spec := range file.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err == nil && spec.Name != nil && slices.Contains(paths, p) && spec.Name.Name != "_" && spec.Name.Name != "." {
			return spec.Name.Name, p
		}
	}
	return "", ""
}

// pathsDeclaring returns the paths among paths whose package declares member.
func pathsDeclaring(api *stdAPI, paths []string, member string) []string {
	var out []string
	for _, p := range paths {
		if slices.Contains(api.members[p], member) {
			out = append(out, p)
		}
	}
	return out
}

// selectorOn returns the selector expression whose operand is id, or nil.
func selectorOn(file *ast.File, id *ast.Ident) *ast.SelectorExpr {
	if file == nil || id == nil {
		return nil
	}
	var found *ast.SelectorExpr
	ast.Inspect(file, func(n ast.Node) bool {
		if se, ok := n.(*ast.SelectorExpr); ok && se.X == id {
			found = se
		}
		return found == nil
	})
	return found
}
