// Package mcpserver serves agentverify over the Model Context Protocol, so that any MCP
// client (a coding agent, an editor) can ask the same engine before it writes. One Checker
// lives as long as the server, so what the dimensions load (package type information) stays
// warm between calls: the gate's fast path.
package mcpserver

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/report"
)

// DiffInput is the input of verify_diff.
type DiffInput struct {
	Base   string `json:"base,omitempty" jsonschema:"base revision: a commit, tag or branch (a branch means its merge-base with HEAD); default HEAD"`
	Staged bool   `json:"staged,omitempty" jsonschema:"verify the index against HEAD instead of the working tree"`
}

// FilesInput is the input of verify_files.
type FilesInput struct {
	Paths []string `json:"paths" jsonschema:"files or directories to verify as they are, relative to the repository root"`
}

// EditInput is the input of verify_edit.
type EditInput struct {
	Path    string `json:"path" jsonschema:"the file the edit writes, relative to the repository root"`
	Content string `json:"content" jsonschema:"the whole new content of the file; nothing is written"`
}

// ExplainInput is the input of explain_rule.
type ExplainInput struct {
	Rule string `json:"rule" jsonschema:"a rule ID such as hallucination/unknown-symbol"`
}

// RuleDoc is the output of explain_rule.
type RuleDoc struct {
	ID              string `json:"id"`
	DefaultSeverity string `json:"default_severity"`
	Short           string `json:"short"`
	Doc             string `json:"doc"`
}

// New returns a server verifying the repository at dir with checker.
func New(checker *agentverify.Checker, dir string) *mcp.Server {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "agentverify", Version: agentverify.Version}, nil)
	run := func(ctx context.Context, req agentverify.Request) (*mcp.CallToolResult, *report.Report, error) {
		req.Dir = dir
		rep, err := checker.Check(ctx, req)
		if err != nil {
			rep = agentverify.ErrorReport(err)
		}
		// A change that could not be verified is a tool error (fail closed: the client must
		// not take it as a verdict), with the report and the reason the user must fix.
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: Summary(rep)}}, IsError: rep.Status == report.Errored}, rep, nil
	}
	mcp.AddTool(s, &mcp.Tool{
		Name:        "verify_diff",
		Description: "Verify the change between a base revision and the working tree (or the staged change) of the repository. Returns the agentverify report; status failed means the change must not land.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in DiffInput) (*mcp.CallToolResult, *report.Report, error) {
		req := agentverify.Request{Source: agentverify.WorkingTree, Base: in.Base}
		if in.Staged {
			if in.Base != "" {
				return nil, nil, fmt.Errorf("base and staged exclude each other")
			}
			req.Source = agentverify.Staged
		}
		return run(ctx, req)
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "verify_files",
		Description: "Verify files or directories as they are, with no base: every finding counts.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in FilesInput) (*mcp.CallToolResult, *report.Report, error) {
		if len(in.Paths) == 0 {
			return nil, nil, fmt.Errorf("paths is empty")
		}
		paths, err := repoPaths(dir, in.Paths)
		if err != nil {
			return nil, nil, err
		}
		return run(ctx, agentverify.Request{Source: agentverify.Paths, Paths: paths, TrustedPolicy: true})
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "verify_edit",
		Description: "Verify a proposed edit in memory before writing it: the file at path would get content. Nothing is written. Fix every error-severity violation before writing the file.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in EditInput) (*mcp.CallToolResult, *report.Report, error) {
		return run(ctx, agentverify.Request{Source: agentverify.Edits, Edits: []editset.Edit{{Path: in.Path, Content: []byte(in.Content)}}})
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "explain_rule",
		Description: "Explain an agentverify rule: what makes it fire, why it matters and how to fix it.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in ExplainInput) (*mcp.CallToolResult, RuleDoc, error) {
		r := agentverify.Rules(checker.Dims())[in.Rule]
		if r == nil {
			return nil, RuleDoc{}, fmt.Errorf("unknown rule %q", in.Rule)
		}
		doc := RuleDoc{ID: r.ID, DefaultSeverity: string(r.Default), Short: r.Short, Doc: r.Doc}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.ID + ": " + r.Short + "\n\n" + r.Doc}}}, doc, nil
	})
	return s
}

// repoPaths checks the paths a tool was given and returns them absolute: each must stay
// inside the repository once cleaned ("..", absolute paths elsewhere and symbolic links
// that leave it are refused). "." names the repository itself.
func repoPaths(dir string, in []string) ([]string, error) {
	out := make([]string, 0, len(in))
	for _, p := range in {
		if p == "." || p == "./" || filepath.Clean(p) == filepath.Clean(dir) {
			out = append(out, dir)
			continue
		}
		clean, err := editset.Clean(dir, p)
		if err != nil {
			return nil, err
		}
		out = append(out, filepath.Join(dir, filepath.FromSlash(clean)))
	}
	return out, nil
}

// Summary is the short text a model reads first: the verdict (and, when the change could
// not be verified, why and that it must not be written), then one line per violation.
func Summary(rep *report.Report) string {
	var b strings.Builder
	if rep.Status == report.Errored {
		fmt.Fprintf(&b, "agentverify: COULD NOT VERIFY (%d files): %s\nDo not write or commit this change until it is verified; the reason is for the user to fix.\n",
			len(rep.Files), report.Escape(rep.Error))
	} else {
		fmt.Fprintf(&b, "agentverify: %s (%d files)\n", strings.ToUpper(string(rep.Status)), len(rep.Files))
	}
	for _, v := range rep.Violations {
		b.WriteString(v.ModelLine() + "\n")
	}
	return b.String()
}
