package load

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
)

// summary renders what a load reports of each package (files, imports, errors, the
// shape of the type information), for comparing two loads of the same tree.
func summary(res *Result, dir string) []string {
	var out []string
	rel := func(p string) string {
		if r, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		return p
	}
	for _, p := range res.Packages {
		s := fmt.Sprintf("%s name=%s path=%s types=%v info=%v", p.ID, p.Name, p.PkgPath, p.Types != nil, p.Info != nil)
		for _, f := range p.Files {
			s += "\n  file " + rel(f)
		}
		var imps []string
		for path, im := range p.Imports {
			e := ""
			for _, x := range im.Errors {
				e += fmt.Sprintf(" [%d %s:%d:%d %s]", x.Kind, rel(x.Pos.Filename), x.Pos.Line, x.Pos.Column, x.Msg)
			}
			imps = append(imps, fmt.Sprintf("\n  import %s -> %s %s types=%v%s", path, im.ID, im.Path, im.Types != nil, e))
		}
		sort.Strings(imps)
		s += strings.Join(imps, "")
		for _, e := range p.Errors {
			if e.Kind == ListError && strings.HasPrefix(e.Msg, "pattern ") {
				// go list resolves //go:embed patterns only when it builds (-export,
				// Check's mode); the resolver checks them itself on every path.
				continue
			}
			s += fmt.Sprintf("\n  error %d %s:%d:%d soft=%v %s", e.Kind, rel(e.Pos.Filename), e.Pos.Line, e.Pos.Column, e.Soft, e.Msg)
		}
		if p.Types != nil {
			s += fmt.Sprintf("\n  scope %v complete=%v", p.Types.Scope().Names(), p.Types.Complete())
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// streamed runs CheckEach and gathers the packages it gives, checking that each call
// has one package and that calls never overlap.
func streamed(t *testing.T, l *Loader, req Request) (*Result, bool, error) {
	t.Helper()
	res := &Result{}
	var mu sync.Mutex
	handled, err := l.CheckEach(context.Background(), req, func(r *Result) error {
		if !mu.TryLock() {
			t.Error("CheckEach called each concurrently")
			return nil
		}
		defer mu.Unlock()
		if len(r.Packages) != 1 || r.Fset == nil {
			t.Errorf("each got %d packages, fset %v", len(r.Packages), r.Fset != nil)
		}
		res.Module, res.Fset = r.Module, r.Fset
		res.Packages = append(res.Packages, r.Packages...)
		return nil
	})
	return res, handled, err
}

// compareLoads checks that CheckEach reports what Check reports for req, and returns
// the errors (nil when the load failed).
func compareLoads(t *testing.T, req Request) []string {
	t.Helper()
	want, werr := New(Options{Forget: true}).Check(context.Background(), req)
	got, handled, gerr := streamed(t, New(Options{Forget: true}), req)
	if !handled {
		t.Fatalf("CheckEach declined %v", req.Files)
	}
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("Check error %v, CheckEach error %v", werr, gerr)
	}
	if werr != nil {
		return nil
	}
	if want.Module != got.Module {
		t.Errorf("module: Check %+v, CheckEach %+v", want.Module, got.Module)
	}
	w, g := summary(want, req.Dir), summary(got, req.Dir)
	if strings.Join(w, "\n") != strings.Join(g, "\n") {
		t.Errorf("Check and CheckEach differ\nCheck:\n%s\n\nCheckEach:\n%s", strings.Join(w, "\n"), strings.Join(g, "\n"))
	}
	return msgs(want)
}

// goFilesUnder lists the Go files of the module at dir, leaving out testdata and nested
// modules, as a whole-repository check asks for them.
func goFilesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir {
			if d.Name() == "testdata" || d.Name() == "vendor" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestCheckEachAsCheck loads the head tree of every Go case of the resolver's testdata
// both ways and compares what the packages report: list, parse and type errors, soft
// or not, imports and their errors. With -short it compares every third case, side by
// side; the full suite compares them all.
func TestCheckEachAsCheck(t *testing.T) {
	t.Parallel()
	cases, _ := filepath.Glob("../../../dimensions/hallucination/testdata/*.txtar")
	n := 0
	for _, path := range cases {
		name := filepath.Base(path)
		if strings.HasPrefix(name, "lisp_") || strings.HasPrefix(name, "py_") {
			continue
		}
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		head := map[string]string{}
		for _, f := range ar.Files {
			switch {
			case strings.HasPrefix(f.Name, "proxy/") || strings.Contains(string(f.Data), "{{gosum "):
				head = nil // the case needs its module proxy (checktest); go list cannot run offline
			case head == nil:
			case f.Name == "policy" || strings.HasPrefix(f.Name, "base/"):
			case strings.HasPrefix(f.Name, "head/"):
				head[strings.TrimPrefix(f.Name, "head/")] = string(f.Data)
			default:
				head[f.Name] = string(f.Data)
			}
		}
		if _, ok := head["go.mod"]; !ok {
			continue
		}
		n++
		if !shorttest.Runs(n-1, 12) {
			continue // -short compares one case in twelve; the full suite (CI) all of them
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := writeModule(t, head)
			if files := goFilesUnder(t, dir); len(files) > 0 {
				compareLoads(t, Request{Dir: dir, Files: files})
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d Go cases found", n)
	}
}

// TestCheckEachCases compares the two loads on trees the testdata does not cover: a
// dependency inside the module that is not checked and does not compile (export data
// would not build), test variants of a package other tests import, a missing import,
// a package that imports only the standard library.
func TestCheckEachCases(t *testing.T) {
	t.Parallel()
	broken := map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"lib/lib.go":   "package lib\n\nimport \"os\"\n\nfunc F() int { return \"x\" }\n",
		"app/app.go":   "package app\n\nimport \"example.com/m/lib\"\n\nvar X = lib.F()\n",
		"ok/ok.go":     "package ok\n\nimport \"strings\"\n\nvar Y = strings.ToUpper(\"y\")\n",
		"gone/gone.go": "package gone\n\nimport \"example.com/nowhere/pkg\"\n\nvar Z = pkg.Z\n",
	}
	for i, tc := range []struct {
		name  string
		files map[string]string
		only  []string // the files to check; nil: all
	}{
		{"whole module", module, nil},
		{"one package of several", module, []string{"app/x_test.go"}},
		{"broken dependency not checked", broken, []string{"app/app.go", "ok/ok.go"}},
		{"broken dependency checked", broken, nil},
		{"parse error", map[string]string{
			"go.mod": "module example.com/m\n\ngo 1.22\n",
			"a/a.go": "package a\n\nfunc F( {\n",
			"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\nvar _ = a.F\n",
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shorttest.Sample(t, i, 6)
			t.Parallel()
			dir := writeModule(t, tc.files)
			files := goFilesUnder(t, dir)
			if tc.only != nil {
				files = nil
				for _, f := range tc.only {
					files = append(files, filepath.Join(dir, filepath.FromSlash(f)))
				}
			}
			compareLoads(t, Request{Dir: dir, Files: files})
		})
	}
}

// TestCheckEachOverlay compares the two loads of a tree that is not the disk: an edited
// package that now breaks its importer, a file the overlay adds, a file it leaves out
// (Request.Absent), as a diff's head or base view has them.
func TestCheckEachOverlay(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, module)
	abs := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	req := Request{Dir: dir, Files: []string{abs("app/app.go"), abs("auth/auth.go"), abs("auth/more.go")},
		Overlay: map[string][]byte{
			abs("auth/auth.go"): []byte("package auth\n\n// VerifyToken reports whether s is valid.\nfunc VerifyToken(s string, n int) bool { return s != \"\" }\n"),
			abs("auth/more.go"): []byte("package auth\n\nvar More = undefinedName\n"),
		},
		Absent: []string{abs("app/x_test.go")},
	}
	msgs := strings.Join(compareLoads(t, req), "\n")
	for _, want := range []string{"not enough arguments in call to auth.VerifyToken", "undefined: undefinedName"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("the overlaid tree's errors lack %q:\n%s", want, msgs)
		}
	}
}

// TestCheckEachPorts compares the two loads under another port's build configuration,
// for which both type-check the dependencies from source.
func TestCheckEachPorts(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"go.mod":              "module example.com/m\n\ngo 1.22\n",
		"w/w.go":              "package w\n\nfunc Common() int { return 1 }\n",
		"w/w_windows.go":      "package w\n\nimport (\n\t\"os\"\n\t\"syscall\"\n)\n\nvar H syscall.Handle\n\nfunc Win() string { return os.Getenv(1) + syscall.Nope }\n",
		"w/w_windows_test.go": "package w\n\nimport \"testing\"\n\nfunc TestWin(t *testing.T) { _ = Win() + Common() }\n",
		"d/d_darwin.go":       "package d\n\nimport \"example.com/m/w\"\n\nvar X = w.Common()\n",
	}
	dir := writeModule(t, files)
	for i, b := range []Build{{GOOS: "windows", GOARCH: "amd64"}, {GOOS: "darwin", GOARCH: "arm64"}} {
		t.Run(b.GOOS, func(t *testing.T) {
			t.Parallel()
			shorttest.Sample(t, i, 2)
			errs := compareLoads(t, Request{Dir: dir, Files: goFilesUnder(t, dir), Build: b})
			if want := b.GOOS == "windows"; want != (len(errs) > 0) {
				t.Errorf("errors under %s: %q", b.GOOS, errs)
			}
		})
	}
}

// TestCheckEachDeclines: requests the stream cannot serve go to Check.
func TestCheckEachDeclines(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, module)
	app := filepath.Join(dir, "app", "app.go")
	l := New(Options{})
	gomod := filepath.Join(dir, "go.mod")
	for _, req := range []Request{
		{Dir: dir, Files: []string{app}, Overlay: map[string][]byte{gomod: []byte("module example.com/other\n\ngo 1.22\n")}},
		{Dir: filepath.Join(dir, "app"), Files: []string{app}}, // no go.mod there
		{Dir: dir},
		{Dir: dir, Files: []string{app}, Choose: func(Cost) bool { return false }},
	} {
		handled, err := l.CheckEach(context.Background(), req, func(*Result) error { return nil })
		if handled || err != nil {
			t.Errorf("CheckEach(%+v) = %v, %v; want declined", req, handled, err)
		}
	}
	// The packages a Choose turned down are not listed again to ask once more.
	asked := false
	again := Request{Dir: dir, Files: []string{app}, Choose: func(Cost) bool { asked = true; return true }}
	if handled, err := l.CheckEach(context.Background(), again, func(*Result) error { return nil }); handled || err != nil || asked {
		t.Errorf("CheckEach after a decline = %v, %v, asked %v; want declined without asking", handled, err, asked)
	}
	// Packages a kept snapshot re-checks warm (a long-lived process) go to Check.
	auth := filepath.Join(dir, "auth", "auth.go")
	both := Request{Dir: dir, Files: []string{app, auth}}
	if _, err := l.Check(context.Background(), both); err != nil {
		t.Fatal(err)
	}
	both.Overlay = map[string][]byte{auth: []byte(module["auth/auth.go"] + "\nfunc more() {}\n")}
	both.Choose = again.Choose
	if handled, err := l.CheckEach(context.Background(), both, func(*Result) error { return nil }); handled || err != nil || asked {
		t.Errorf("CheckEach of kept packages = %v, %v, asked %v; want declined without asking", handled, err, asked)
	}
	if res, err := l.Check(context.Background(), both); err != nil || !res.Warm {
		t.Errorf("Check of the edit: warm %v, %v; want warm", res != nil && res.Warm, err)
	}
}

