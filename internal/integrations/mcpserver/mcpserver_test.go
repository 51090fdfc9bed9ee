package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

const goMod = "module example.com/m\n\ngo 1.22\n"
const mGo = "// Package m is a test module.\npackage m\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n"

func testRepo(t *testing.T) string {
	t.Helper()
	return testrepo.New(t, map[string]string{"go.mod": goMod, "m.go": mGo}).Dir
}

func connect(t *testing.T, dir string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	server := New(agentverify.NewChecker(), dir)
	if _, err := server.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", tool, err)
	}
	var structured map[string]any
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &structured)
	}
	return res, structured
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestTools(t *testing.T) {
	dir := testRepo(t)
	cs := connect(t, dir)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.InputSchema == nil {
			t.Errorf("%s has no input schema", tool.Name)
		}
	}
	if got := strings.Join(names, ","); got != "explain_rule,verify_diff,verify_edit,verify_files" {
		t.Errorf("tools = %s", got)
	}

	// A hallucinated edit fails as a result (not a protocol error), and nothing is written.
	bad := mGo + "\n// R reverses.\nfunc R(s string) string { return strings.Reverse(s) }\n"
	bad = strings.Replace(bad, "package m\n", "package m\n\nimport \"strings\"\n", 1)
	res, rep := call(t, cs, "verify_edit", map[string]any{"path": "m.go", "content": bad})
	if res.IsError || rep["status"] != "failed" || !strings.Contains(text(res), "hallucination/unknown-symbol") {
		t.Errorf("verify_edit bad: isError %v status %v text %q", res.IsError, rep["status"], text(res))
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "m.go")); string(b) != mGo {
		t.Error("verify_edit wrote the file")
	}
	// A correct edit passes; the second check of the same package takes the warm path.
	good := mGo + "\n// Sub subtracts.\nfunc Sub(a, b int) int { return a - b }\n"
	for i := 0; i < 2; i++ {
		if res, rep := call(t, cs, "verify_edit", map[string]any{"path": "m.go", "content": good}); res.IsError || rep["status"] != "passed" {
			t.Errorf("verify_edit good: %v %v %q", res.IsError, rep["status"], text(res))
		}
	}
	// A path escape is a tool error.
	if res, _ := call(t, cs, "verify_edit", map[string]any{"path": "../x.go", "content": "package x"}); !res.IsError {
		t.Error("path escape accepted")
	}
	if res, rep := call(t, cs, "verify_diff", map[string]any{}); res.IsError || rep["status"] != "passed" {
		t.Errorf("verify_diff: %v %v %q", res.IsError, rep["status"], text(res))
	}
	if res, _ := call(t, cs, "verify_diff", map[string]any{"base": "no-such-ref"}); !res.IsError || !strings.Contains(text(res), "no-such-ref") {
		t.Errorf("verify_diff bad ref: %v %q", res.IsError, text(res))
	}
	if res, rep := call(t, cs, "verify_files", map[string]any{"paths": []string{"m.go"}}); res.IsError || rep["status"] == nil {
		t.Errorf("verify_files: %v %q", res.IsError, text(res))
	}
	if res, doc := call(t, cs, "explain_rule", map[string]any{"rule": "scope/policy-changed"}); res.IsError || doc["id"] != "scope/policy-changed" {
		t.Errorf("explain_rule: %v %v", res.IsError, doc)
	}
	if res, _ := call(t, cs, "explain_rule", map[string]any{"rule": "nope/nope"}); !res.IsError {
		t.Error("unknown rule is not a tool error")
	}
}

// TestStdioSubprocess runs 'agentverify mcp' as a real process over stdio.
func TestStdioSubprocess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "agentverify")
	build := exec.Command("go", "build", "-o", bin, "github.com/agentverify/agentverify/cmd/agentverify")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := testRepo(t)
	cmd := exec.Command(bin, "mcp")
	cmd.Dir = dir
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if init := cs.InitializeResult(); init == nil || init.ServerInfo.Name != "agentverify" {
		t.Errorf("initialize: %+v", init)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 4 {
		t.Fatalf("tools/list: %v %v", err, tools)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "verify_edit", Arguments: map[string]any{"path": "n.go", "content": "package m\n\nvar X = undefinedName\n"}})
	if err != nil || !strings.Contains(text(res), "FAILED") || !strings.Contains(text(res), "undefinedName") {
		t.Errorf("tools/call: %v %q", err, text(res))
	}
}

// TestStreamableHTTP serves the tools over streamable HTTP on loopback.
func TestStreamableHTTP(t *testing.T) {
	dir := testRepo(t)
	server := New(agentverify.NewChecker(), dir)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	defer ts.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "explain_rule", Arguments: map[string]any{"rule": "hallucination/unknown-symbol"}})
	if err != nil || res.IsError || !strings.Contains(text(res), "hallucination/unknown-symbol") {
		t.Errorf("explain_rule over HTTP: %v %q", err, text(res))
	}
}

// TestUnverifiedIsAToolError: a verification that could not be made — a dimension that
// crashed, a base that does not exist — is a tool error (the client cannot take it for a
// verdict) that still carries the report, with status error and the reason.
func TestUnverifiedIsAToolError(t *testing.T) {
	dir := testRepo(t)
	crashing := &check.Dimension{Name: "style", Doc: "crashes", Run: func(*check.Pass) ([]check.Finding, error) {
		var m map[string]int
		m["x"]++
		return nil, nil
	}}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := New(&agentverify.Checker{Dimensions: []*check.Dimension{crashing}}, dir).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"verify_edit", map[string]any{"path": "m.go", "content": mGo + "\n"}, "panicked"},
		{"verify_diff", map[string]any{"base": "no-such-ref"}, "no-such-ref"},
	} {
		res, rep := call(t, cs, tc.tool, tc.args)
		reason, _ := rep["error"].(string)
		if !res.IsError || rep["status"] != "error" || !strings.Contains(reason, tc.want) || !strings.Contains(text(res), "COULD NOT VERIFY") {
			t.Errorf("%s: isError %v, status %v, error %q, text %q; want a tool error with status error naming %q", tc.tool, res.IsError, rep["status"], reason, text(res), tc.want)
		}
	}
}
