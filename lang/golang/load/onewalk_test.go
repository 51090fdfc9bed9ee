package load

import (
	"context"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
)

// through is a package whose external test imports a package that imports it back: go
// list recompiles that one for the test ("uses [through.test]"), which walkOnce does not
// model.
var through = map[string]string{
	"through/through.go": "package through\n\nfunc T() {}\n",
	"through/t_test.go":  "package through_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/uses\"\n)\n\nfunc TestT(t *testing.T) { uses.U() }\n",
	"uses/uses.go":       "package uses\n\nimport \"example.com/m/through\"\n\nfunc U() { through.T() }\n",
}

// TestWalkOnceMatchesGoList: the packages walkOnce builds from go/build and one go list
// of their imports are the packages go/packages builds from `go list -deps -test` and
// exportFiles fills in — every field a listed snapshot reads, for the package, its test
// variants and every dependency — and it declines what it cannot see as the go command
// does.
func TestWalkOnceMatchesGoList(t *testing.T) {
	t.Parallel()
	files := maps.Clone(module)
	files["app/ignored.go"] = "//go:build ignore\n\npackage app\n"
	files["app/other_linux.go"] = "package app\n\nconst onLinux = true\n"
	files["app/asm.s"] = "// no code\n"
	files["app/README.md"] = "not Go\n"
	files["solo/solo.go"] = "package solo\n\nimport \"fmt\"\n\nfunc S() string { return fmt.Sprint(1) }\n"
	files["only/x_test.go"] = "package only_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/only\"\n)\n\nfunc TestO(t *testing.T) { only.O() }\n"
	files["only/only.go"] = "package only\n\nfunc O() {}\n"
	files["c/c.go"] = "package c\n\n// int f(void) { return 1; }\nimport \"C\"\n"
	files["v/v.go"] = "//go:build go1.21\n\npackage v\n"
	files["missing/m.go"] = "package missing\n\nimport _ \"example.com/nope\"\n"
	maps.Copy(files, through)
	files["nested/go.mod"] = "module example.com/nested\n\ngo 1.22\n"
	files["nested/n/n.go"] = "package n\n"
	dir := writeModule(t, files)
	cases := []struct {
		pattern string
		once    bool
	}{
		{"./app", true},
		{"./solo", true},
		{"./only", true},
		{"./auth", false},    // no imports: the go command must still run (fail closed)
		{"./c", false},       // cgo
		{"./v", false},       // a toolchain-version constraint
		{"./missing", false}, // an import go list cannot find
		{"./through", false}, // a dependency of the tests imports the package
		{"./nothing", false}, // no such directory
		{"./app/sub", false}, // no such directory either
	}
	l := New(Options{})
	for _, c := range cases {
		t.Run(strings.TrimPrefix(c.pattern, "./"), func(t *testing.T) {
			req := Request{Dir: dir}
			env := l.loadEnv(req)
			got, once := walkOnce(context.Background(), req, env, []string{c.pattern})
			if once != c.once {
				t.Fatalf("walked once: %t, want %t", once, c.once)
			}
			if !once {
				return
			}
			want, err := l.listTwice(context.Background(), req, env, []string{c.pattern})
			if err != nil {
				t.Fatal(err)
			}
			want = slices.DeleteFunc(want, isTestMain)
			if g, w := describeAll(got), describeAll(want); g != w {
				t.Errorf("walkOnce:\n%s\ngo list:\n%s", g, w)
			}
		})
	}
}

// TestWalkOnceOnThisModule compares walkOnce with go list on packages of this repository,
// whose dependencies come from the module cache.
func TestWalkOnceOnThisModule(t *testing.T) {
	t.Parallel()
	shorttest.Slow(t, "lists this repository's dependencies twice")
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	l := New(Options{})
	req := Request{Dir: root}
	env := l.loadEnv(req)
	patterns := []string{"./change/gitchange", "./policy"}
	got, once := walkOnce(context.Background(), req, env, patterns)
	if !once {
		t.Fatal("walkOnce declined")
	}
	want, err := l.listTwice(context.Background(), req, env, patterns)
	if err != nil {
		t.Fatal(err)
	}
	want = slices.DeleteFunc(want, isTestMain)
	if g, w := describeAll(got), describeAll(want); g != w {
		t.Errorf("walkOnce:\n%s\ngo list:\n%s", g, w)
	}
}

