package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
	"github.com/agentverify/agentverify/report"
)

// Client is an LSP client over pipes: jsonrpc2 with the protocol's header framing, as an
// editor's client speaks it. It collects published diagnostics by URI.
type Client struct {
	conn  *jsonrpc2.Conn
	mu    sync.Mutex
	diags map[string][]PublishDiagnosticsParams
	got   chan string
}

// Start connects a client to a server run with verify, rooted at root.
func Start(t *testing.T, root string, verify Verify) *Client {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	srv := &Server{Verify: verify, Root: root}
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(context.Background(), toServer, fromServer)
		fromServer.Close()
	}()
	c := &Client{diags: map[string][]PublishDiagnosticsParams{}, got: make(chan string, 100)}
	stream := jsonrpc2.NewBufferedStream(pipe{toClient, fromClient}, jsonrpc2.VSCodeObjectCodec{})
	c.conn = jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(c.handle), jsonrpc2.SetLogger(log.New(io.Discard, "", 0)))
	t.Cleanup(func() {
		c.conn.Call(context.Background(), "shutdown", nil, nil)
		c.conn.Notify(context.Background(), "exit", nil)
		fromClient.Close()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("the server did not exit")
		}
	})
	return c
}

func (c *Client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	if req.Method == "textDocument/publishDiagnostics" {
		var p PublishDiagnosticsParams
		json.Unmarshal(*req.Params, &p)
		c.mu.Lock()
		c.diags[p.URI] = append(c.diags[p.URI], p)
		c.mu.Unlock()
		c.got <- p.URI
	}
	return nil, nil
}

// await returns the next diagnostics published for uri.
func (c *Client) await(t *testing.T, uri string) PublishDiagnosticsParams {
	t.Helper()
	timeout := time.After(3 * time.Minute)
	for {
		select {
		case u := <-c.got:
			if u != uri {
				continue
			}
			c.mu.Lock()
			p := c.diags[uri][len(c.diags[uri])-1]
			c.mu.Unlock()
			return p
		case <-timeout:
			t.Fatalf("no diagnostics for %s", uri)
		}
	}
}

func codes(p PublishDiagnosticsParams) string {
	var out []string
	for _, d := range p.Diagnostics {
		out = append(out, d.Code)
	}
	return strings.Join(out, " ")
}

const goMod = "module example.com/m\n\ngo 1.22\n"
const cleanGo = "// Package m adds.\npackage m\n\n// Add returns a+b.\nfunc Add(a, b int) int { return a + b }\n"

// TestClientDrivesServer: a client opens a document with a missing import, gets the
// finding as a diagnostic with the rule as its code and a quick fix, fixes the buffer and
// gets the diagnostics cleared — all through the real engine, nothing written.
func TestClientDrivesServer(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module with the Go toolchain")
	}
	r := testrepo.New(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	checker := agentverify.NewChecker()
	c := Start(t, r.Dir, func(ctx context.Context, dir string, edits []editset.Edit) (*report.Report, error) {
		return checker.Check(ctx, agentverify.Request{Dir: dir, Source: agentverify.Edits, Edits: edits})
	})
	ctx := context.Background()
	var init InitializeResult
	if err := c.conn.Call(ctx, "initialize", InitializeParams{RootURI: fileURI(r.Dir)}, &init); err != nil {
		t.Fatal(err)
	}
	if !init.Capabilities.TextDocumentSync.OpenClose || init.Capabilities.TextDocumentSync.Change != 1 || init.ServerInfo.Name != "agentverify" {
		t.Fatalf("capabilities %+v", init)
	}
	c.conn.Notify(ctx, "initialized", struct{}{})
	uri := fileURI(filepath.Join(r.Dir, "m.go"))
	bad := cleanGo + "\n// Up shouts.\nfunc Up(s string) string { return strings.ToUpper(s) }\n"
	c.conn.Notify(ctx, "textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, LanguageID: "go", Version: 1, Text: bad}})
	p := c.await(t, uri)
	if !strings.Contains(codes(p), "hallucination/missing-import") || p.Version == nil || *p.Version != 1 {
		t.Fatalf("diagnostics %+v", p)
	}
	var d Diagnostic
	for _, x := range p.Diagnostics {
		if x.Code == "hallucination/missing-import" {
			d = x
		}
	}
	if d.Range.Start.Line != 7 || d.Source != "agentverify" || d.Severity != SeverityError || !strings.Contains(d.Message, "strings") {
		t.Errorf("diagnostic %+v", d)
	}
	var actions []CodeAction
	params := CodeActionParams{TextDocument: TextDocumentIdentifier{URI: uri}, Range: d.Range}
	params.Context.Diagnostics = []Diagnostic{d}
	if err := c.conn.Call(ctx, "textDocument/codeAction", params, &actions); err != nil {
		t.Fatal(err)
	}
	if len(actions) != 1 || actions[0].Kind != "quickfix" || !strings.Contains(actions[0].Edit.Changes[uri][0].NewText, `"strings"`) {
		t.Fatalf("code actions %+v", actions)
	}
	good := strings.Replace(bad, "package m\n", "package m\n\nimport \"strings\"\n", 1)
	c.conn.Notify(ctx, "textDocument/didChange", DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{URI: uri, Version: 2},
		ContentChanges: []TextDocumentContentChangeEvent{{Text: good}}})
	if p := c.await(t, uri); len(p.Diagnostics) != 0 || *p.Version != 2 {
		t.Fatalf("after the fix: %+v", p)
	}
	if b, err := readFile(filepath.Join(r.Dir, "m.go")); err != nil || b != cleanGo {
		t.Error("the server wrote the file")
	}
}

