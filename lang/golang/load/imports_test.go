package load

import (
	"context"
	"os"
	"path/filepath"
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