// describeAll prints what a listed snapshot reads of pkgs and of every package they
// import, in a stable order (go list prints the packages of all patterns before their
// test variants; a snapshot keeps them by directory).
func describeAll(pkgs []*packages.Package) string {
	pkgs = slices.SortedFunc(slices.Values(pkgs), func(a, b *packages.Package) int { return strings.Compare(a.ID, b.ID) })
	var b strings.Builder
	seen := map[string]bool{}
	var dep func(*packages.Package)
	dep = func(p *packages.Package) {
		for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
			ip := p.Imports[path]
			if !seen[ip.ID] {
				seen[ip.ID] = true
				fmt.Fprintf(&b, "  dep %s path=%s export=%t files=%d imports=%v\n", ip.ID, ip.PkgPath, ip.ExportFile != "",
					len(ip.CompiledGoFiles), slices.Sorted(maps.Keys(ip.Imports)))
				dep(ip)
			}
		}
	}
	for _, p := range pkgs {
		fmt.Fprintf(&b, "%s path=%s name=%s\n  go=%v\n  compiled=%v\n  other=%v\n  ignored=%v\n", p.ID, p.PkgPath, p.Name,
			p.GoFiles, p.CompiledGoFiles, p.OtherFiles, p.IgnoredFiles)
		fmt.Fprintf(&b, "  module=%s %s sizes=%v\n", p.Module.Path, p.Module.GoVersion, p.TypesSizes)
		for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
			fmt.Fprintf(&b, "  import %s -> %s\n", path, p.Imports[path].ID)
		}
	}
	for _, p := range pkgs {
		dep(p)
	}
	return b.String()
}

