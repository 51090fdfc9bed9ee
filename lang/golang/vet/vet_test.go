package vet

import (
	"go/ast"
	"go/build"
	goimporter "go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/printf"
)

// Suite is the analyzers the installed toolchain's `go vet` runs: those cmd/vet's main.go
// lists in its suite, in its order.
func TestSuiteIsVets(t *testing.T) {
	name := filepath.Join(build.Default.GOROOT, "src", "cmd", "vet", "main.go")
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
	if err != nil {
		t.Skipf("the toolchain's cmd/vet source is not installed: %v", err)
	}
	paths := map[string]string{} // package name → import path
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		paths[p[strings.LastIndexByte(p, '/')+1:]] = p
	}
	var want []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "suite" || len(vs.Values) != 1 {
			return true
		}
		for _, e := range vs.Values[0].(*ast.CompositeLit).Elts {
			want = append(want, paths[e.(*ast.SelectorExpr).X.(*ast.Ident).Name])
		}
		return false
	})
	var got []string
	for _, a := range Suite {
		got = append(got, strings.TrimPrefix(a.URL, "https://pkg.go.dev/"))
	}
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("vet.Suite:\n%q\ncmd/vet of %s runs:\n%q", got, runtime.Version(), want)
	}
}

// A fact found on a package serves the packages analysed after it with the same Facts,
// though they see the package through another types.Package (as an importer does when
// the package comes from export data), and not a run given no Facts.
func TestFactsAcrossTypeChecks(t *testing.T) {
	lib := `package lib

import "fmt"

func Logf(format string, args ...any) { fmt.Printf(format, args...) }
`
	app := `package app

import "example.com/lib"

func Run() { lib.Logf("%d", "x") }
`
	facts := NewFacts()
	fset := token.NewFileSet()
	libPkg := check(t, fset, "example.com/lib", lib, nil)
	if _, err := Run(libPkg, FactSuite, facts); err != nil {
		t.Fatal(err)
	}
	// app imports a second type-check of lib: other objects, the same object paths.
	again := check(t, fset, "example.com/lib", lib, nil)
	for _, fs := range []*Facts{facts, nil} {
		appPkg := check(t, fset, "example.com/app", app, again.Types)
		ds, err := Run(appPkg, []*analysis.Analyzer{printf.Analyzer}, fs)
		if err != nil {
			t.Fatal(err)
		}
		if found := len(ds) == 1 && strings.Contains(ds[0].Message, "format %d has arg \"x\" of wrong type string"); found != (fs != nil) {
			t.Fatalf("facts %v: diagnostics %+v", fs != nil, ds)
		}
	}
}

// check type-checks one file as package path, importing dep and the standard library.
func check(t *testing.T, fset *token.FileSet, path, src string, dep *types.Package) *Package {
	t.Helper()
	f, err := parser.ParseFile(fset, path+"/x.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
		Instances: map[*ast.Ident]types.Instance{}, FileVersions: map[*ast.File]string{}}
	conf := types.Config{Importer: importer{dep}}
	pkg, err := conf.Check(path, fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return &Package{Fset: fset, Files: []*ast.File{f}, Types: pkg, Info: info, Sizes: types.SizesFor("gc", runtime.GOARCH),
		ReadFile: func(string) ([]byte, error) { return []byte(src), nil }}
}

// importer gives dep for its path and the standard library from source.
type importer struct{ dep *types.Package }

func (im importer) Import(path string) (*types.Package, error) {
	if im.dep != nil && path == im.dep.Path() {
		return im.dep, nil
	}
	return stdImporter.Import(path)
}

var stdImporter = goimporter.Default()
