package api

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
	"testing/fstest"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// preBase is p/p.go at the base of the prefilter's cases; preOthers are the package's
// other files, unchanged unless a case says otherwise.
const preBase = `package p

import "strings"

// F is f.
func F(x int) int { return x }

// T is t.
type T struct{}

// V is v.
var V = strings.TrimSpace(" v ")

// see mentioned names a word of a comment.

// Kinds are kinds.
const (
	KindA = iota
	KindB
)
`

var preOthers = map[string]string{
	"p/q.go":         "package p\n\nvar shared = 1\n\n// Q is q.\nfunc Q() int { return shared }\n",
	"p/w_windows.go": "package p\n\nfunc winOnly() {}\n",
	"p/x_test.go":    "package p\n\nfunc testOnly() {}\n",
}

// preSet is a change of p/p.go from preBase to head, and of each of more (path → base,
// head; an empty side: added or deleted) with the rest of the package as preOthers.
func preSet(head string, more map[string][2]string) *change.Set {
	base, heads := fstest.MapFS{}, fstest.MapFS{}
	for p, c := range preOthers {
		base[p], heads[p] = &fstest.MapFile{Data: []byte(c)}, &fstest.MapFile{Data: []byte(c)}
	}
	base["p/p.go"], heads["p/p.go"] = &fstest.MapFile{Data: []byte(preBase)}, &fstest.MapFile{Data: []byte(head)}
	set := &change.Set{BaseFS: base, HeadFS: heads, Files: []*change.File{change.NewFile("p/p.go", "p/p.go", []byte(preBase), []byte(head))}}
	for p, bh := range more {
		delete(base, p)
		delete(heads, p)
		oldPath := p
		if bh[0] != "" {
			base[p] = &fstest.MapFile{Data: []byte(bh[0])}
		} else {
			oldPath = ""
		}
		if bh[1] != "" {
			heads[p] = &fstest.MapFile{Data: []byte(bh[1])}
		}
		set.Files = append(set.Files, change.NewFile(p, oldPath, []byte(bh[0]), []byte(bh[1])))
	}
	return set
}

