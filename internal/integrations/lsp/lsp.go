// Package lsp is agentverify as a language server (agentverify lsp): the findings of the
// open documents, verified in memory as the editor holds them (unsaved buffers included,
// as proposed edits over the working tree), published as diagnostics on open, change and
// save — the rule ID as the diagnostic's code, related places as related information,
// and a quick fix for every finding with one safe edit (what --fix applies). Editors and
// the agents that read an editor's diagnostics back to the model after a write (Roo Code,
// Cline, OpenCode, Continue) get the gate with no hook at all.
//
// JSON-RPC and the protocol's framing are github.com/sourcegraph/jsonrpc2 (the client of
// pyright in lang/python uses it too); the few protocol types used are declared here.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/report"
)

// Verify checks proposed edits in the repository containing dir.
type Verify func(ctx context.Context, dir string, edits []editset.Edit) (*report.Report, error)

// Server is one language server session.
type Server struct {
	// Verify runs the gate: the same warm engine as the hooks (in process, or the shared
	// server's).
	Verify Verify
	// Root is the workspace when the client names none.
	Root string
	// Debounce delays a verification after a change, so typing does not verify every key.
	Debounce time.Duration
	// Version is reported in serverInfo.
	Version string

	mu        sync.Mutex
	conn      *jsonrpc2.Conn
	docs      map[string]*document // by URI
	published map[string]bool      // URIs with diagnostics the client shows
	gen       int                  // bumped by every change: a stale verification is not published
	timer     *time.Timer
	work      sync.Mutex // one verification at a time
	wg        sync.WaitGroup
	ctx       context.Context
	shutdown  bool
}

type document struct {
	path    string
	text    string
	version int
}

// Run serves the protocol on r and w until the client exits or ctx ends.
func (s *Server) Run(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.ctx = ctx
	s.docs, s.published = map[string]*document{}, map[string]bool{}
	stream := jsonrpc2.NewBufferedStream(pipe{r, w}, jsonrpc2.VSCodeObjectCodec{})
	quiet := jsonrpc2.SetLogger(log.New(io.Discard, "", 0))
	// The connection serves requests as soon as it exists, before NewConn returns: the
	// handler records it (under mu), and so does Run, so a verification never reads it
	// unguarded.
	conn := jsonrpc2.NewConn(ctx, stream, jsonrpc2.HandlerWithError(s.handle), quiet)
	s.setConn(conn)
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		conn.Close()
	}
	cancel()
	s.wg.Wait()
	return nil
}

// pipe is the stdio pair as one stream; closing it closes neither end.
type pipe struct {
	io.Reader
	io.Writer
}

func (pipe) Close() error { return nil }

// errUnknown answers a request the server does not implement.
var errUnknown = &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported"}

// setConn records the connection the client speaks on.
func (s *Server) setConn(conn *jsonrpc2.Conn) {
	s.mu.Lock()
	s.conn = conn
	s.mu.Unlock()
}

func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	s.setConn(conn)
	switch req.Method {
	case "initialize":
		return s.initialize(req)
	case "initialized", "$/cancelRequest", "$/setTrace", "workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles":
		return nil, nil
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return nil, nil
	case "exit":
		conn.Close()
		return nil, nil
	case "textDocument/didOpen", "textDocument/didChange", "textDocument/didSave", "textDocument/didClose":
		return nil, s.sync(req)
	case "textDocument/codeAction":
		var p CodeActionParams
		if err := unmarshal(req, &p); err != nil {
			return nil, err
		}
		return codeActions(p), nil
	}
	if req.Notif {
		return nil, nil
	}
	return nil, errUnknown
}

func unmarshal(req *jsonrpc2.Request, v any) error {
	if req.Params == nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: "no params"}
	}
	if err := json.Unmarshal(*req.Params, v); err != nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: err.Error()}
	}
	return nil
}

func (s *Server) initialize(req *jsonrpc2.Request) (any, error) {
	var p InitializeParams
	if err := unmarshal(req, &p); err != nil {
		return nil, err
	}
	root := p.RootPath
	if len(p.WorkspaceFolders) > 0 {
		root, _ = uriPath(p.WorkspaceFolders[0].URI)
	} else if p.RootURI != "" {
		root, _ = uriPath(p.RootURI)
	}
	if root != "" {
		s.mu.Lock()
		s.Root = root
		s.mu.Unlock()
	}
	return InitializeResult{
		Capabilities: ServerCapabilities{
			TextDocumentSync:   TextDocumentSyncOptions{OpenClose: true, Change: 1, Save: SaveOptions{IncludeText: true}},
			CodeActionProvider: CodeActionOptions{CodeActionKinds: []string{"quickfix"}},
		},
		ServerInfo: ServerInfo{Name: "agentverify", Version: s.Version},
	}, nil
}

