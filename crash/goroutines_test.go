package crash

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// trivial are the goroutines that need no recover, by file and enclosing function: they
// only wait, close or hand work to a function that recovers itself.
var trivial = map[string]string{
	"engine/engine.go:parallel":                        "fn recovers its own panics (Run and ConfirmAtBase defer Recover)",
	"internal/server/server.go:Serve":                  "s.watch polls a ticker; the other closes the listener",
	"internal/server/server.go:run":                    "blocks on conn.Read to cancel the request",
	"internal/server/sys_unix.go:Spawn":                "waits for the child process",
	"internal/cli/cli_hooks.go:serveHTTP":              "shuts the HTTP server down; net/http recovers its handlers",
	"agent/fanout/pool.go:Run":                         "the agent's pool, outside the gate (its jobs recover)",
	"crash/crash.go:Go":                                "the Group itself",
	"internal/integrations/mcpserver/stdio.go:Connect": "stdioConn.read defers Recover itself",
}

// TestEveryGoroutineRecovers: every goroutine the project's code starts defers Recover
// (or runs under a Group), so a panic in a dimension, a frontend, a loader or the server
// becomes an internal error, never a crash of the process (issue #22).
func TestEveryGoroutineRecovers(t *testing.T) {
	root := ".."
	fset := token.NewFileSet()
	seen := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		if d.IsDir() {
			if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root || rel == "internal/attacks" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			groups := groupVars(fn.Body)
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				var lit ast.Expr
				switch n := n.(type) {
				case *ast.GoStmt:
					lit = n.Call.Fun
				case *ast.CallExpr:
					sel, ok := n.Fun.(*ast.SelectorExpr)
					if !ok || sel.Sel.Name != "Go" || len(n.Args) != 1 {
						return true
					}
					if _, isLit := n.Args[0].(*ast.FuncLit); !isLit {
						return true
					}
					if id, ok := sel.X.(*ast.Ident); ok && groups[id.Name] {
						seen++
						return true // a crash.Group recovers
					}
					lit = n.Args[0]
				default:
					return true
				}
				seen++
				if recovers(lit) {
					return true
				}
				if _, ok := trivial[rel+":"+fn.Name.Name]; ok {
					return true
				}
				t.Errorf("%s: a goroutine in %s does not defer crash.Recover (or run under a crash.Group): a panic in it kills the process", fset.Position(n.Pos()), fn.Name.Name)
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 8 {
		t.Fatalf("only %d goroutines found; is the walk reading the module?", seen)
	}
}

// groupVars returns the names declared as crash.Group in body.
func groupVars(body *ast.BlockStmt) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok {
			if sel, ok := vs.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Group" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "crash" {
					for _, name := range vs.Names {
						out[name.Name] = true
					}
				}
			}
		}
		return true
	})
	return out
}

// recovers reports whether a goroutine's function literal defers crash.Recover at its
// top level.
func recovers(fun ast.Expr) bool {
	lit, ok := fun.(*ast.FuncLit)
	if !ok {
		return false
	}
	for _, st := range lit.Body.List {
		d, ok := st.(*ast.DeferStmt)
		if !ok {
			continue
		}
		if sel, ok := d.Call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Recover" {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "crash" {
				return true
			}
		}
	}
	return false
}