// TestSameDecls: the changes the prefilter may skip leave the API as it was; each change
// an agent could use to alter the API behind an added function is compared in full. (A
// dot-imported name that an added function takes is mentioned where it is used.)
func TestSameDecls(t *testing.T) {
	withF := func(body string) string {
		return strings.Replace(preBase, "func F(x int) int { return x }", body, 1)
	}
	add := func(decls string) string { return preBase + "\n" + decls + "\n" }
	for _, tc := range []struct {
		name string
		head string
		more map[string][2]string // other changed files: path → base, head
		skip bool
	}{
		{name: "body", head: withF("func F(x int) int {\n\tx++\n\treturn x * 2\n}"), skip: true},
		{name: "comments", head: strings.Replace(preBase, "// F is f.", "// F is f, now better.", 1), skip: true},
		{name: "helper", head: withF("func F(x int) int { return twice(x) }") + "\nfunc twice(x int) int { return 2 * x }\n", skip: true},
		{name: "helper between declarations", head: withF("func F(x int) int { return x }\n\nfunc helper() {}"), skip: true},
		{name: "generic helper", head: add("func pick[E any](a, b E) E { return a }"), skip: true},
		{name: "two helpers", head: add("func one() int { return 1 }\n\nfunc two() int { return one() + 1 }"), skip: true},
		{name: "init", head: add("func init() { _ = V }"), skip: true},
		{name: "blank function", head: add("func _() {}"), skip: true},
		{name: "linkname helper", head: add("//go:linkname nanotime runtime.nanotime\nfunc nanotime() int64"), skip: true},
		{name: "helper in a test file's name", head: add("func testOnly() {}"), skip: true},
		{name: "exported variable", head: add("// Fresh is new.\nvar Fresh = F(1)"), skip: true},
		{name: "variables", head: add("var (\n\tfresh, Fresh2 = 1, 2\n\t_ = fresh\n)"), skip: true},
		{name: "constant group", head: add("const (\n\tLevelA = iota\n\tLevelB\n)"), skip: true},
		{name: "type with methods", head: add("func (x *Box[E]) Get() E { return x.v }\n\n// Box is new.\ntype Box[E any] struct{ v E }\n\nfunc (Box[E]) put() {}"), skip: true},
		{name: "interface type", head: add("type getter interface{ Get() int }"), skip: true},
		{name: "a constant in an existing group", head: strings.Replace(preBase, "\tKindB\n", "\tKindX\n\tKindB\n", 1)},
		{name: "a method of an added type that is not added", head: add("func (Box) Get() {}\n\n// Box is new.\nvar Box = 1")},
		{name: "a method of a type another change adds", head: add("func (Box) Get() {}")},
		{name: "a universe variable", head: add("var true = false")},
		{name: "a universe type", head: add("type error struct{}")},
		{name: "a type the base file mentions", head: add("type see int")},
		{name: "a variable another file declares", head: add("var winOnly = 1")},
		{name: "a name declared twice", head: add("var fresh = 1\n\nfunc fresh() {}")},
		{name: "signature", head: withF("func F(x int64) int { return 0 }")},
		{name: "exported function", head: add("func G() {}"), skip: true},
		{name: "exported generic function", head: add("func Map[E, F any](e []E, f func(E) F) []F { return nil }"), skip: true},
		{name: "an exported function another file mentions", head: add("func Shared() {}"), more: map[string][2]string{"p/q.go": {preOthers["p/q.go"], preOthers["p/q.go"] + "\n// Shared is used here.\n"}}},
		{name: "exported function behind a dot import", head: add("func TrimSpace(s string) string { return s }")},
		{name: "method", head: add("func (T) m() {}")},
		{name: "pointer method", head: add("func (*T) helper() {}")},
		{name: "universe function", head: add("func len(s string) int { return 0 }")},
		{name: "universe type name", head: add("func int() {}")},
		{name: "universe constant", head: add("func iota() {}")},
		{name: "universe min", head: add("func min(a, b int) int { return a }")},
		{name: "an import's name", head: add("func strings() {}")},
		{name: "a name the base file mentions", head: add("func mentioned() {}")},
		{name: "a name another file declares", head: add("func shared() int { return 0 }")},
		{name: "a name a build-constrained file declares", head: add("func winOnly() {}")},
		{name: "the same helper in two files", head: add("func helper() {}"), more: map[string][2]string{"p/q.go": {preOthers["p/q.go"], preOthers["p/q.go"] + "\nfunc helper() {}\n"}}},
		{name: "a function moved between files", head: add("func helper() {}"), more: map[string][2]string{"p/q.go": {preOthers["p/q.go"] + "\nfunc helper() {}\n", preOthers["p/q.go"]}}},
		{name: "a helper in a new file", head: preBase, more: map[string][2]string{"p/r.go": {"", "package p\n\nfunc helper() {}\n"}}},
		{name: "a helper with a new import", head: strings.Replace(add("func helper() { fmt.Println() }"), `import "strings"`, "import (\n\t\"fmt\"\n\t\"strings\"\n)", 1)},
		{name: "a helper and an exported change", head: withF("func F(x int64) int { return 0 }") + "\nfunc helper() {}\n"},
		{name: "a helper and a build constraint", head: "//go:build never\n\n" + add("func helper() {}")},
		{name: "a helper that does not parse", head: add("func helper( {}")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameDecls(preSet(tc.head, tc.more), "p"); got != tc.skip {
				t.Errorf("sameDecls = %v, want %v", got, tc.skip)
			}
		})
	}
}

func TestMentions(t *testing.T) {
	for _, tc := range []struct {
		src, name string
		want      bool
	}{
		{"x := helper()", "helper", true},
		{"helper", "helper", true},
		{"helpers()", "helper", false},
		{"myhelper()", "helper", false},
		{"_helper", "helper", false},
		{"helper2", "helper", false},
		{"p.helper", "helper", true},
		{"// see helper.", "helper", true},
		{"éhelper", "helper", false},
		{"helpers helper", "helper", true},
	} {
		if got := mentions([]byte(tc.src), tc.name); got != tc.want {
			t.Errorf("mentions(%q, %q) = %v, want %v", tc.src, tc.name, got, tc.want)
		}
	}
}