// TestCheckEachStops: an error from each ends the check with that error.
func TestCheckEachStops(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, module)
	stop := fmt.Errorf("stop")
	calls := 0
	handled, err := New(Options{}).CheckEach(context.Background(), Request{Dir: dir, Files: goFilesUnder(t, dir)}, func(*Result) error {
		calls++
		return stop
	})
	if !handled || err != stop || calls != 1 {
		t.Fatalf("CheckEach = %v, %v after %d calls; want true, stop after 1", handled, err, calls)
	}
}

// TestCheckEachOutsideWithoutExportData is the panic of issue #22: a dependency outside
// the module without export data (it does not compile: on a fresh machine, a module it
// needs was missing from the module cache) is checked from source, and so are its
// imports; go/ast must then come from export data, not from source into the package
// that reading go/parser's export data fills in at the same time. Several packages
// importing both run the checks concurrently; under -race, a race or the nil
// dereference inside go/types fails the test, and the errors must be those Check gives.
func TestCheckEachOutsideWithoutExportData(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	files := map[string]string{
		"go.mod":   "module example.com/m\n\ngo 1.22\n\nrequire example.com/b v0.0.0\n\nreplace example.com/b => ./b\n",
		"b/go.mod": "module example.com/b\n\ngo 1.22\n",
		"b/b.go": "package b\n\nimport (\n\t\"go/ast\"\n\t\"go/token\"\n\t\"go/types\"\n)\n\n" +
			"var X ast.Node = 1 + \"\"\n\nvar Y token.Pos\n\nfunc F(ast.Expr) *types.Package { return nil }\n",
	}
	for i := range 6 {
		files[fmt.Sprintf("p%d/p.go", i)] = fmt.Sprintf("package p%d\n\nimport (\n\t\"go/doc\"\n\t\"go/format\"\n\t\"go/parser\"\n\t\"go/printer\"\n\n\t\"example.com/b\"\n)\n\n"+
			"var _, _, _, _, _ = parser.ParseFile, printer.Fprint, doc.New, format.Node, b.F\n", i)
	}
	dir := writeModule(t, files)
	for range 3 {
		if errs := compareLoads(t, Request{Dir: dir, Files: goFilesUnder(t, dir)}); len(errs) != 0 {
			t.Fatalf("errors in the module's packages: %q", errs)
		}
	}
}
