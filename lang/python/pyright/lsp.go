package pyright

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
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/agentverify/agentverify/crash"
)

// Servers keeps one pyright language server per project (root and options) running for
// a long-lived process, so that a check after the first one finds typeshed, the
// project's imports and the installed packages already analysed. It is safe for
// concurrent use; checks of one project run one at a time.
type Servers struct {
	mu      sync.Mutex
	servers map[string]*server
}

// NewServers returns an empty set of servers; Close stops them.
func NewServers() *Servers { return &Servers{servers: map[string]*server{}} }

// Check checks files (repository-relative path → content) as they are given, the rest of
// the project as it is on disk under root, and returns the files' diagnostics with File
// set to their repository-relative paths.
func (s *Servers) Check(ctx context.Context, t *Tool, root string, o Options, files map[string][]byte) ([]Diagnostic, error) {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real // the server names files by their real paths
	}
	key := fmt.Sprintf("%s\x00%s\x00%s\x00%s", t.LangServer, root, o.Python, o.PythonVersion)
	s.mu.Lock()
	srv := s.servers[key]
	if srv == nil || srv.closed() {
		var err error
		if srv, err = start(ctx, t, root, o); err != nil {
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

// server is one running pyright-langserver.
type server struct {
	check1  sync.Mutex // one check at a time
	root    string
	opts    Options
	cmd     *exec.Cmd
	conn    *jsonrpc2.Conn
	version int
	// open holds the URIs of the documents the server has open, with the SHA-256 of
	// the text it has of each.
	open map[string][32]byte
	// stamps are the Python files of the tree as last seen, by slash path: the server
	// is told of every file created, changed or deleted on disk since (see watch).
	stamps map[string]stamp
}

type stamp struct {
	mod  time.Time
	size int64
}

// scan returns the stamps of the Python files under root.
func scan(root string) map[string]stamp {
	out := map[string]stamp{}
	fsys := os.DirFS(root)
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // a directory that vanished or cannot be read: nothing to report
		case d.IsDir() && p != "." && SkipDir(fsys, p):
			return fs.SkipDir
		case d.IsDir() || !d.Type().IsRegular() || !Mirrored(p):
			return nil
		}
		if info, err := d.Info(); err == nil {
			out[p] = stamp{info.ModTime(), info.Size()}
		}
		return nil
	})
	return out
}

// watch tells the server which files changed on disk since the last check: it has no
// file watcher of its own, and a file changed by a commit, a checkout or an accepted
// edit must not be seen as it was.
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

// sync makes the server's open documents exactly paths, with the given content.
func (s *server) sync(ctx context.Context, paths []string, files map[string][]byte) error {
	uris := map[string]string{}
	for _, p := range paths {
		uris[fileURI(filepath.Join(s.root, filepath.FromSlash(p)))] = p
	}
	for uri := range s.open {
		if _, ok := uris[uri]; !ok {
			delete(s.open, uri)
			if err := s.conn.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": map[string]string{"uri": uri}}); err != nil {
				return err
			}
		}
	}
	s.version++
	for _, p := range paths {
		uri := fileURI(filepath.Join(s.root, filepath.FromSlash(p)))
		sum, open := s.open[uri]
		if open && sum == sha256.Sum256(files[p]) {
			// The server has this text: any change on disk since has been reported
			// (watch), so its diagnostics are current, and an update would only make it
			// discard every type it inferred (pyright starts a new type evaluator on
			// each change) and check the file again.
			continue
		}
		text := string(files[p])
		var err error
		if open {
			err = s.conn.Notify(ctx, "textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": uri, "version": s.version},
				"contentChanges": []map[string]string{{"text": text}},
			})
		} else {
			doc := map[string]any{"uri": uri, "languageId": "python", "version": s.version, "text": text}
			err = s.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": doc})
		}
		if err != nil {
			return err
		}
		s.open[uri] = sha256.Sum256(files[p])
	}
	return nil
}

type lspDiagnostic struct {
	Range    Range  `json:"range"`
	Severity int    `json:"severity"`
	Code     any    `json:"code"`
	Message  string `json:"message"`
}

// stdio joins a child's standard output and input into one stream.
type stdio struct {
	io.ReadCloser
	in io.WriteCloser
}

func (s stdio) Write(p []byte) (int, error) { return s.in.Write(p) }
func (s stdio) Close() error                { return errors.Join(s.in.Close(), s.ReadCloser.Close()) }

