package load

import (
	"go/ast"
	"go/token"
	"go/types"
)

// testTwins returns, for each package of order whose in-package test variant is in order
// too with every file of the package, that variant: its twin. The variant is type-checked
// and the package only when the variant cannot stand for it (standsFor), so a warm
// re-check of an edited package type-checks its files once where it checked them twice.
// A package another package of order imports is no one's twin: its importers need its
// own types.
func testTwins(order []*pkgState, files map[*pkgState][]string) map[*pkgState]*pkgState {
	imported := map[string]bool{}
	for _, st := range order {
		for _, im := range st.imports {
			imported[im.ID] = true
		}
	}
	twins := map[*pkgState]*pkgState{}
	for _, p := range order {
		if imported[p.id] || p.id != p.pkgPath {
			continue
		}
		for _, t := range order {
			if t.id == p.pkgPath+" ["+p.pkgPath+".test]" && t.name == p.name && within(files[p], files[t]) {
				twins[p] = t
			}
		}
	}
	return twins
}

// within reports whether every element of a is in b.
func within(a, b []string) bool {
	in := make(map[string]bool, len(b))
	for _, s := range b {
		in[s] = true
	}
	for _, s := range a {
		if !in[s] {
			return false
		}
	}
	return true
}

// standsFor reports whether the check of test variant t says all a check of its package's
// own files would say: nothing. It holds when the variant has no error at all, no name
// in the package's files resolves to a declaration of a test file, and no test file
// declares a method on a type of theirs. A check of the package's files alone then finds
// what the variant finds in them: their identifiers resolve to the same objects (the
// package's scope only loses the test files' names, none of which they use), those
// objects have the same types, and the same types have the same method sets, so the same
// interfaces are satisfied. An error of a test file would hide some of the package's:
// go vet skips most analyzers on an ill-typed package (the facts its importers need), and
// go/types drops a later error about an invalid type after any first one. Otherwise the
// package is checked on its own.
func standsFor(t *Package, own []string) bool {
	if t == nil || t.Types == nil || t.Info == nil || len(t.Errors) > 0 {
		return false
	}
	ownFiles, testFiles := splitFiles(t, own)
	inOwn := func(pos token.Pos) bool { return inAny(pos, ownFiles) }
	return !usesTestName(t, inOwn) && !methodOnOwn(t.Info, testFiles, inOwn)
}

// splitFiles returns the syntax of variant t's files among own, and of the others (its
// test files).
func splitFiles(t *Package, own []string) (ownFiles, testFiles []*ast.File) {
	mine := make(map[string]bool, len(own))
	for _, f := range own {
		mine[f] = true
	}
	for i, f := range t.Syntax {
		if mine[t.Files[i]] {
			ownFiles = append(ownFiles, f)
		} else {
			testFiles = append(testFiles, f)
		}
	}
	return ownFiles, testFiles
}

// usesTestName reports whether a name in the package's own files (inOwn) resolves to a
// declaration of a test file: undefined without it.
// A local object (declared in a function, so in the file of its uses) is passed over
// without looking up where its uses are: most uses are of locals.
func usesTestName(t *Package, inOwn func(token.Pos) bool) bool {
	pkgScope := t.Types.Scope()
	for id, obj := range t.Info.Uses {
		if obj.Pkg() != t.Types {
			continue
		}
		if parent := obj.Parent(); parent != nil && parent != pkgScope {
			continue // a local
		}
		if inOwn(id.Pos()) && !inOwn(obj.Pos()) {
			return true
		}
	}
	return false
}

// methodOnOwn reports whether a test file declares a method on a type of the package's
// own files (inOwn): the type has one more method with its tests.
func methodOnOwn(info *types.Info, testFiles []*ast.File, inOwn func(token.Pos) bool) bool {
	for _, f := range testFiles {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && methodOn(info, fd, inOwn) {
				return true
			}
		}
	}
	return false
}

// methodOn reports whether method declaration fd is on a type declared where own says.
func methodOn(info *types.Info, fd *ast.FuncDecl, own func(token.Pos) bool) bool {
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return true // unresolved: assume the worst
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return true
	}
	typ := recv.Type()
	if ptr, ok := typ.(*types.Pointer); ok {
		typ = ptr.Elem()
	}
	named, ok := typ.(*types.Named)
	if !ok {
		return true
	}
	return own(named.Obj().Pos())
}

// inAny reports whether pos lies in one of files.
func inAny(pos token.Pos, files []*ast.File) bool {
	for _, f := range files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return true
		}
	}
	return false
}
