package load

import (
	"context"
	"fmt"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
)

// TestImportsFromTheLastLoad: after a check, Imports answers from the module's last load
// without checking again (the packages are the very same), and checks again when go.mod
// changed or the package's directory has a new file.
func TestImportsFromTheLastLoad(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	dir := writeModule(t, module)
	l := New(Options{})
	ctx := context.Background()
	app := filepath.Join(dir, "app", "app.go")
	res, err := l.Check(ctx, Request{Dir: dir, Files: []string{app}})
	if err != nil {
		t.Fatal(err)
	}
	imps, mod, err := l.Imports(ctx, Request{Dir: dir, Files: []string{app}})
	if err != nil {
		t.Fatal(err)
	}
	if cold, warm := l.Stats(); cold != 1 || warm != 0 {
		t.Fatalf("Imports checked again: cold=%d warm=%d", cold, warm)
	}
	if mod.Path != "example.com/m" || mod.GoVersion != "1.22" {
		t.Fatalf("module = %+v", mod)
	}
	if imps["example.com/m/auth"] != res.Packages[0].Imports["example.com/m/auth"].Types || imps["strings"] == nil || imps["unicode"] == nil {
		t.Fatalf("imports: auth %v, strings %v, unicode (indirect) %v", imps["example.com/m/auth"], imps["strings"], imps["unicode"])
	}

	// A new file in the package: the last load no longer describes it.
	if err := os.WriteFile(filepath.Join(dir, "app", "more.go"), []byte("package app\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	imps, _, err = l.Imports(ctx, Request{Dir: dir, Files: []string{app}})
	if err != nil {
		t.Fatal(err)
	}
	if cold, _ := l.Stats(); cold != 2 || imps["fmt"] == nil {
		t.Fatalf("after a new file: cold=%d, fmt %v", cold, imps["fmt"])
	}

	// go.mod changed in the request: checked again.
	gomod := filepath.Join(dir, "go.mod")
	if _, _, err := l.Imports(ctx, Request{Dir: dir, Files: []string{app}, Overlay: map[string][]byte{gomod: []byte("module example.com/m\n\ngo 1.23\n")}}); err != nil {
		t.Fatal(err)
	}
	if cold, warm := l.Stats(); cold+warm != 3 {
		t.Fatalf("after a go.mod change: cold=%d warm=%d, want a third check", cold, warm)
	}
}

// chainModule writes a module of four packages, p0 to p3, each calling F of the next.
func chainModule(t *testing.T) string {
	t.Helper()
	files := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"}
	for i := range 4 {
		imp := "import \"strings\"\n\nvar _ = strings.ToUpper\n"
		if i < 3 {
			imp = fmt.Sprintf("import \"example.com/m/p%d\"\n\nvar _ = func() { p%d.F() }\n", i+1, i+1)
		}
		files[fmt.Sprintf("p%d/p.go", i)] = fmt.Sprintf("package p%d\n\n%s\nfunc F() {}\n", i, imp)
	}
	return writeModule(t, files)
}

// TestImportsStreamed: the imports of a change spread over a chain of packages, where
// Check would compile the packages between the changed ones, come from a
// declarations-only stream, and they are those Check finds.
func TestImportsStreamed(t *testing.T) {
	t.Parallel()
	dir := chainModule(t)
	req := Request{Dir: dir, Files: []string{filepath.Join(dir, "p0", "p.go"), filepath.Join(dir, "p3", "p.go")}}
	l := New(Options{Forget: true})
	got, _, handled, err := l.streamImports(context.Background(), req)
	if !handled || err != nil {
		t.Fatalf("streamImports = %v, %v; want it streamed (p1 and p2 import p3)", handled, err)
	}
	res, err := New(Options{Forget: true}).Check(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*types.Package{}
	for _, p := range res.Packages {
		for _, im := range p.Imports {
			addImports(want, im.Types)
		}
	}
	if g, w := slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)); !slices.Equal(g, w) {
		t.Errorf("streamed imports %v, Check's %v", g, w)
	}
	for path, p := range got {
		if p.Complete() != want[path].Complete() || p.Scope().Len() != want[path].Scope().Len() {
			t.Errorf("%s: streamed complete %v with %d names, Check's %v with %d", path, p.Complete(), p.Scope().Len(), want[path].Complete(), want[path].Scope().Len())
		}
	}

	// After a diff's full stream of the same packages, the imports are its own, given
	// once, without a second go list.
	l = New(Options{})
	full := req
	full.Choose = func(Cost) bool { return true }
	if handled, err := l.CheckEach(context.Background(), full, func(*Result) error { return nil }); !handled || err != nil {
		t.Fatalf("full stream = %v, %v", handled, err)
	}
	before, _ := l.Stats()
	kept, _, handled, err := l.streamImports(context.Background(), req)
	if after, _ := l.Stats(); !handled || err != nil || after != before {
		t.Errorf("imports after a full stream = %v, %v with %d more loads; want the stream's, no load", handled, err, after-before)
	}
	if g, w := slices.Sorted(maps.Keys(kept)), slices.Sorted(maps.Keys(want)); !slices.Equal(g, w) {
		t.Errorf("kept imports %v, Check's %v", g, w)
	}
	if _, _, _, _ = l.streamImports(context.Background(), req); func() int { n, _ := l.Stats(); return n }() == before {
		t.Errorf("the kept imports served twice")
	}
}

// TestCheckErrorsStreamed: the errors of packages spread over a chain, whose imports
// Check would have go list compile, come from the stream, as Check reports them.
func TestCheckErrorsStreamed(t *testing.T) {
	t.Parallel()
	dir := chainModule(t)
	p3 := filepath.Join(dir, "p3", "p.go")
	req := Request{Dir: dir, Files: []string{filepath.Join(dir, "p0", "p.go"), filepath.Join(dir, "p2", "p.go")},
		Overlay: map[string][]byte{p3: []byte("package p3\n\nfunc F(n int) {}\n")}}
	want, err := New(Options{Forget: true}).Check(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	// With DepFacts the stream hands the packages the checked ones import as well: they
	// are not req's, and Check does not report them.
	for _, depFacts := range []bool{false, true} {
		req.DepFacts = depFacts
		l := New(Options{Forget: true})
		got, err := l.CheckErrors(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.declined) > 0 {
			t.Errorf("DepFacts %v: the stream declined", depFacts)
		}
		g, w := strings.Join(msgs(got), "\n"), strings.Join(msgs(want), "\n")
		if g != w || !strings.Contains(g, "not enough arguments in call to p3.F") || len(got.Packages) != len(want.Packages) {
			t.Errorf("DepFacts %v: CheckErrors (%d packages):\n%s\nCheck (%d):\n%s", depFacts, len(got.Packages), g, len(want.Packages), w)
		}
		for _, p := range got.Packages {
			if p.Syntax != nil || p.Info != nil {
				t.Errorf("%s: syntax or type information kept", p.ID)
			}
		}
	}
}
