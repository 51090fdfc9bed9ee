package golang_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
)

const declSrc = `// Package p is documented.
package p

import "io"

// Doc for F.
func F(a, b int, rest ...string) (n int, err error) { return 0, nil }

func g[T any](x T) T { return x }

// Server serves.
type Server struct {
	// Addr is documented.
	Addr string
	port int
	io.Reader
	Name string "json:\"name,omitempty\" x:\"http://a\"" // trailing comment documents
}

func (s *Server) Start(ctx any) error { return nil }

func (Server) Stop() {}

type hidden struct{ Field int }

func (h hidden) Exported() {}

type List[T any] struct{ items []T }

func (l *List[T]) Push(v T) {}

// Group doc.
const (
	A = 1
	B int = 2
)

var (
	// C has its own doc.
	C, _ = 3, 4
	D    = 5
)

var E io.Writer

type Alias = map[string]int
`

type declWant struct {
	kind       lang.DeclKind
	exported   bool
	documented bool
	signature  string
}

func TestParseDecls(t *testing.T) {
	lf, err := golang.New().Parse("p.go", []byte(declSrc))
	if err != nil || len(lf.SyntaxErrors) > 0 {
		t.Fatal(err, lf.SyntaxErrors)
	}
	if lf.Package != "p" || lf.Language != "go" {
		t.Errorf("package %q language %q", lf.Package, lf.Language)
	}
	want := map[string]declWant{
		"F":               {lang.Func, true, true, "func(int, int, ...string) (int, error)"},
		"g":               {lang.Func, false, false, "func[T any](T) T"},
		"Server":          {lang.Type, true, true, `struct {Addr string; port int; io.Reader; Name string "json:\"name,omitempty\" x:\"http://a\""}`},
		"Server.Addr":     {lang.Field, true, true, "string"},
		"Server.port":     {lang.Field, false, false, "int"},
		"Server.Reader":   {lang.Field, true, false, "io.Reader"},
		"Server.Name":     {lang.Field, true, true, "string"},
		"Server.Start":    {lang.Method, true, false, "(*Server) func(any) error"},
		"Server.Stop":     {lang.Method, true, false, "(Server) func()"},
		"hidden":          {lang.Type, false, false, "struct{ Field int }"},
		"hidden.Exported": {lang.Method, false, false, "(hidden) func()"},
		"List":            {lang.Type, true, false, "[T any] struct{ items []T }"},
		"List.items":      {lang.Field, false, false, "[]T"},
		"List.Push":       {lang.Method, true, false, "(*List[T]) func(T)"},
		"A":               {lang.Const, true, true, "= 1"},
		"B":               {lang.Const, true, true, "int = 2"},
		"C":               {lang.Var, true, true, ""},
		"D":               {lang.Var, true, false, ""},
		"E":               {lang.Var, true, false, "io.Writer"},
		"Alias":           {lang.Type, true, false, "= map[string]int"},
	}
	seen := map[string]bool{}
	for _, d := range lf.Decls {
		seen[d.Name] = true
		w, ok := want[d.Name]
		if !ok {
			t.Errorf("unexpected decl %q", d.Name)
			continue
		}
		got := declWant{d.Kind, d.Exported, d.Documented, d.Signature}
		if got != w {
			t.Errorf("%s: got %+v, want %+v", d.Name, got, w)
		}
		if (d.Kind == lang.Func || d.Kind == lang.Method) != (d.Metrics != nil) {
			t.Errorf("%s: metrics %v", d.Name, d.Metrics)
		}
	}
	for n := range want {
		if !seen[n] {
			t.Errorf("missing decl %q", n)
		}
	}
}

func TestDeclPositions(t *testing.T) {
	src := "package p\n\nfunc Foo() {\n\treturn\n}\n\nvar (\n\tx = 1\n)\n"
	lf, _ := golang.New().Parse("p.go", []byte(src))
	foo, x := lf.Decls[0], lf.Decls[1]
	if foo.NamePos != (lang.Pos{Line: 3, Column: 6}) || foo.Span != (lang.Span{Start: lang.Pos{Line: 3, Column: 1}, End: lang.Pos{Line: 5, Column: 1}}) {
		t.Errorf("Foo: name %v span %v", foo.NamePos, foo.Span)
	}
	if x.NamePos != (lang.Pos{Line: 8, Column: 2}) || x.Span.Start.Line != 8 {
		t.Errorf("x: name %v span %v", x.NamePos, x.Span)
	}
}