// start runs pyright-langserver for the project at root and initialises it.
func start(ctx context.Context, t *Tool, root string, o Options) (*server, error) {
	cmd := exec.Command(t.LangServer, "--stdio")
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
		return nil, fmt.Errorf("starting pyright-langserver: %w", err)
	}
	s := &server{root: root, opts: o, cmd: cmd, open: map[string][32]byte{}, stamps: scan(root)}
	stream := jsonrpc2.NewBufferedStream(stdio{out, in}, jsonrpc2.VSCodeObjectCodec{})
	// The library's log would go to the process's stderr (the MCP server's, a hook's):
	// every failure that matters comes back as an error instead.
	quiet := jsonrpc2.SetLogger(log.New(io.Discard, "", 0))
	s.conn = jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(s.handle).SuppressErrClosed(), quiet)
	if err := s.initialize(ctx); err != nil {
		s.close()
		return nil, fmt.Errorf("initialising pyright-langserver: %w", err)
	}
	return s, nil
}

func (s *server) initialize(ctx context.Context) error {
	rootURI := fileURI(s.root)
	params := map[string]any{
		"processId": os.Getpid(),
		"rootUri":   rootURI,
		"workspaceFolders": []map[string]string{
			{"uri": rootURI, "name": filepath.Base(s.root)},
		},
		"capabilities": map[string]any{
			// Pulled diagnostics are computed on request, without the delay pyright
			// gives typing users before it analyses an edit, and without background
			// analysis between checks.
			"textDocument": map[string]any{"diagnostic": map[string]any{"dynamicRegistration": true}},
			"workspace":    map[string]any{"configuration": true, "workspaceFolders": true},
		},
	}
	var result json.RawMessage
	if err := s.conn.Call(ctx, "initialize", params, &result); err != nil {
		return err
	}
	return s.conn.Notify(ctx, "initialized", map[string]any{})
}

// handle answers the server's requests (diagnostics are pulled, see check). It runs on
// the connection's goroutine: a panic in it is an error answer to pyright, not a crash.
func (s *server) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (_ any, err error) {
	defer crash.Recover(&err)
	switch req.Method {
	case "workspace/configuration":
		return s.configuration(req), nil
	}
	return nil, nil // registerCapability, workDoneProgress/create, log messages
}

// configuration answers pyright's questions about its settings: the interpreter, and
// basic checking of the open files only (the project's own configuration wins).
func (s *server) configuration(req *jsonrpc2.Request) []any {
	var p struct {
		Items []struct {
			Section string `json:"section"`
		} `json:"items"`
	}
	if req.Params != nil {
		_ = json.Unmarshal(*req.Params, &p)
	}
	out := make([]any, len(p.Items))
	for i, it := range p.Items {
		switch it.Section {
		case "python":
			cfg := map[string]any{}
			if s.opts.Python != "" {
				cfg["pythonPath"] = s.opts.Python
			}
			out[i] = cfg
		case "python.analysis":
			out[i] = map[string]any{"typeCheckingMode": "basic", "diagnosticMode": "openFilesOnly", "autoSearchPaths": true}
		default:
			out[i] = map[string]any{}
		}
	}
	return out
}

// check gives the server the files' content, pulls their diagnostics, and leaves them
// open: the next check of the same files sends only their new content, which spares
// pyright re-reading them. Files open from an earlier check that this one does not
// concern are closed first, so the server sees them as the disk has them, never as a
// rejected edit had them.
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
		return nil, fmt.Errorf("pyright-langserver: %w", err)
	}
	if err := s.sync(ctx, paths, files); err != nil {
		return nil, fmt.Errorf("pyright-langserver: %w", err)
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
			return nil, fmt.Errorf("pyright-langserver: diagnostics of %s: %w", p, err)
		}
		if report.Kind != "full" {
			return nil, fmt.Errorf("pyright-langserver: diagnostics of %s: a %q report, want a full one", p, report.Kind)
		}
		for _, d := range report.Items {
			out = append(out, d.diagnostic(p))
		}
	}
	return out, nil
}

func (d lspDiagnostic) diagnostic(path string) Diagnostic {
	sev := map[int]string{1: "error", 2: "warning", 3: "information", 4: "hint"}[d.Severity]
	rule, _ := d.Code.(string)
	return Diagnostic{File: path, Severity: sev, Message: d.Message, Range: d.Range, Rule: rule}
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
