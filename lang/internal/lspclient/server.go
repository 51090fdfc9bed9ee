package lspclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// server is one running language server.
type server struct {
	check1  sync.Mutex // one check at a time
	cfg     Config
	cmd     *exec.Cmd
	conn    *jsonrpc2.Conn
	version int
	// open holds the URIs of the documents the server has open, with the SHA-256 of
	// the text it has of each.
	open map[string][32]byte
	// stamps are the watched files of the tree as last seen, by slash path: the server
	// is told of every file created, changed or deleted on disk since (see watch).
	stamps map[string]stamp

	closeOnce sync.Once
	closeErr  error
}

// stdio joins a child's standard output and input into one stream.
type stdio struct {
	io.ReadCloser
	in io.WriteCloser
}

func (s stdio) Write(p []byte) (int, error) { return s.in.Write(p) }
func (s stdio) Close() error                { return errors.Join(s.in.Close(), s.ReadCloser.Close()) }

// start runs the server for cfg.Root and initialises it.
func start(ctx context.Context, cfg Config) (*server, error) {
	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Dir = cfg.Root
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", cfg.Name, err)
	}
	s := &server{cfg: cfg, cmd: cmd, open: map[string][32]byte{}, stamps: scan(&cfg)}
	stream := jsonrpc2.NewBufferedStream(stdio{out, in}, jsonrpc2.VSCodeObjectCodec{})
	// The library's log would go to the process's stderr (the MCP server's, a hook's):
	// every failure that matters comes back as an error instead.
	quiet := jsonrpc2.SetLogger(log.New(io.Discard, "", 0))
	s.conn = jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(s.handle).SuppressErrClosed(), quiet)
	if err := s.initialize(ctx); err != nil {
		s.close()
		return nil, fmt.Errorf("initialising %s: %w", cfg.Name, err)
	}
	return s, nil
}

func (s *server) initialize(ctx context.Context) error {
	rootURI := fileURI(s.cfg.Root)
	params := map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          rootURI,
		"workspaceFolders": []map[string]string{{"uri": rootURI, "name": filepath.Base(s.cfg.Root)}},
		"capabilities": map[string]any{
			// Pulled diagnostics are computed on request, without the delay a server
			// gives typing users before it analyses an edit.
			"textDocument": map[string]any{"diagnostic": map[string]any{"dynamicRegistration": true}},
			"workspace":    s.cfg.Workspace,
		},
	}
	var result json.RawMessage
	if err := s.conn.Call(ctx, "initialize", params, &result); err != nil {
		return err
	}
	return s.conn.Notify(ctx, "initialized", map[string]any{})
}

// handle answers the server's requests (diagnostics are pulled, see check). It runs on
// the connection's goroutine: a panic in it is an error answer to the server, not a crash.
func (s *server) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (_ any, err error) {
	defer crash.Recover(&err)
	if req.Method == "workspace/configuration" {
		return s.configuration(req), nil
	}
	return nil, nil // registerCapability, workDoneProgress/create, log messages
}

// configuration answers the server's questions about its settings, a section at a time.
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
		out[i] = map[string]any{}
		if s.cfg.Settings != nil {
			out[i] = s.cfg.Settings(it.Section)
		}
	}
	return out
}

// check gives the server the files' content, pulls their diagnostics, and leaves them
// open: the next check of the same files sends only their new content. Files open from
// an earlier check that this one does not concern are closed first, so the server sees
// them as the disk has them, never as a rejected edit had them.
func (s *server) check(ctx context.Context, files map[string][]byte) ([]Diagnostic, error) {
	s.check1.Lock()
	defer s.check1.Unlock()
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
	}
	ds, err := s.checkFiles(ctx, files)
	if err != nil && ctx.Err() == nil {
		// The server died, or answered what it should not: it is not to be trusted with
		// the next check. Closed now (its connection may notice its death only after
		// this returns), the pool starts a new one for the next check.
		_ = s.close()
	}
	return ds, err
}

func (s *server) checkFiles(ctx context.Context, files map[string][]byte) ([]Diagnostic, error) {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if err := s.watch(ctx); err != nil {
		return nil, s.cfg.errorf("%w", err)
	}
	if err := s.sync(ctx, paths, files); err != nil {
		return nil, s.cfg.errorf("%w", err)
	}
	var out []Diagnostic
	for _, p := range paths {
		ds, err := s.pull(ctx, p)
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
	}
	return out, nil
}

// pull asks for the diagnostics of the file at p. Only a full report will do: an
// "unchanged" one would hold none, and pass the file unchecked.
func (s *server) pull(ctx context.Context, p string) ([]Diagnostic, error) {
	var report struct {
		Kind  string       `json:"kind"`
		Items []Diagnostic `json:"items"`
	}
	params := map[string]any{"textDocument": map[string]string{"uri": s.uri(p)}}
	if err := s.conn.Call(ctx, "textDocument/diagnostic", params, &report); err != nil {
		return nil, s.cfg.errorf("diagnostics of %s: %w", p, err)
	}
	if report.Kind != "full" {
		return nil, s.cfg.errorf("diagnostics of %s: a %q report, want a full one", p, report.Kind)
	}
	for i := range report.Items {
		report.Items[i].Path = p
	}
	return report.Items, nil
}

func (s *server) closed() bool {
	select {
	case <-s.conn.DisconnectNotify():
		return true
	default:
		return false
	}
}

// close stops the server; a failed check and the pool's Close may both call it.
func (s *server) close() error {
	s.closeOnce.Do(func() {
		s.closeErr = s.conn.Close()
		if s.cmd.Process != nil {
			_ = s.cmd.Process.Kill()
		}
		_ = s.cmd.Wait()
	})
	return s.closeErr
}

// uri is the file: URI of the file at slash path p under the root.
func (s *server) uri(p string) string {
	return fileURI(filepath.Join(s.cfg.Root, filepath.FromSlash(p)))
}

// fileURI is the file: URI of an absolute path.
func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}