// TestFirstCheckMapsPresized: a first re-check's types.Info maps are sized from the
// syntax near what go/types fills in, so that they do not grow (and rehash) while the
// package is checked, nor start far larger than needed.
func TestFirstCheckMapsPresized(t *testing.T) {
	t.Parallel()
	src := `package p

import "strings"

type T struct{ A, B int; S string }

func (t *T) Sum() int { return t.A + t.B }

func F(ts []*T) (n int) {
	for i, t := range ts {
		if strings.HasPrefix(t.S, "x") && i%2 == 0 {
			n += t.Sum() * len(t.S)
		}
		m := map[string]int{t.S: t.A}
		n += m[strings.ToUpper(t.S)]
	}
	return n
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var s infoSize
	info := s.newInfo([]*ast.File{f})
	exprs, defs, uses, sels := countExprs([]*ast.File{f})
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what      string
		est, real int
	}{
		{"types", int(exprs), len(info.Types)},
		{"defs", int(defs), len(info.Defs)},
		{"uses", int(uses), len(info.Uses)},
		{"selections", int(sels), len(info.Selections)},
	} {
		if c.est < c.real*8/10 || c.est > c.real*2 {
			t.Errorf("%s: estimated %d, go/types recorded %d", c.what, c.est, c.real)
		}
	}
}

// TestWalkOnceDeclinesWithoutGoLine: a go.mod without a go line leaves the language
// version to go list, which names a default; the two-list load asks it.
func TestWalkOnceDeclinesWithoutGoLine(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/m\n", "a/a.go": "package a\n"})
	l := New(Options{})
	req := Request{Dir: dir}
	if _, once := walkOnce(context.Background(), req, l.loadEnv(req), []string{"./a"}); once {
		t.Error("walked once without a go line")
	}
}

// TestSelectsNoFiles: the GOFLAGS under which go/build selects a package's files as the
// go command does, and those under which walkOnce declines.
func TestSelectsNoFiles(t *testing.T) {
	t.Parallel()
	for f, want := range map[string]bool{
		"-mod=readonly": true, "-mod=mod": true, "--mod=mod": true, "-buildvcs=false": true, "-trimpath": true,
		"-ldflags=-s": true, "-p=2": true, "-timeout=25m": true, "-modcacherw": true,
		"-mod=vendor": false, "-tags=integration": false, "-race": false, "-modfile=x.mod": false,
		"-overlay=o.json": false, "-compiler=gccgo": false, "-cover": false, "-msan": false,
	} {
		if got := selectsNoFiles(f); got != want {
			t.Errorf("selectsNoFiles(%q) = %t, want %t", f, got, want)
		}
	}
}

// TestWalkOnceOwnImports: checked packages that import one another (a change spread over
// a module) either walk once to the graph go list gives, or decline; go list links a
// checked package to another checked one and recompiles one for a test ("uses
// [through.test]"), which walkOnce does not model.
func TestWalkOnceOwnImports(t *testing.T) {
	t.Parallel()
	files := maps.Clone(module)
	maps.Copy(files, through)
	dir := writeModule(t, files)
	l := New(Options{})
	for _, patterns := range [][]string{{"./app", "./auth"}, {"./through", "./uses"}} {
		req := Request{Dir: dir}
		env := l.loadEnv(req)
		got, once := walkOnce(context.Background(), req, env, patterns)
		if !once {
			continue
		}
		want, err := l.listTwice(context.Background(), req, env, patterns)
		if err != nil {
			t.Fatal(err)
		}
		want = slices.DeleteFunc(want, isTestMain)
		if g, w := describeAll(got), describeAll(want); g != w {
			t.Errorf("%v: walkOnce:\n%s\ngo list:\n%s", patterns, g, w)
		}
	}
}

// TestSamePort: walkOnce declines when the go command built the dependencies for another
// port than the one go/build selected the package's files for.
func TestSamePort(t *testing.T) {
	t.Parallel()
	deps := func(goos, goarch string) map[string]*packages.Package {
		return map[string]*packages.Package{
			"internal/goos":   {GoFiles: []string{"/g/src/internal/goos/goos.go", "/g/src/internal/goos/zgoos_" + goos + ".go"}},
			"internal/goarch": {GoFiles: []string{"/g/src/internal/goarch/goarch.go", "/g/src/internal/goarch/zgoarch_" + goarch + ".go"}},
		}
	}
	ctxt := &build.Context{GOOS: "linux", GOARCH: "amd64"}
	for _, c := range []struct {
		deps map[string]*packages.Package
		want bool
	}{
		{deps("linux", "amd64"), true},
		{deps("linux", "arm64"), false},
		{deps("darwin", "amd64"), false},
		{map[string]*packages.Package{}, true}, // nothing to compare
	} {
		if got := samePort(ctxt, c.deps); got != c.want {
			t.Errorf("samePort(%v) = %t, want %t", c.deps, got, c.want)
		}
	}
}

// TestInternalVisible: the go command's rule for importing internal packages.
func TestInternalVisible(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		importer, path string
		want           bool
	}{
		{"example.com/m/app", "strings", true},
		{"example.com/m/app", "example.com/m/internal/x", true},
		{"example.com/m", "example.com/m/internal", true},
		{"example.com/m/a/b", "example.com/m/a/internal/x", true},
		{"example.com/m/c", "example.com/m/a/internal/x", false},
		{"example.com/mx/app", "example.com/m/internal/x", false},
		{"example.com/m/app", "internal/goarch", false},
		{"example.com/m/app", "crypto/internal/boring", false},
		{"example.com/m/app", "example.com/other/internal", false},
		{"example.com/m/app", "example.com/m/internalize", true},
	} {
		if got := internalVisible(c.importer, c.path); got != c.want {
			t.Errorf("internalVisible(%q, %q) = %t, want %t", c.importer, c.path, got, c.want)
		}
	}
}

// TestWarmReportsInternalImport: an edit importing the standard library's internal
// package, which go/types alone accepts, is the go command's error on the re-checked
// package, in the package and in its external test.
func TestWarmReportsInternalImport(t *testing.T) {
	t.Parallel()
	files := maps.Clone(module)
	bad := strings.Replace(module["app/app.go"], "import (\n", "import (\n\t\"internal/goarch\"\n", 1)
	files["app/app.go"] = strings.Replace(bad, "return auth", "_ = goarch.PtrSize\n\treturn auth", 1)
	dir := writeModule(t, files)
	app := filepath.Join(dir, "app", "app.go")
	edit := files["app/app.go"] + "\n// G is new.\nfunc G() {}\n"
	res, err := New(Options{}).Check(context.Background(), Request{Dir: dir, Files: []string{app}, Overlay: map[string][]byte{app: []byte(edit)}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range msgs(res) {
		found = found || strings.Contains(m, "use of internal package internal/goarch not allowed")
	}
	if !found || !res.Warm {
		t.Errorf("warm %t, errors %q: want the internal import reported", res.Warm, msgs(res))
	}
}