// TestHelperDoesNotHideABreak: through the real comparison, a change that breaks an
// exported function and adds functions beside it reports the break.
func TestHelperDoesNotHideABreak(t *testing.T) {
	files := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"}
	const base = "package api\n\n// Find finds.\nfunc Find() int { return 0 }\n"
	const head = "package api\n\n// Find finds.\nfunc Find() int64 { return helper() }\n\nfunc helper() int64 { return 0 }\n\n// Extra is new.\nfunc Extra() {}\n"
	cs, err := New(load.New(load.Options{})).CompareAPI(context.Background(), changeOf(t, t.TempDir(), files, base, head))
	if err != nil || messages(cs) != "Find: changed from func() int to func() int64" {
		t.Fatalf("changes: %q, %v", messages(cs), err)
	}
}

// Declarations of the generated packages of the property tests: no imports, so that
// each comparison is a type-check of a few lines with no importer. Some refer to names
// that an added function could shadow or declare (len, u, y, the method m).
var (
	propDecls = []string{
		"func F(x int) int { return x }",
		"type T struct{ A int }",
		"func (T) M() int { return 0 }",
		"var V = 1",
		"const C = len(\"ab\")",
		"var W [len(\"abc\")]int",
		"type u int\n\nvar U u",
		"func h() int { return 1 }\n\nvar H = h()",
		"var Y = y",
		"type I interface{ m() }\n\nfunc Use(i I) {}\n\nvar _ = Use",
		"var Z = func() int { return h() }",
	}
	// propEdits are API changes a head may make to the declaration of the same index.
	propEdits = []string{
		"func F(x int64) int { return 0 }",
		"type T struct{ A string }",
		"func (T) M() string { return \"\" }",
		"var V = \"1\"",
		"const C = len(\"abc\")",
		"var W [len(\"ab\")]int",
		"type u string\n\nvar U u",
		"func h() string { return \"\" }\n\nvar H = h()",
		"var Y = 2",
		"type I interface{ m(); n() }\n\nfunc Use(i I) {}\n\nvar _ = Use",
		"var Z = func() string { return \"\" }",
	}
	// propAdds are declarations a head may add: helpers, and the ways around a naive
	// prefilter (a method, an exported name, a predeclared name, a name in use).
	propAdds = []string{
		"func helper() int { return 1 }",
		"func pick[E any](a, b E) E { return a }",
		"func init() {}",
		"func _() {}",
		"func len(s string) int { return 0 }",
		"func int() {}",
		"func u() {}",
		"func y() int { return 0 }",
		"func (T) m() {}",
		"func G() {}",
		"func h() string { return \"\" }",
		"func q() string { return \"\" }",
		"var V2 = V",
		"type h struct{}",
		"const C2 = iota",
		"type T2 struct{}\n\nfunc (T2) m() {}\n\nfunc (*T2) M() {}",
		"var len = 3",
		"type q int",
		"var (\n\tQ2 = q()\n\t_ = Q2\n)",
	}
	// propOthers are declarations of the package's other file, q.go, besides propAdds:
	// one that an added function of p.go (sorted first) would take the name of.
	propOthers = append([]string{"func q() int { return 0 }\n\nvar Q = q()"}, propAdds...)
)

// propFile builds a file of package p from the declarations chosen.
func propFile(decls []string) string {
	return "package p\n\n" + strings.Join(decls, "\n\n") + "\n"
}

// propCompare type-checks both sides of package p (no imports) and returns apidiff's
// incompatible changes as messages.
func propCompare(t *rapid.T, base, head map[string]string) string {
	bfs, hfs := fstest.MapFS{"go.mod": {Data: []byte("module example.com/m\n")}}, fstest.MapFS{"go.mod": {Data: []byte("module example.com/m\n")}}
	for p, c := range base {
		bfs[p] = &fstest.MapFile{Data: []byte(c)}
	}
	for p, c := range head {
		hfs[p] = &fstest.MapFile{Data: []byte(c)}
	}
	set := &change.Set{BaseFS: bfs, HeadFS: hfs}
	m := &module{dir: ".", pkgDirs: map[string]bool{"p": true}, basePath: "example.com/m", headPath: "example.com/m"}
	pairs, _, _ := (&Comparer{}).check(set, m, nil, "go1.22")
	if len(pairs) != 1 || pairs[0].base.pkg == nil || pairs[0].head.pkg == nil || pairs[0].base.broken || pairs[0].head.broken {
		t.Fatalf("not checked: %+v", pairs)
	}
	return messages(pairs[0].changes())
}

