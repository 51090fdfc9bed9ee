package tsc

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// Servers keeps one TypeScript 7 language server (`tsc --lsp --stdio`) per project root
// running for a long-lived process, so that a check after the first finds the program,
// its libraries and node_modules' declarations already loaded and checks only what an
// edit changes. It is safe for concurrent use; checks of one root run one at a time.
type Servers struct {
	mu      sync.Mutex
	servers map[string]*server
}

// NewServers returns an empty set of servers; Close stops them.
func NewServers() *Servers { return &Servers{servers: map[string]*server{}} }

// Check checks files (repository-relative path → content) as they are given, the rest
// of the project as it is on disk under root, and returns the files' diagnostics with
// File set to their repository-relative paths.
func (s *Servers) Check(ctx context.Context, t *Tool, root string, files map[string][]byte) ([]Diagnostic, error) {
	if !t.Native() {
		return nil, fmt.Errorf("TypeScript %s has no language server agentverify can use (TypeScript 7 has)", t.Version)
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	key := t.Exe + "\x00" + root
	s.mu.Lock()
	srv := s.servers[key]
	if srv == nil || srv.closed() {
		var err error
		if srv, err = start(ctx, t, root); err != nil {
			s.mu.Unlock()
			return nil, err
		}
		s.servers[key] = srv
	}
	s.mu.Unlock()
	return srv.check(ctx, files)
}

// Close stops every server.
func (s *Servers) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for k, srv := range s.servers {
		errs = append(errs, srv.close())
		delete(s.servers, k)
	}
	return errors.Join(errs...)
}

// server is one running language server.
type server struct {
	check1  sync.Mutex // one check at a time
	root    string
	cmd     *exec.Cmd
	conn    *jsonrpc2.Conn
	version int
	// open holds the URIs of the open documents with the SHA-256 of their text.
	open map[string][32]byte
	// stamps are the project's source and configuration files as last seen: the server
	// is told of every file created, changed or deleted on disk since.
	stamps map[string]stamp
}

type stamp struct {
	mod  time.Time
	size int64
}

// Watched reports whether a change to the file at p (slash path) can change a check:
// sources, declarations and the JSON configuration files.
func Watched(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json":
		return true
	}
	return false
}

// SkipDir reports whether the directory at p is left out of the project's files:
// hidden directories and node_modules (whose packages change only by an install).
func SkipDir(p string) bool {
	base := filepath.Base(p)
	return base == "node_modules" || strings.HasPrefix(base, ".") && base != "." && base != ".."
}

// scan returns the stamps of the project's files under root.
func scan(root string) map[string]stamp {
	out := map[string]stamp{}
	fsys := os.DirFS(root)
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && p != "." && SkipDir(p):
			return fs.SkipDir
		case d.IsDir() || !d.Type().IsRegular() || !Watched(p):
			return nil
		}
		if info, err := d.Info(); err == nil {
			out[p] = stamp{info.ModTime(), info.Size()}
		}
		return nil
	})
	return out
}

// watch tells the server which files changed on disk since the last check.
func (s *server) watch(ctx context.Context) error {
	now := scan(s.root)
	var changes []map[string]any
	for p, st := range now {
		old, ok := s.stamps[p]
		switch {
		case !ok:
			changes = append(changes, fileEvent(s.root, p, 1))
		case old != st:
			changes = append(changes, fileEvent(s.root, p, 2))
		}
	}
	for p := range s.stamps {
		if _, ok := now[p]; !ok {
			changes = append(changes, fileEvent(s.root, p, 3))
		}
	}
	s.stamps = now
	if len(changes) == 0 {
		return nil
	}
	return s.conn.Notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": changes})
}

// fileEvent is an LSP FileEvent: typ 1 created, 2 changed, 3 deleted.
func fileEvent(root, p string, typ int) map[string]any {
	return map[string]any{"uri": fileURI(filepath.Join(root, filepath.FromSlash(p))), "type": typ}
}

// languageID is the LSP language of a file.
func languageID(p string) string {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".tsx":
		return "typescriptreact"
	case ".js", ".mjs", ".cjs":
		return "javascript"
	case ".jsx":
		return "javascriptreact"
	}
	return "typescript"
}

// sync makes the server's open documents exactly paths, with the given content.
func (s *server) sync(ctx context.Context, paths []string, files map[string][]byte) error {
	uris := map[string]bool{}
	for _, p := range paths {
		uris[fileURI(filepath.Join(s.root, filepath.FromSlash(p)))] = true
	}
	for uri := range s.open {
		if !uris[uri] {
			delete(s.open, uri)
			if err := s.conn.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": map[string]string{"uri": uri}}); err != nil {
				return err
			}
		}
	}
	s.version++
	for _, p := range paths {
		uri := fileURI(filepath.Join(s.root, filepath.FromSlash(p)))
		sum := sha256.Sum256(files[p])
		old, open := s.open[uri]
		if open && old == sum {
			continue // the server has this text
		}
		var err error
		if open {
			err = s.conn.Notify(ctx, "textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": uri, "version": s.version},
				"contentChanges": []map[string]string{{"text": string(files[p])}},
			})
		} else {
			doc := map[string]any{"uri": uri, "languageId": languageID(p), "version": s.version, "text": string(files[p])}
			err = s.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": doc})
		}
		if err != nil {
			return err
		}
		s.open[uri] = sum
	}
	return nil
}

