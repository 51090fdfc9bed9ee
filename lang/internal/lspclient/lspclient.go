// Package lspclient keeps language servers (pyright-langserver, TypeScript 7's
// `tsc --lsp`) running over stdio for a long-lived process and pulls the diagnostics of
// files given as content, the rest of the project as it is on disk. The frontends' oracle
// packages (lang/python/pyright, lang/typescript/tsc) say which server, which files it
// watches and how to answer its settings questions; this package holds the protocol:
// one server per key, one check of a server at a time, the files changed on disk since
// the last check reported as watched-file events, the open documents kept exactly the
// checked ones (sent again only when their text changed), and pulled diagnostics.
package lspclient

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
)

// Config says how to run and feed one language server.
type Config struct {
	// Name names the server in errors ("pyright-langserver", "tsc --lsp").
	Name string
	// Command is the server's command line; it runs in Root.
	Command []string
	// Root is the project's directory (its real path: the servers name files by it).
	Root string
	// Watched reports whether a change on disk to the file at slash path p (relative to
	// Root) can change a check; SkipDir whether the directory at p holds none of them.
	Watched func(p string) bool
	SkipDir func(fsys fs.FS, p string) bool
	// LanguageID is the LSP language of the file at p.
	LanguageID func(p string) string
	// Workspace is the client's workspace capabilities.
	Workspace map[string]any
	// Settings answers workspace/configuration for one section; nil answers {} to all.
	Settings func(section string) any
}

// Position is a position in a document: 0-based line, character in the server's units.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a document range, End exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Diagnostic is one diagnostic as the server reports it, with Path the file's
// repository-relative slash path (a key of the files checked).
type Diagnostic struct {
	Path     string `json:"-"`
	Range    Range  `json:"range"`
	Severity int    `json:"severity"`
	Code     any    `json:"code"`
	Message  string `json:"message"`
}

// Pool keeps one server per key running. It is safe for concurrent use.
type Pool struct {
	mu      sync.Mutex
	servers map[string]*server
}

// NewPool returns an empty pool; Close stops its servers.
func NewPool() *Pool { return &Pool{servers: map[string]*server{}} }

// Check checks files (repository-relative path → content) as they are given, the rest of
// the project as it is on disk under cfg.Root, with the server of cfg.Root and key (what
// else tells servers apart: the command, the options), started with cfg when none runs.
func (p *Pool) Check(ctx context.Context, key string, cfg Config, files map[string][]byte) ([]Diagnostic, error) {
	if real, err := filepath.EvalSymlinks(cfg.Root); err == nil {
		cfg.Root = real // the servers name files by their real paths
	}
	key = cfg.Root + "\x00" + key
	p.mu.Lock()
	srv := p.servers[key]
	if srv == nil || srv.closed() {
		if srv != nil {
			_ = srv.close() // a server that died between checks: reap its process
		}
		var err error
		if srv, err = start(ctx, cfg); err != nil {
			p.mu.Unlock()
			return nil, err
		}
		p.servers[key] = srv
	}
	p.mu.Unlock()
	return srv.check(ctx, files)
}

// Close stops every server.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for k, srv := range p.servers {
		errs = append(errs, srv.close())
		delete(p.servers, k)
	}
	return errors.Join(errs...)
}

// errorf prefixes an error with the server's name.
func (c *Config) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: "+format, append([]any{c.Name}, args...)...)
}
