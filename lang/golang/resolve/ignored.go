package resolve

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/lang"
)

// ignoredGo returns the Go files of the repository-relative directories dirs that git
// ignores, by absolute path, when the head is the disk of a change (working tree, edits):
// they are on the disk and never in a commit, so the head the loader sees leaves them out,
// as --staged and the commit do (design.md §3). Files of the change are never left out.
// Each is recorded in u.ignored, for the messages of what breaks without it.
func ignoredGo(p *lang.Request, u *unit, dirs []string) (map[string]bool, error) {
	set := p.Changes
	if set.Ignored == nil || set.NoBase || !set.OnDisk {
		return nil, nil
	}
	var paths []string
	for _, dir := range dirs {
		ents, _ := os.ReadDir(filepath.Join(set.Root, filepath.FromSlash(dir)))
		for _, e := range ents {
			rel := path.Join(dir, e.Name())
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") && set.File(rel) == nil {
				paths = append(paths, rel)
			}
		}
	}
	ign, err := set.Ignored(p.Context, paths)
	if err != nil {
		return nil, fmt.Errorf("telling git-ignored Go files: %w", err)
	}
	out := map[string]bool{}
	for _, rel := range ign {
		out[filepath.Join(set.Root, filepath.FromSlash(rel))] = true
		if !slices.Contains(u.ignored, rel) {
			u.ignored = append(u.ignored, rel)
		}
	}
	return out, nil
}

// explainIgnored adds to a finding about a name that does not exist where it is declared
// on the disk: in a git-ignored file, which the head leaves out.
func (c *converter) explainIgnored(f *lang.Problem, file string) {
	var name string
	switch f.Kind {
	case lang.Undefined, lang.UnknownSymbol, lang.UnknownMember:
		name = f.Symbol[strings.LastIndexByte(f.Symbol, '.')+1:]
	default:
		return
	}
	for _, ign := range c.unit.ignored {
		if f.Kind == lang.Undefined && path.Dir(ign) != path.Dir(file) {
			continue
		}
		if declares(filepath.Join(c.pass.Changes.Root, filepath.FromSlash(ign)), name) {
			f.Message += fmt.Sprintf("; %s declares it, but git ignores that file: no commit has it", ign)
			f.Suggestion = fmt.Sprintf("declare %s in a file git tracks, or commit %s (stop ignoring it, or git add -f)", name, ign)
			f.Fix = nil
			return
		}
	}
}

// declares reports whether the Go file at abs declares name at its top level, or as a
// method, or as a field or method of a type it declares.
func declares(abs, name string) bool {
	f, _ := parser.ParseFile(token.NewFileSet(), abs, nil, parser.SkipObjectResolution)
	if f == nil {
		return false // a partly parsed file still names what it declares
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == name {
				return true
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				if specDeclares(spec, name) {
					return true
				}
			}
		}
	}
	return false
}

// specDeclares reports whether a declaration spec declares name, or a type it declares
// has a field or method of that name.
func specDeclares(spec ast.Spec, name string) bool {
	switch spec := spec.(type) {
	case *ast.ValueSpec:
		return slices.ContainsFunc(spec.Names, func(id *ast.Ident) bool { return id.Name == name })
	case *ast.TypeSpec:
		if spec.Name.Name == name {
			return true
		}
		var fields *ast.FieldList
		switch t := spec.Type.(type) {
		case *ast.StructType:
			fields = t.Fields
		case *ast.InterfaceType:
			fields = t.Methods
		}
		if fields != nil {
			for _, fl := range fields.List {
				if slices.ContainsFunc(fl.Names, func(id *ast.Ident) bool { return id.Name == name }) {
					return true
				}
			}
		}
	}
	return false
}
