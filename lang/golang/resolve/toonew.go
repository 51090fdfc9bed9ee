package resolve

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// tooNew reports each use of a standard-library symbol introduced by a Go release later
// than the language version of its file: the module's go directive, or the file's
// //go:build go1.N line (go/types records it in Info.FileVersions). The release of each
// symbol comes from the toolchain's API manifest (stdAPI). As x/tools' stdversion
// analyzer (go vet) does, packages of modules whose go line is older than 1.21 are not
// checked: before 1.21 the go line was no minimum version, and such modules routinely
// use newer APIs behind nothing (strings.ReplaceAll under go 1.11 in spf13/cobra) and
// build with every release their users have. Language features newer than the go line
// are still reported at any version (convert.go): the compiler rejects them. Files built
// as an older release (c.release: a fallback only that release builds) are checked
// against it at any go line: it is the release that compiles them.
func (c *converter) tooNew(pkg *load.Package) {
	if pkg.Types == nil || pkg.Info == nil || pkg.Info.FileVersions == nil || c.release == 0 && !minimumVersion(pkg.Types.GoVersion()) {
		return
	}
	owners := fieldOwners{}
	for i, f := range pkg.Syntax {
		file := c.rel(pkg.Files[i])
		fileMinor, ok := goMinor(pkg.Info.FileVersions[f])
		if c.release > 0 {
			fileMinor, ok = c.release, true
		}
		if file == "" || !ok {
			continue
		}
		promoted := map[*ast.Ident]*types.Named{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if t := promotedVia(pkg.Info, n); t != nil {
					promoted[n.Sel] = t
				}
			case *ast.Ident:
				c.tooNewUse(pkg, owners, file, fileMinor, n, promoted[n])
			}
			return true
		})
	}
}

// tooNewUse reports id when it uses a standard-library symbol too new for the file; via,
// when set, is the exported type through which id selects a method or field promoted
// from an unexported one (t.Context of *testing.T is testing.common's), which the
// manifest lists under via.
func (c *converter) tooNewUse(pkg *load.Package, owners fieldOwners, file string, fileMinor int, id *ast.Ident, via *types.Named) {
	obj := pkg.Info.Uses[id]
	if obj == nil || obj.Pkg() == nil || !isStdPath(obj.Pkg().Path()) || obj.Pkg() == pkg.Types {
		return
	}
	key, display := stdSymbol(obj, owners)
	if via != nil {
		key = via.Obj().Name() + "." + id.Name
		display = key
		if fn, ok := obj.(*types.Func); ok && isPointerRecv(fn) {
			display = "(*" + via.Obj().Name() + ")." + id.Name
		}
	}
	if key == "" {
		return
	}
	minor, ok := introduced(obj.Pkg().Path()+"."+key, fileMinor)
	if !ok {
		return
	}
	what := "module is go" + strings.TrimPrefix(c.res.Module.GoVersion, "go")
	if modMinor, ok := goMinor(c.res.Module.GoVersion); !ok || modMinor != fileMinor {
		what = fmt.Sprintf("file is go1.%d", fileMinor)
	}
	pos := c.res.Fset.Position(id.Pos())
	c.tooNewAt[posKey(pos)] = true
	c.add(lang.Problem{
		Kind: lang.APITooNew,
		Location: lang.Location{File: file, Line: pos.Line, Column: pos.Column,
			EndLine: pos.Line, EndColumn: pos.Column + len(id.Name)},
		Message:    fmt.Sprintf("%s.%s requires go1.%d or later (%s)", obj.Pkg().Name(), display, minor, what),
		Suggestion: fmt.Sprintf("use an API of go1.%d or earlier, or raise the go directive to 1.%d in a reviewed change", fileMinor, minor),
		Symbol:     obj.Pkg().Path() + "." + key,
	})
}

// promotedVia returns the exported standard-library type through which sel selects a
// method declared on an unexported embedded type, or nil.
func promotedVia(info *types.Info, sel *ast.SelectorExpr) *types.Named {
	s := info.Selections[sel]
	if s == nil || s.Kind() == types.MethodExpr || len(s.Index()) < 2 {
		return nil
	}
	t := s.Recv()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || !isStdPath(n.Obj().Pkg().Path()) || !n.Obj().Exported() || s.Obj().Pkg() != n.Obj().Pkg() {
		return nil
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok {
		return nil
	}
	t = fn.Signature().Recv().Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if decl, ok := types.Unalias(t).(*types.Named); !ok || decl.Obj().Exported() {
		return nil // the manifest lists it under its own type
	}
	return n
}

// isPointerRecv reports whether a method has a pointer receiver.
func isPointerRecv(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	_, ok := types.Unalias(recv.Type()).(*types.Pointer)
	return ok
}

// stdSymbol returns the manifest key of a standard-library object ("Cut", "WaitGroup.Go",
// "Server.Protocols") and how to show it ("Cut", "(*WaitGroup).Go", "Server.Protocols"),
// or "" for objects the manifest does not list (locals, parameters).
func stdSymbol(obj types.Object, owners fieldOwners) (key, display string) {
	switch obj := obj.(type) {
	case *types.PkgName:
		return "", ""
	case *types.Func:
		obj = obj.Origin()
		recv := obj.Signature().Recv()
		if recv == nil {
			return obj.Name(), obj.Name()
		}
		t := recv.Type()
		ptr := false
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t, ptr = p.Elem(), true
		}
		n, ok := types.Unalias(t).(*types.Named)
		if !ok {
			return "", ""
		}
		key = n.Obj().Name() + "." + obj.Name()
		if ptr {
			return key, "(*" + n.Obj().Name() + ")." + obj.Name()
		}
		return key, key
	case *types.Var:
		if !obj.IsField() {
			break
		}
		if owner := owners.of(obj.Origin()); owner != "" {
			return owner + "." + obj.Name(), owner + "." + obj.Name()
		}
		return "", ""
	}
	if obj.Parent() == obj.Pkg().Scope() {
		return obj.Name(), obj.Name()
	}
	return "", ""
}

// fieldOwners maps the fields of a package's named struct types to the type's name; a
// field object does not know the struct it belongs to.
type fieldOwners map[*types.Package]map[*types.Var]string

func (o fieldOwners) of(v *types.Var) string {
	pkg := v.Pkg()
	m, ok := o[pkg]
	if !ok {
		m = map[*types.Var]string{}
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			if st, ok := tn.Type().Underlying().(*types.Struct); ok {
				for f := range st.Fields() {
					m[f] = name
				}
			}
		}
		o[pkg] = m
	}
	return m[v]
}

// minimumVersion reports whether a package's language version ("go1.N", "" when the
// module has no go line) is a minimum the toolchain enforces: go1.21 or later.
func minimumVersion(v string) bool {
	minor, ok := goMinor(v)
	return ok && minor >= 21
}

// isStdPath reports whether an import path is of the standard library (no dot in its first
// element).
func isStdPath(p string) bool {
	return !strings.Contains(firstElem(p), ".")
}

// goMinor returns N of a language version "go1.N", "1.N" or "go1.N.P".
func goMinor(v string) (int, bool) {
	v = strings.TrimPrefix(v, "go")
	rest, ok := strings.CutPrefix(v, "1.")
	if !ok {
		return 0, false
	}
	rest, _, _ = strings.Cut(rest, ".")
	rest = strings.TrimRightFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	n, err := strconv.Atoi(rest)
	return n, err == nil
}