func TestTestFunctions(t *testing.T) {
	src := `package p_test

import (
	"testing"
	tt "testing"
)

func TestA(t *testing.T)        {}
func TestB_sub(t *tt.T)         {}
func Testing(t *testing.T)      {}
func TestC(t *testing.B)        {}
func TestD(t *testing.T) error  { return nil }
func Test(t *testing.T)         {}
func TestMain(m *testing.M)     {}
func FuzzE(f *testing.F)        {}
func BenchmarkF(b *testing.B)   {}
func ExampleG()                 {}
func Example_h()                {}
func ExampleI(x int)            {}
func helper(t *testing.T)       {}
type T struct{}
func (T) TestJ(t *testing.T)    {}
`
	want := map[string]bool{"TestA": true, "TestB_sub": true, "Test": true, "FuzzE": true,
		"BenchmarkF": true, "ExampleG": true, "Example_h": true}
	for _, path := range []string{"p_test.go", "p.go"} {
		lf, _ := golang.New().Parse(path, []byte(src))
		if len(lf.SyntaxErrors) > 0 {
			t.Fatal(lf.SyntaxErrors)
		}
		for _, d := range lf.Decls {
			exp := want[d.Name] && strings.HasSuffix(path, "_test.go")
			if d.Test != exp {
				t.Errorf("%s: %s: Test = %v, want %v", path, d.Name, d.Test, exp)
			}
		}
	}
}

func TestIdents(t *testing.T) {
	src := `package p

type T[K comparable] struct{ a, b int }

type I interface{ M(x int) (y int) }

const c = 1

func (r *T[K]) f(p int) (q int) {
	v, w := 1, 2
	v, z := 3, 4
	var u int
	for i, e := range []int{} {
		_, _ = i, e
	}
	switch s := any(p).(type) {
	default:
		_ = s
	}
	g := func(h int) {}
loop:
	for {
		break loop
	}
	_, _, _, _, _ = v, w, z, u, g
	return
}
`
	lf, _ := golang.New().Parse("p.go", []byte(src))
	if len(lf.SyntaxErrors) > 0 {
		t.Fatal(lf.SyntaxErrors)
	}
	var got []string
	for _, id := range lf.Idents {
		got = append(got, id.Name+":"+string(id.Kind))
	}
	want := "p:package T:type K:type a:field b:field I:type M:method x:param y:param c:const " +
		"r:param f:method p:param q:param v:var w:var z:var u:var i:var e:var s:var g:var h:param loop:label"
	if strings.Join(got, " ") != want {
		t.Errorf("idents\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestSyntaxErrorsAndComments(t *testing.T) {
	src := "package p\n\n// hello\nfunc f() {\n\tx := \n}\n\nfunc g( {\n}\n"
	lf, err := golang.New().Parse("p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(lf.SyntaxErrors) < 2 {
		t.Fatalf("want every error (AllErrors), got %v", lf.SyntaxErrors)
	}
	if p := lf.SyntaxErrors[0].Pos; p.Line != 6 {
		t.Errorf("first error at %v: %s", p, lf.SyntaxErrors[0].Message)
	}
	if len(lf.Comments) != 1 || lf.Comments[0].Text != "// hello" || lf.Comments[0].Pos.Line != 3 || lf.Comments[0].EndLine != 3 {
		t.Errorf("comments %+v", lf.Comments)
	}
	if len(lf.Lines) != 9 || lf.Lines[2] != "// hello" {
		t.Errorf("lines %q", lf.Lines)
	}
}

func TestLinesCRLF(t *testing.T) {
	lf, _ := golang.New().Parse("p.go", []byte("package p\r\n\r\nvar x = 1"))
	if len(lf.Lines) != 3 || lf.Lines[0] != "package p" || lf.Lines[2] != "var x = 1" {
		t.Errorf("lines %q", lf.Lines)
	}
}

func TestFrontend(t *testing.T) {
	fe := golang.New()
	if fe.Name() != "go" || fe.Naming() != "go" || !fe.Match("a/b.go") || fe.Match("a/b.go.txt") || fe.Match("x.lisp") {
		t.Error("frontend identity")
	}
	if reg := (lang.Registry{fe}); reg.For("main.go") == nil {
		t.Error("registry does not find the Go frontend")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{declSrc, "package p\nfunc f() { if a { } else if b { for {} } }", "package", "\xff\xfe", "package p\nfunc (", "package p; type T[", "package p\n//line x.go:99\nfunc f() {\n}\n"} {
		f.Add([]byte(s))
	}
	fe := golang.New()
	f.Fuzz(func(t *testing.T, src []byte) {
		lf, err := fe.Parse("f.go", src)
		if err != nil || lf == nil {
			t.Fatalf("Parse: %v", err)
		}
		for _, d := range lf.Decls {
			if d.NamePos.Line < 1 || d.Span.Start.Line < 1 || d.Span.End.Line < d.Span.Start.Line {
				t.Fatalf("bad positions %+v", d)
			}
			if m := d.Metrics; m != nil && (m.Lines < 0 || m.Nesting < 0 || m.Cyclomatic < 1 || m.Cognitive < 0) {
				t.Fatalf("bad metrics %+v", m)
			}
		}
		for _, e := range lf.SyntaxErrors {
			if e.Pos.Line < 1 || e.Message == "" {
				t.Fatalf("bad syntax error %+v", e)
			}
		}
	})
}

func BenchmarkParse(b *testing.B) {
	path := filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go")
	src, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	fe := golang.New()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fe.Parse(path, src); err != nil {
			b.Fatal(err)
		}
	}
}
