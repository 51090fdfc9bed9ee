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
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// BenchmarkVerifyEditWarm measures verify_edit on a warm server: a one-file edit in a
// module of 150 packages and about 150,000 lines, after a first call has loaded it.
func BenchmarkVerifyEditWarm(b *testing.B) {
	dir := testrepo.New(b, testrepo.Module(150, 1000)).Dir
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
