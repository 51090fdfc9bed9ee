package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/integrations/agenthook"
	"github.com/agentverify/agentverify/internal/integrations/lsp"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
	"github.com/agentverify/agentverify/policy"
)

const upGo = "package m\n\nimport \"strings\"\n\n// Up shouts.\nfunc Up(s string) string { return strings.ToUpper(s) }\n"

// docBlock returns the code block after "<!-- kind: name -->" in docs/integrations.md.
func docBlock(t *testing.T, kind, name string) string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/integrations.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- " + kind + ": " + regexp.QuoteMeta(name) + " -->\n```[a-z]*\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatalf("docs/integrations.md has no %s for %q", kind, name)
	}
	return string(m[1])
}

// hookCommand is the agentverify command line a configuration runs.
var hookCommand = regexp.MustCompile(`agentverify (hook [a-z]+)`)

// TestAgentDocs: for every agent, the configuration docs/integrations.md shows is what
// 'init --agent' writes, and the command it configures, run on the documented payload,
// denies the edit with the finding in the agent's own format — the file untouched.
func TestAgentDocs(t *testing.T) {
	if testing.Short() {
		t.Skip("verifies a Go edit per agent")
	}
	r := testrepo.New(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, "up.go": upGo})
	checker := agentverify.NewChecker()
	for _, a := range agenthook.Agents {
		t.Run(a.Name, func(t *testing.T) {
			dir := testrepo.New(t, map[string]string{"README": "a repository to set up\n"}).Dir
			if code, out, errs := run(t, dir, "", "init", "--agent", a.Name); code != 0 || !strings.Contains(out, a.Config) {
				t.Fatalf("init --agent %s: exit %d %s%s", a.Name, code, out, errs)
			}
			written, _ := os.ReadFile(filepath.Join(dir, a.Config))
			if doc := docBlock(t, "agent-config", a.Name); doc != string(written) {
				t.Fatalf("the documented configuration differs from what init writes:\n%s\nwrites:\n%s", doc, written)
			}
			m := hookCommand.FindStringSubmatch(string(written))
			if m == nil {
				t.Fatalf("%s runs no agentverify hook", a.Config)
			}
			payload := strings.ReplaceAll(docBlock(t, "agent-payload", a.Name), "$ROOT", r.Dir)
			var out, errb bytes.Buffer
			env := &Env{Stdin: strings.NewReader(payload), Stdout: &out, Stderr: &errb, Dir: r.Dir, Getenv: func(string) string { return "" }, Checker: checker}
			// The budget is the agent's in use; here the first run loads the module cold,
			// and a time-out would deny for the wrong reason.
			code := Main(context.Background(), append(strings.Fields(m[1]), "--timeout", "10m"), env)
			if !strings.Contains(out.String()+errb.String(), "strings.ToUpperCase") || !deniedBy(a.Name, code, out.Bytes(), errb.String()) {
				t.Errorf("%s on the documented payload: exit %d\nstdout %s\nstderr %s", m[1], code, out.String(), errb.String())
			}
			if b, _ := os.ReadFile(filepath.Join(r.Dir, "up.go")); string(b) != upGo {
				t.Error("the hook wrote the file")
			}
		})
	}
}

// TestHookBudgetPerAgent: 'hook AGENT' without --timeout bounds the verification by the
// agent's own default (under that agent's hook time-out), and --timeout replaces it.
func TestHookBudgetPerAgent(t *testing.T) {
	r := testrepo.New(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, "up.go": upGo})
	var left time.Duration
	record := &check.Dimension{Name: policy.Style, Doc: "records the verification's deadline", Run: func(p *check.Pass) ([]check.Finding, error) {
		if d, ok := p.Context.Deadline(); ok {
			left = time.Until(d)
		}
		return nil, nil
	}}
	checker := &agentverify.Checker{Dimensions: []*check.Dimension{record}, Timeout: time.Hour}
	for _, a := range agenthook.Agents {
		payload := strings.ReplaceAll(docBlock(t, "agent-payload", a.Name), "$ROOT", r.Dir)
		for _, tc := range []struct {
			flags []string
			want  time.Duration
		}{{nil, a.Timeout}, {[]string{"--timeout", "3s"}, 3 * time.Second}} {
			left = 0
			var out, errb bytes.Buffer
			env := &Env{Stdin: strings.NewReader(payload), Stdout: &out, Stderr: &errb, Dir: r.Dir, Getenv: func(string) string { return "" }, Checker: checker}
			Main(context.Background(), append([]string{"hook", a.Name}, tc.flags...), env)
			if left > tc.want || left < tc.want-10*time.Second {
				t.Errorf("hook %s %q: the verification had %v left, want about %v\n%s%s", a.Name, tc.flags, left, tc.want, out.String(), errb.String())
			}
		}
	}
}

// deniedBy reports whether an answer is the agent's deny.
func deniedBy(agent string, code int, stdout []byte, stderr string) bool {
	var out map[string]any
	json.Unmarshal(stdout, &out)
	switch agent {
	case "codex", "gemini", "windsurf":
		return code == 2 && strings.TrimSpace(stderr) != ""
	case "cursor":
		return out["permission"] == "deny"
	case "copilot":
		return out["permissionDecision"] == "deny"
	case "cline":
		return out["cancel"] == true
	case "opencode":
		return code == 2 && out["decision"] == "deny"
	}
	hso, _ := out["hookSpecificOutput"].(map[string]any)
	return code == 2 && hso["permissionDecision"] == "deny"
}

// TestLint: the lint command prints the change's new findings as FILE:LINE:COL lines,
// relative to the current directory, and exits 1; a clean change prints nothing, exit 0.
func TestLint(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("verifies a Go change")
	}
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, "sub/up.go": upGo})
	if code, out, errs := run(t, r.Dir, "", "lint", "sub/up.go"); code != 0 || out != "" {
		t.Fatalf("clean tree: exit %d %q %s", code, out, errs)
	}
	r.Write(map[string]string{"sub/up.go": strings.Replace(upGo, "ToUpper", "ToUpperCase", 1)})
	code, out, errs := run(t, filepath.Join(r.Dir, "sub"), "", "lint", "up.go")
	if code != 1 || !regexp.MustCompile(`(?m)^up\.go:6:\d+: hallucination/unknown-symbol .*ToUpperCase.*\(did you mean strings\.ToUpper\?\)$`).MatchString(out) {
		t.Errorf("bad edit: exit %d\n%s%s", code, out, errs)
	}
}

// TestLSPThroughTheSharedServer: the language server's verifications run on the shared
// warm server (the hooks' engine), and a client gets the findings as diagnostics.
func TestLSPThroughTheSharedServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server and loads a module")
	}
	withServers(t)
	r := testrepo.New(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, "up.go": upGo})
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	done := make(chan int, 1)
	go func() {
		getenv := func(k string) string {
			if k == ServerIdleEnv {
				return "1m"
			}
			return ""
		}
		done <- Main(context.Background(), []string{"lsp", "--debounce", "0s"}, &Env{Stdin: toServer, Stdout: fromServer, Stderr: io.Discard, Dir: r.Dir, Getenv: getenv, Server: true})
		fromServer.Close()
	}()
	got := make(chan lsp.PublishDiagnosticsParams, 10)
	stream := jsonrpc2.NewBufferedStream(rwc{toClient, fromClient}, jsonrpc2.VSCodeObjectCodec{})
	conn := jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Method == "textDocument/publishDiagnostics" {
			var p lsp.PublishDiagnosticsParams
			json.Unmarshal(*req.Params, &p)
			got <- p
		}
		return nil, nil
	}))
	ctx := context.Background()
	if err := conn.Call(ctx, "initialize", map[string]any{"rootUri": "file://" + r.Dir}, nil); err != nil {
		t.Fatal(err)
	}
	uri := "file://" + filepath.Join(r.Dir, "up.go")
	conn.Notify(ctx, "textDocument/didOpen", lsp.DidOpenTextDocumentParams{TextDocument: lsp.TextDocumentItem{URI: uri, Version: 1, Text: strings.Replace(upGo, "ToUpper", "ToUpperCase", 1)}})
	select {
	case p := <-got:
		if len(p.Diagnostics) == 0 || p.Diagnostics[0].Code != "hallucination/unknown-symbol" {
			t.Errorf("diagnostics %+v", p)
		}
	case <-time.After(3 * time.Minute):
		t.Fatal("no diagnostics")
	}
	if n := requests(t, r.Dir); n < 1 {
		t.Errorf("the shared server answered %d requests, want the verification", n)
	}
	conn.Call(ctx, "shutdown", nil, nil)
	conn.Notify(ctx, "exit", nil)
	fromClient.Close()
	if code := <-done; code != 0 {
		t.Errorf("lsp exit %d", code)
	}
}

// rwc is a pipe pair as one stream.
type rwc struct {
	io.Reader
	io.Writer
}

func (rwc) Close() error { return nil }
