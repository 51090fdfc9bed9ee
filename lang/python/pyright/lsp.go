package pyright

import (
	"context"

	"github.com/agentverify/agentverify/lang/internal/lspclient"
)

// Servers keeps one pyright language server per project (root and options) running for
// a long-lived process, so that a check after the first one finds typeshed, the
// project's imports and the installed packages already analysed. It is safe for
// concurrent use; checks of one project run one at a time.
type Servers struct{ pool *lspclient.Pool }

// NewServers returns an empty set of servers; Close stops them.
func NewServers() *Servers { return &Servers{pool: lspclient.NewPool()} }

// Check checks files (repository-relative path → content) as they are given, the rest of
// the project as it is on disk under root, and returns the files' diagnostics with File
// set to their repository-relative paths.
func (s *Servers) Check(ctx context.Context, t *Tool, root string, o Options, files map[string][]byte) ([]Diagnostic, error) {
	cfg := lspclient.Config{
		Name:    "pyright-langserver",
		Command: []string{t.LangServer, "--stdio"},
		Root:    root,
		// pyright-langserver has no file watcher of its own: it is told of the Python
		// files changed on disk between checks.
		Watched:    Mirrored,
		SkipDir:    SkipDir,
		LanguageID: func(string) string { return "python" },
		Workspace:  map[string]any{"configuration": true, "workspaceFolders": true},
		Settings:   o.settings,
	}
	ds, err := s.pool.Check(ctx, t.LangServer+"\x00"+o.Python+"\x00"+o.PythonVersion, cfg, files)
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

// settings answers pyright's questions about its settings: the interpreter, and basic
// checking of the open files only (the project's own configuration wins). Pulled
// diagnostics with openFilesOnly mean no background analysis between checks.
func (o Options) settings(section string) any {
	switch section {
	case "python":
		cfg := map[string]any{}
		if o.Python != "" {
			cfg["pythonPath"] = o.Python
		}
		return cfg
	case "python.analysis":
		return map[string]any{"typeCheckingMode": "basic", "diagnosticMode": "openFilesOnly", "autoSearchPaths": true}
	}
	return map[string]any{}
}

func diagnostic(d lspclient.Diagnostic) Diagnostic {
	sev := map[int]string{1: "error", 2: "warning", 3: "information", 4: "hint"}[d.Severity]
	rule, _ := d.Code.(string)
	return Diagnostic{File: d.Path, Severity: sev, Message: d.Message, Rule: rule,
		Range: Range{Start: Position(d.Range.Start), End: Position(d.Range.End)}}
}
