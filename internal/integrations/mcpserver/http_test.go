package mcpserver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// post sends an initialize request with the given Origin ("" for none) and returns the status.
func post(t *testing.T, url, origin string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(initialize))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestOriginCheck serves real HTTP on 127.0.0.1: a request from a foreign browser origin
// is refused with 403 before any tool runs; loopback origins, listed origins and requests
// without Origin (non-browser clients) are served.
func TestOriginCheck(t *testing.T) {
	ts := httptest.NewServer(Handler(New(agentverify.NewChecker(), testRepo(t)), HTTPOptions{AllowedOrigins: []string{"https://app.example.com/"}}))
	defer ts.Close()
	tests := []struct {
		origin string
		want   int
	}{
		{"", http.StatusOK},
		{"http://localhost:3000", http.StatusOK},
		{"http://127.0.0.1:8765", http.StatusOK},
		{"http://[::1]:8765", http.StatusOK},
		{"https://app.example.com", http.StatusOK},
		{"HTTPS://APP.example.com", http.StatusOK},
		{"https://evil.example", http.StatusForbidden},
		{"http://localhost.evil.example", http.StatusForbidden},
		{"http://127.0.0.1.evil.example:8765", http.StatusForbidden},
		{"https://app.example.com.evil.example", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{"file://", http.StatusForbidden},
		{"not a url", http.StatusForbidden},
	}
	for _, tt := range tests {
		if got := post(t, ts.URL, tt.origin); got != tt.want {
			t.Errorf("Origin %q: status %d, want %d", tt.origin, got, tt.want)
		}
	}
}

// TestHTTPClientThroughOriginCheck runs a real MCP client through the checked handler.
func TestHTTPClientThroughOriginCheck(t *testing.T) {
	ts := httptest.NewServer(Handler(New(agentverify.NewChecker(), testRepo(t)), HTTPOptions{}))
	defer ts.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "explain_rule", Arguments: map[string]any{"rule": "scope/policy-changed"}})
	if err != nil || res.IsError {
		t.Fatalf("explain_rule: %v %q", err, text(res))
	}
}

// TestToolsRefusePathsOutsideTheRepository gives every path-taking tool paths that leave
// the repository, lexically or through a symbolic link.
func TestToolsRefusePathsOutsideTheRepository(t *testing.T) {
	dir := testRepo(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "x.go"), []byte("package x\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Skip("symbolic links not supported:", err)
	}
	cs := connect(t, dir)
	bad := []string{"../x.go", "sub/../../x.go", filepath.Join(outside, "x.go"), outside, "/etc/passwd", "out", "out/x.go", ".git/config"}
	for _, p := range bad {
		if res, _ := call(t, cs, "verify_files", map[string]any{"paths": []string{p}}); !res.IsError {
			t.Errorf("verify_files %q accepted: %q", p, text(res))
		}
		if res, _ := call(t, cs, "verify_edit", map[string]any{"path": p, "content": "package x\n"}); !res.IsError {
			t.Errorf("verify_edit %q accepted: %q", p, text(res))
		}
	}
	for _, p := range []string{".", "m.go", filepath.Join(dir, "m.go"), dir} {
		if res, _ := call(t, cs, "verify_files", map[string]any{"paths": []string{p}}); res.IsError {
			t.Errorf("verify_files %q refused: %q", p, text(res))
		}
	}
}

// TestToolsUseTrustedPolicy: a policy weakened in the working tree governs no tool.
func TestToolsUseTrustedPolicy(t *testing.T) {
	guarded := "version: 1\nscope:\n  forbidden_paths: [\"secret/**\", \"m.go\"]\n"
	dir := testrepo.New(t, map[string]string{"go.mod": goMod, "m.go": mGo, ".agentverify.yaml": guarded}).Dir
	os.WriteFile(filepath.Join(dir, ".agentverify.yaml"), []byte("version: 1\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "secret"), 0o755)
	os.WriteFile(filepath.Join(dir, "secret", "k.txt"), []byte("x\n"), 0o644)
	cs := connect(t, dir)
	res, _ := call(t, cs, "verify_diff", map[string]any{})
	if got := text(res); !strings.Contains(got, "scope/forbidden-path secret/k.txt") || !strings.Contains(got, "scope/policy-changed") {
		t.Errorf("verify_diff: %q", got)
	}
	res, _ = call(t, cs, "verify_edit", map[string]any{"path": "secret/k2.txt", "content": "y\n"})
	if got := text(res); !strings.Contains(got, "scope/forbidden-path") {
		t.Errorf("verify_edit: %q", got)
	}
	res, _ = call(t, cs, "verify_files", map[string]any{"paths": []string{"m.go"}})
	if got := text(res); !strings.Contains(got, "scope/forbidden-path m.go") {
		t.Errorf("verify_files: %q", got)
	}
}
