// Package pyright runs the pyright type checker (https://github.com/microsoft/pyright,
// npm package "pyright") for the Python frontend: in batch mode (`pyright --outputjson`)
// for one verification, and as a persistent language server (`pyright-langserver
// --stdio`, see Server) for long-lived processes. It knows pyright's command line, its
// JSON report, the language server protocol it speaks and where the typeshed stubs it
// bundles are; turning diagnostics into problems is the frontend's business.
package pyright

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Version is the pyright release agentverify is tested with (.ci/run installs it).
const Version = "1.1.414"

// EnvVar names the environment variable that overrides where pyright is: the path of its
// `pyright` command (`pyright-langserver` is expected next to it).
const EnvVar = "AGENTVERIFY_PYRIGHT"

// ErrNotInstalled is returned by Find when pyright is nowhere it looks.
var ErrNotInstalled = errors.New("pyright is not installed: Python code cannot be verified without it; install it with `npm install -g pyright@" + Version + "` (or set " + EnvVar + " to its `pyright` command)")

// Tool is one pyright installation.
type Tool struct {
	// CLI is the `pyright` command, LangServer the `pyright-langserver` command.
	CLI, LangServer string
	// Typeshed is the directory of the typeshed stubs pyright bundles (it holds stdlib/).
	Typeshed string
}

// Find locates pyright: the command $AGENTVERIFY_PYRIGHT names, then the verified
// project's own install (root/node_modules/.bin), then PATH.
func Find(root string) (*Tool, error) {
	if p := os.Getenv(EnvVar); p != "" {
		t, err := at(p)
		if err != nil {
			return nil, fmt.Errorf("%s=%s: %w; install pyright with `npm install -g pyright@%s` and point %s at its `pyright` command", EnvVar, p, err, Version, EnvVar)
		}
		return t, nil
	}
	if root != "" {
		if t, err := at(filepath.Join(root, "node_modules", ".bin", "pyright")); err == nil {
			return t, nil
		}
	}
	if p, err := exec.LookPath("pyright"); err == nil {
		return at(p)
	}
	return nil, ErrNotInstalled
}

// at returns the installation whose `pyright` command is cli.
func at(cli string) (*Tool, error) {
	if _, err := os.Stat(cli); err != nil {
		return nil, fmt.Errorf("no pyright command: %w", err)
	}
	ls := filepath.Join(filepath.Dir(cli), "pyright-langserver")
	if _, err := os.Stat(ls); err != nil {
		return nil, fmt.Errorf("pyright-langserver is not next to %s: %w", cli, err)
	}
	// The npm package's bin entries are links to index.js at the package's root, next to
	// dist/typeshed-fallback.
	t := &Tool{CLI: cli, LangServer: ls}
	if real, err := filepath.EvalSymlinks(cli); err == nil {
		ts := filepath.Join(filepath.Dir(real), "dist", "typeshed-fallback")
		if _, err := os.Stat(filepath.Join(ts, "stdlib", "VERSIONS")); err == nil {
			t.Typeshed = ts
		}
	}
	return t, nil
}

// Position is a zero-based line and UTF-16 character offset (the protocol's unit).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a source range, End exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Diagnostic is one of pyright's diagnostics.
type Diagnostic struct {
	// File is the absolute path of the file (batch mode) or empty (the server reports
	// by URI; Server.Check fills it in).
	File     string `json:"file"`
	Severity string `json:"severity"` // "error", "warning", "information"
	Message  string `json:"message"`
	Range    Range  `json:"range"`
	// Rule is pyright's rule ("reportAttributeAccessIssue"); empty for syntax errors and
	// diagnostics no rule controls.
	Rule string `json:"rule"`
}

// report is pyright's --outputjson document.
type report struct {
	Version     string       `json:"version"`
	Diagnostics []Diagnostic `json:"generalDiagnostics"`
}

// Options are what a check is run under.
type Options struct {
	// Python is the interpreter whose environment resolves imports; "" lets pyright look.
	Python string
	// PythonVersion ("3.9") is the version to check for; "" leaves it to the project's
	// configuration.
	PythonVersion string
}

// Check runs `pyright --outputjson` in dir over files (paths relative to dir) and returns
// every diagnostic it reports. pyright reads the project's configuration
// (pyrightconfig.json or pyproject.toml's [tool.pyright]) from dir.
func (t *Tool) Check(ctx context.Context, dir string, files []string, o Options) ([]Diagnostic, error) {
	args := []string{"--outputjson"}
	if o.Python != "" {
		args = append(args, "--pythonpath", o.Python)
	}
	if o.PythonVersion != "" {
		args = append(args, "--pythonversion", o.PythonVersion)
	}
	for _, f := range files {
		args = append(args, "."+string(filepath.Separator)+f) // pyright has no "--"; a path may start with '-'
	}
	cmd := exec.CommandContext(ctx, t.CLI, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	// Exit status 1 means "diagnostics reported"; anything else is a failure to check.
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return nil, fmt.Errorf("pyright: %w: %s", err, firstLine(stderr.String()+stdout.String()))
	}
	return parseReport(stdout.Bytes())
}

// parseReport decodes pyright's JSON report.
func parseReport(data []byte) ([]Diagnostic, error) {
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("pyright's report does not decode: %w: %s", err, firstLine(string(data)))
	}
	if r.Version == "" {
		return nil, fmt.Errorf("pyright's report has no version: %s", firstLine(string(data)))
	}
	return r.Diagnostics, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
