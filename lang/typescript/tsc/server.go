package tsc

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/agentverify/agentverify/lang/internal/lspclient"
)

// Servers keeps one TypeScript 7 language server (`tsc --lsp --stdio`) per project root
// running for a long-lived process, so that a check after the first finds the program,
// its libraries and node_modules' declarations already loaded and checks only what an
// edit changes. It is safe for concurrent use; checks of one root run one at a time.
type Servers struct{ pool *lspclient.Pool }

// NewServers returns an empty set of servers; Close stops them.
func NewServers() *Servers { return &Servers{pool: lspclient.NewPool()} }

// Check checks files (repository-relative path → content) as they are given, the rest
// of the project as it is on disk under root, and returns the files' diagnostics with
// File set to their repository-relative paths.
func (s *Servers) Check(ctx context.Context, t *Tool, root string, files map[string][]byte) ([]Diagnostic, error) {
	if !t.Native() {
		return nil, fmt.Errorf("TypeScript %s has no language server agentverify can use (TypeScript 7 has)", t.Version)
	}
	cfg := lspclient.Config{
		Name:       "tsc --lsp",
		Command:    []string{t.Exe, "--lsp", "--stdio"},
		Root:       root,
		Watched:    Watched,
		SkipDir:    func(_ fs.FS, p string) bool { return SkipDir(p) },
		LanguageID: languageID,
		Workspace: map[string]any{"configuration": true, "workspaceFolders": true,
			"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}},
		// No settings of our own: the project's tsconfig.json decides.
	}
	ds, err := s.pool.Check(ctx, t.Exe, cfg, files)
	if err != nil {
		return nil, err
	}
	out := make([]Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = diagnostic(d)
	}
	return out, nil
}

// Close stops every server.
func (s *Servers) Close() error { return s.pool.Close() }

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

// diagnostic converts an LSP diagnostic; its Column stays in UTF-16 units, 1-based.
func diagnostic(d lspclient.Diagnostic) Diagnostic {
	sev := map[int]string{1: "error", 2: "warning", 3: "message", 4: "suggestion"}[d.Severity]
	code := 0
	switch c := d.Code.(type) {
	case float64:
		code = int(c)
	case string:
		fmt.Sscan(strings.TrimPrefix(c, "TS"), &code)
	}
	msg, detail, _ := strings.Cut(d.Message, "\n")
	return Diagnostic{File: d.Path, Line: d.Range.Start.Line + 1, Column: d.Range.Start.Character + 1, Category: sev,
		Code: code, Message: msg, Detail: strings.TrimSpace(detail)}
}
