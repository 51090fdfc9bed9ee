package load

import (
	"context"
	"go/ast"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
)

// TestBodiesOnlyIn: the checked packages' files keep every body and their comments;
// dependencies keep only declarations, and the bodies of generic functions.
func TestBodiesOnlyIn(t *testing.T) {
	t.Parallel()
	parse := bodiesOnlyIn(Request{Files: []string{"/m/app/main.go"}})
	src := []byte("package p\n\n// F doc.\nfunc F() int { return 1 }\n\nfunc G[T any](v T) T { return v }\n\nfunc (x *X) M() {}\n\ntype X struct{}\n")
	for _, c := range []struct {
		file   string
		bodies map[string]bool
		docs   bool
	}{
		{"/m/app/other.go", map[string]bool{"F": true, "G": true, "M": true}, true},
		{"/m/lib/lib.go", map[string]bool{"F": false, "G": true, "M": false}, false},
	} {
		f, err := parse(token.NewFileSet(), c.file, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && (fd.Body != nil) != c.bodies[fd.Name.Name] {
				t.Errorf("%s: %s has body %v, want %v", c.file, fd.Name.Name, fd.Body != nil, c.bodies[fd.Name.Name])
			}
		}
		if (len(f.Comments) > 0) != c.docs {
			t.Errorf("%s: comments kept = %v, want %v", c.file, len(f.Comments) > 0, c.docs)
		}
	}
}

// TestForget: a loader made to forget keeps no snapshot between checks (an overlaid
// check still re-checks the edit against the disk load it just made), and sees the errors.
func TestForget(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	dir := writeModule(t, module)
	l := New(Options{Forget: true})
	app := filepath.Join(dir, "app", "app.go")
	bad := strings.Replace(module["app/app.go"], "auth.VerifyToken(", "auth.VerifyTokne(", 1)
	for _, overlay := range []map[string][]byte{nil, {app: []byte(bad)}} {
		res, err := l.Check(context.Background(), Request{Dir: dir, Files: []string{app}, Overlay: overlay})
		if err != nil {
			t.Fatal(err)
		}
		if (overlay != nil) != (len(msgs(res)) > 0) {
			t.Errorf("overlay %v: errors=%v", overlay != nil, msgs(res))
		}
		if len(l.mods) != 0 {
			t.Errorf("overlay %v: %d snapshots kept", overlay != nil, len(l.mods))
		}
	}
}
