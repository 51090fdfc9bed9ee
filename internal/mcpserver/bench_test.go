package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentverify/agentverify"
)

// genModule writes a module of npkg packages of about linesPer lines each, every package
// importing the previous one, and returns its root.
func genModule(tb testing.TB, npkg, linesPer int) string {
	tb.Helper()
	dir := tb.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/big\n\ngo 1.22\n"), 0o644)
	for p := 0; p < npkg; p++ {
		var b strings.Builder
		fmt.Fprintf(&b, "// Package p%d is generated.\npackage p%d\n\nimport (\n\t\"strings\"\n", p, p)
		if p > 0 {
			fmt.Fprintf(&b, "\n\t\"example.com/big/p%d\"\n", p-1)
		}
		b.WriteString(")\n\n")
		if p > 0 {
			fmt.Fprintf(&b, "var _ = p%d.F0\n\n", p-1)
		}
		for f := 0; f*10 < linesPer; f++ {
			fmt.Fprintf(&b, "// F%d is generated.\nfunc F%d(s string) string {\n\tif s == \"\" {\n\t\treturn \"x\"\n\t}\n\ts = strings.TrimSpace(s)\n\treturn s + %q\n}\n\n", f, f, fmt.Sprint(f))
		}
		os.MkdirAll(filepath.Join(dir, fmt.Sprintf("p%d", p)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%d/p.go", p)), []byte(b.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// BenchmarkVerifyEditWarm measures verify_edit on a warm server: a one-file edit in a
// module of 150 packages and about 150,000 lines, after a first call has loaded it.
func BenchmarkVerifyEditWarm(b *testing.B) {
	dir := genModule(b, 150, 1000)
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := New(agentverify.NewChecker(), dir).Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	orig, _ := os.ReadFile(filepath.Join(dir, "p75/p.go"))
	edit := func(i int) {
		content := string(orig) + fmt.Sprintf("\n// Extra%d is new.\nfunc Extra%d() string { return F1(\"x\") }\n", i, i)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "verify_edit", Arguments: map[string]any{"path": "p75/p.go", "content": content}})
		if err != nil || res.IsError || !strings.Contains(text(res), "PASSED") {
			b.Fatalf("verify_edit: %v %q", err, text(res))
		}
	}
	edit(1 << 20) // the cold call loads the module
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		edit(i)
	}
}