// stdio joins a child's standard output and input into one stream.
type stdio struct {
	io.ReadCloser
	in io.WriteCloser
}

func (s stdio) Write(p []byte) (int, error) { return s.in.Write(p) }
func (s stdio) Close() error                { return errors.Join(s.in.Close(), s.ReadCloser.Close()) }

// start runs the language server for the project at root and initialises it.
func start(ctx context.Context, t *Tool, root string) (*server, error) {
	cmd := exec.Command(t.Exe, "--lsp", "--stdio")
	cmd.Dir = root
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting tsc --lsp: %w", err)
	}
	s := &server{root: root, cmd: cmd, open: map[string][32]byte{}, stamps: scan(root)}
	stream := jsonrpc2.NewBufferedStream(stdio{out, in}, jsonrpc2.VSCodeObjectCodec{})
	quiet := jsonrpc2.SetLogger(log.New(io.Discard, "", 0))
	s.conn = jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(s.handle).SuppressErrClosed(), quiet)
	if err := s.initialize(ctx); err != nil {
		s.close()
		return nil, fmt.Errorf("initialising tsc --lsp: %w", err)
	}
	return s, nil
}

func (s *server) initialize(ctx context.Context) error {
	rootURI := fileURI(s.root)
	params := map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          rootURI,
		"workspaceFolders": []map[string]string{{"uri": rootURI, "name": filepath.Base(s.root)}},
		"capabilities": map[string]any{
			"textDocument": map[string]any{"diagnostic": map[string]any{"dynamicRegistration": true}},
			"workspace": map[string]any{"configuration": true, "workspaceFolders": true,
				"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}},
		},
	}
	var result json.RawMessage
	if err := s.conn.Call(ctx, "initialize", params, &result); err != nil {
		return err
	}
	return s.conn.Notify(ctx, "initialized", map[string]any{})
}

// handle answers the server's requests: no settings of our own (the project's
// tsconfig.json decides), every registration accepted.
func (s *server) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	if req.Method == "workspace/configuration" {
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		if req.Params != nil {
			_ = json.Unmarshal(*req.Params, &p)
		}
		out := make([]any, len(p.Items))
		for i := range out {
			out[i] = map[string]any{}
		}
		return out, nil
	}
	return nil, nil
}

type lspDiagnostic struct {
	Range struct {
		Start struct {
			Line      int `json:"line"`
			Character int `json:"character"`
		} `json:"start"`
	} `json:"range"`
	Severity int    `json:"severity"`
	Code     any    `json:"code"`
	Message  string `json:"message"`
}

// check gives the server the files' content, pulls their diagnostics and leaves them
// open; files open from an earlier check that this one does not concern are closed
// first, so the server sees them as the disk has them, never as a rejected edit had them.
func (s *server) check(ctx context.Context, files map[string][]byte) ([]Diagnostic, error) {
	s.check1.Lock()
	defer s.check1.Unlock()
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if err := s.watch(ctx); err != nil {
		return nil, fmt.Errorf("tsc --lsp: %w", err)
	}
	if err := s.sync(ctx, paths, files); err != nil {
		return nil, fmt.Errorf("tsc --lsp: %w", err)
	}
	var out []Diagnostic
	for _, p := range paths {
		uri := fileURI(filepath.Join(s.root, filepath.FromSlash(p)))
		var report struct {
			Kind  string          `json:"kind"`
			Items []lspDiagnostic `json:"items"`
		}
		params := map[string]any{"textDocument": map[string]string{"uri": uri}}
		if err := s.conn.Call(ctx, "textDocument/diagnostic", params, &report); err != nil {
			return nil, fmt.Errorf("tsc --lsp: diagnostics of %s: %w", p, err)
		}
		for _, d := range report.Items {
			out = append(out, d.diagnostic(p))
		}
	}
	return out, nil
}

// diagnostic converts an LSP diagnostic; its Column stays in UTF-16 units, 1-based.
func (d lspDiagnostic) diagnostic(p string) Diagnostic {
	sev := map[int]string{1: "error", 2: "warning", 3: "message", 4: "suggestion"}[d.Severity]
	code := 0
	switch c := d.Code.(type) {
	case float64:
		code = int(c)
	case string:
		fmt.Sscan(strings.TrimPrefix(c, "TS"), &code)
	}
	msg, detail, _ := strings.Cut(d.Message, "\n")
	return Diagnostic{File: p, Line: d.Range.Start.Line + 1, Column: d.Range.Start.Character + 1, Category: sev,
		Code: code, Message: msg, Detail: strings.TrimSpace(detail)}
}

func (s *server) closed() bool {
	select {
	case <-s.conn.DisconnectNotify():
		return true
	default:
		return false
	}
}

func (s *server) close() error {
	err := s.conn.Close()
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
	}
	_ = s.cmd.Wait()
	return err
}

// fileURI is the file: URI of an absolute path.
func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}