// TestUnverifiedIsNeverClean: when the verification fails, the document shows an error
// diagnostic saying why, never an empty list.
func TestUnverifiedIsNeverClean(t *testing.T) {
	dir := t.TempDir()
	c := Start(t, dir, func(context.Context, string, []editset.Edit) (*report.Report, error) {
		return nil, io.ErrUnexpectedEOF
	})
	ctx := context.Background()
	c.conn.Call(ctx, "initialize", InitializeParams{RootURI: fileURI(dir)}, nil)
	uri := fileURI(filepath.Join(dir, "x.go"))
	c.conn.Notify(ctx, "textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, Version: 1, Text: "package x\n"}})
	if p := c.await(t, uri); codes(p) != "agentverify/could-not-verify" || !strings.Contains(p.Diagnostics[0].Message, "unexpected EOF") {
		t.Fatalf("diagnostics %+v", p)
	}
}

// TestUnverifiedReportIsNeverClean: a report that could not verify the change shows its
// reason on every open document; one with a dimension's internal error at one file (where
// the engine places it) still marks the others, which were not verified either.
func TestUnverifiedReportIsNeverClean(t *testing.T) {
	dir := t.TempDir()
	x, y := fileURI(filepath.Join(dir, "x.go")), fileURI(filepath.Join(dir, "y.go"))
	docs := map[string]document{x: {path: filepath.Join(dir, "x.go"), text: "package x\n"}, y: {path: filepath.Join(dir, "y.go"), text: "package x\n"}}
	internal := report.Violation{Rule: "hallucination/internal-error", Severity: "error", Message: "the hallucination dimension could not complete"}
	internal.Location.File, internal.Location.Line = "x.go", 1
	for _, tc := range []struct {
		name string
		rep  *report.Report
		want map[string]string // codes by URI
	}{
		{"error only", &report.Report{Status: report.Errored, Error: "pyright is not installed"}, map[string]string{x: report.UnverifiedRule, y: report.UnverifiedRule}},
		{"internal error at one file", &report.Report{Status: report.Errored, Error: "pyright is not installed", Violations: []report.Violation{internal}}, map[string]string{x: "hallucination/internal-error", y: report.UnverifiedRule}},
		{"failed", &report.Report{Status: report.Failed}, map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := diagnostics(tc.rep, nil, docs, dir)
			for _, uri := range []string{x, y} {
				if c := codes(PublishDiagnosticsParams{Diagnostics: got[uri]}); c != tc.want[uri] {
					t.Errorf("%s: codes %q, want %q", uri, c, tc.want[uri])
				}
				for _, d := range got[uri] {
					if d.Code == report.UnverifiedRule && !strings.Contains(d.Message, "pyright is not installed") {
						t.Errorf("%s: message %q does not say why", uri, d.Message)
					}
				}
			}
		})
	}
}

// TestPositionsAreUTF16: columns are counted in UTF-16 code units, as the protocol says.
func TestPositionsAreUTF16(t *testing.T) {
	uri := fileURI("/r/a.go")
	tx := texts{root: "/r", docs: map[string]document{uri: {text: "x := \"é𝄞\" + y\n"}}}
	// y is at byte column 17: x(1) space := space " é(2) 𝄞(4) " space + space.
	if got := tx.position("a.go", 1, 17); got != (Position{Line: 0, Character: 13}) {
		t.Errorf("position = %+v, want line 0 character 13", got)
	}
}

func readFile(p string) (string, error) {
	b, err := os.ReadFile(p)
	return string(b), err
}

// FuzzFrames: any bytes on the server's input — frames, headers, JSON — end the session
// or are answered; the server never panics or hangs.
func FuzzFrames(f *testing.F) {
	f.Add([]byte("Content-Length: 52\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}"))
	f.Add([]byte("Content-Length: 5\r\n\r\n{}{}{"))
	f.Add([]byte("Content-Length: 99999999999\r\n\r\n"))
	f.Add([]byte("Content-Length: 80\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":3}}}"))
	f.Fuzz(func(t *testing.T, in []byte) {
		srv := &Server{Root: t.TempDir(), Verify: func(context.Context, string, []editset.Edit) (*report.Report, error) {
			return &report.Report{Status: report.Passed}, nil
		}}
		done := make(chan struct{})
		go func() {
			srv.Run(context.Background(), bytes.NewReader(in), io.Discard)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the server did not end at the end of its input")
		}
	})
}