// sync records an open, change, save or close, and schedules a verification.
func (s *Server) sync(req *jsonrpc2.Request) error {
	var uri, text string
	var version int
	closing, hasText := false, true
	switch req.Method {
	case "textDocument/didOpen":
		var p DidOpenTextDocumentParams
		if err := unmarshal(req, &p); err != nil {
			return err
		}
		uri, text, version = p.TextDocument.URI, p.TextDocument.Text, p.TextDocument.Version
	case "textDocument/didChange":
		var p DidChangeTextDocumentParams
		if err := unmarshal(req, &p); err != nil {
			return err
		}
		if len(p.ContentChanges) == 0 {
			return nil
		}
		uri, version = p.TextDocument.URI, p.TextDocument.Version
		text = p.ContentChanges[len(p.ContentChanges)-1].Text // full sync: the last is whole
	case "textDocument/didSave":
		var p DidSaveTextDocumentParams
		if err := unmarshal(req, &p); err != nil {
			return err
		}
		uri, hasText = p.TextDocument.URI, p.Text != nil
		if hasText {
			text = *p.Text
		}
	case "textDocument/didClose":
		var p DidCloseTextDocumentParams
		if err := unmarshal(req, &p); err != nil {
			return err
		}
		uri, closing = p.TextDocument.URI, true
	}
	return s.record(uri, text, version, hasText, closing)
}

func (s *Server) record(uri, text string, version int, hasText, closing bool) error {
	path, err := uriPath(uri)
	if err != nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: err.Error()}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch d := s.docs[uri]; {
	case closing:
		delete(s.docs, uri)
	case d == nil:
		s.docs[uri] = &document{path: path, text: text, version: version}
	case hasText:
		d.text = text
		if version != 0 {
			d.version = version
		}
	}
	s.gen++
	s.schedule()
	return nil
}

// schedule runs a verification after the debounce (s.mu held).
func (s *Server) schedule() {
	if s.timer != nil {
		s.timer.Stop()
	}
	gen := s.gen
	s.wg.Add(1)
	s.timer = time.AfterFunc(s.Debounce, func() {
		defer s.wg.Done()
		s.verify(gen)
	})
}

// verify checks every open document as the editor holds it and publishes the findings,
// unless a newer change arrived meanwhile (its own verification publishes then).
func (s *Server) verify(gen int) {
	s.work.Lock()
	defer s.work.Unlock()
	s.mu.Lock()
	if gen != s.gen || s.ctx.Err() != nil {
		s.mu.Unlock()
		return
	}
	root := s.Root
	docs := make(map[string]document, len(s.docs))
	var edits []editset.Edit
	for uri, d := range s.docs {
		docs[uri] = *d
		edits = append(edits, editset.Edit{Path: d.path, Content: []byte(d.text)})
	}
	s.mu.Unlock()
	sort.Slice(edits, func(i, j int) bool { return edits[i].Path < edits[j].Path })
	diags := map[string][]Diagnostic{}
	if len(edits) > 0 {
		rep, err := s.Verify(s.ctx, root, edits)
		diags = diagnostics(rep, err, docs, root)
	}
	s.publish(gen, docs, diags)
}

// publish sends the diagnostics of every file with findings, and empty lists for files
// that had some and no longer do.
func (s *Server) publish(gen int, docs map[string]document, diags map[string][]Diagnostic) {
	s.mu.Lock()
	if gen != s.gen {
		s.mu.Unlock()
		return
	}
	uris := map[string]bool{}
	for uri := range s.published {
		uris[uri] = true
	}
	for uri := range docs {
		uris[uri] = true
	}
	for uri := range diags {
		uris[uri] = true
	}
	s.published = map[string]bool{}
	for uri := range diags {
		s.published[uri] = true
	}
	conn := s.conn
	s.mu.Unlock()
	for _, uri := range sortedKeys(uris) {
		p := PublishDiagnosticsParams{URI: uri, Diagnostics: diags[uri]}
		if p.Diagnostics == nil {
			p.Diagnostics = []Diagnostic{}
		}
		if d, ok := docs[uri]; ok && d.version != 0 {
			v := d.version
			p.Version = &v
		}
		if err := conn.Notify(s.ctx, "textDocument/publishDiagnostics", p); err != nil {
			return
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// uriPath is the file system path of a file: URI.
func uriPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" || u.Path == "" {
		return "", errors.New("not a file URI: " + uri)
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), nil
}

// fileURI is the file: URI of an absolute path.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