// propPackage draws the base of a package of one or two files.
func propPackage(t *rapid.T) (idx []int, other []string) {
	idx = rapid.SliceOfNDistinct(rapid.IntRange(0, len(propDecls)-1), 1, 6, rapid.ID).Draw(t, "decls")
	for _, i := range rapid.SliceOfNDistinct(rapid.IntRange(0, len(propOthers)-1), 0, 2, rapid.ID).Draw(t, "other file") {
		other = append(other, propOthers[i])
	}
	return idx, other
}

// TestPropertySkipIsSound: whenever the prefilter skips a change (head: the base's
// declarations, some edited, with functions of propAdds added anywhere), type-checking
// both sides finds no incompatible change.
func TestPropertySkipIsSound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		idx, other := propPackage(t)
		var base, head []string
		for _, i := range idx {
			base = append(base, propDecls[i])
			if rapid.IntRange(0, 4).Draw(t, "edit") == 0 {
				head = append(head, propEdits[i])
			} else {
				head = append(head, propDecls[i])
			}
		}
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(propAdds)-1), 0, 3).Draw(t, "added") {
			at := rapid.IntRange(0, len(head)).Draw(t, "at")
			head = append(head[:at], append([]string{propAdds[i]}, head[at:]...)...)
		}
		bsrc, hsrc, qsrc := propFile(base), propFile(head), propFile(other)
		set := &change.Set{
			BaseFS: fstest.MapFS{"p/p.go": {Data: []byte(bsrc)}, "p/q.go": {Data: []byte(qsrc)}},
			HeadFS: fstest.MapFS{"p/p.go": {Data: []byte(hsrc)}, "p/q.go": {Data: []byte(qsrc)}},
			Files:  []*change.File{change.NewFile("p/p.go", "p/p.go", []byte(bsrc), []byte(hsrc))},
		}
		if !sameDecls(set, "p") {
			return
		}
		if got := propCompare(t, map[string]string{"p/p.go": bsrc, "p/q.go": qsrc}, map[string]string{"p/p.go": hsrc, "p/q.go": qsrc}); got != "" {
			t.Fatalf("skipped a change with incompatible changes: %s\nbase:\n%s\nhead:\n%s", got, bsrc, hsrc)
		}
	})
}

// TestPropertyHelperChangesNothing: adding a declaration the prefilter accepts (a
// function, variable, constant or type and its methods; not predeclared, unmentioned) to
// any file of any change leaves apidiff's answer as it was.
func TestPropertyHelperChangesNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		idx, other := propPackage(t)
		var base, head []string
		for _, i := range idx {
			base = append(base, propDecls[i])
			if rapid.Bool().Draw(t, "edit") {
				head = append(head, propEdits[i])
			} else {
				head = append(head, propDecls[i])
			}
		}
		b := map[string]string{"p/p.go": propFile(base), "p/q.go": propFile(other)}
		h := map[string]string{"p/p.go": propFile(head), "p/q.go": propFile(other)}
		want := propCompare(t, b, h)
		file := rapid.SampledFrom([]string{"p/p.go", "p/q.go"}).Draw(t, "file")
		helper := rapid.SampledFrom([]string{"func fresh() int { return V }", "func fresh2[E any](e E) E { return e }", "func fresh3(t T) u { return u(0) }", "func Fresh4() T { return T{} }", "var Fresh5 = V", "type Fresh6 struct{ T }\n\nfunc (Fresh6) M() string { return \"\" }", "const (\n\tFresh7 = iota\n\tFresh8\n)"}).Draw(t, "helper")
		h[file] += "\n" + helper + "\n"
		if got := propCompare(t, b, h); got != want {
			t.Fatalf("adding %q to %s changed the answer from %q to %q", helper, file, want, got)
		}
	})
}

func TestRecvType(t *testing.T) {
	for src, want := range map[string]string{
		"func (T) M()":            "T",
		"func (t *T) M()":         "T",
		"func ((*T)) M()":         "T",
		"func (t *(T)) M()":       "T",
		"func (b Box[E]) M()":     "Box",
		"func (b *Box[K, V]) M()": "Box",
		"func () M()":             "",
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "p.go", "package p\n\n"+src+" {}\n", 0)
		if err != nil {
			if want != "" {
				t.Fatalf("%s: %v", src, err)
			}
			continue
		}
		if got := recvType(f.Decls[0].(*ast.FuncDecl)); got != want {
			t.Errorf("recvType(%s) = %q, want %q", src, got, want)
		}
	}
}
