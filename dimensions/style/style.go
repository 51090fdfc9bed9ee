package style

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lazyregexp"
	"github.com/agentverify/agentverify/policy"
)

// Dimension is the style dimension.
var Dimension = &check.Dimension{
	Name: policy.Style,
	Doc:  "checks changed code against the project's conventions: naming, doc comments, line length, and no new lint suppressions",
	Rules: []*check.Rule{
		{
			ID: "style/naming", Default: policy.Warning,
			Short: "an identifier breaks the naming convention",
			Doc: "Fires on a declared identifier that breaks style.naming: for Go MixedCaps, no " +
				"underscores, no ALL_CAPS, common initialisms in one case (userID, HTTPServer); or " +
				"lisp-case, snake_case, pep8 (snake_case with CapWords classes), camelCase, typescript " +
				"(PascalCase types and components, camelCase functions, methods, variables and " +
				"parameters, UPPER_CASE constants); detect " +
				"(the default) uses the language's own convention (go for Go, pep8 for Python), or for a " +
				"language written in several (Common Lisp: lisp-case, snake_case, camelCase; TypeScript " +
				"and JavaScript: typescript, snake_case) the one most identifiers of the files the " +
				"change does not touch follow (P12). " +
				"The suggestion gives the conforming name.",
		},
		{
			ID: "style/missing-doc", Default: policy.Warning,
			Short: "an exported declaration has no doc comment",
			Doc: "With style.require_docs: exported, fires on an exported function, method, type, " +
				"var or const without a doc comment (test files, package main and methods on " +
				"unexported types are exempt); in Common Lisp a function whose symbol its package's " +
				":export lists (in whichever file the defpackage is) without a docstring; in TypeScript " +
				"and JavaScript an exported function without a JSDoc comment (/** … */). Write a " +
				"comment that starts with the name and says why.",
		},
		{
			ID: "style/line-length", Default: policy.Warning,
			Short: "a line is longer than max_line_length",
			Doc: "Fires on a changed line longer than style.max_line_length runes (0 = off). " +
				"Break the line or extract a variable.",
		},
		{
			ID: "style/suppression-added", Default: policy.Warning,
			Short: "the change adds a lint-suppression comment",
			Doc: "Fires on an added comment that silences a linter or this gate (//nolint, " +
				"//lint:ignore, //agentverify:ignore, #nosec, eslint-disable, // @ts-ignore, " +
				"// @ts-expect-error, # noqa, …). An agent " +
				"should fix the finding, not hide it; a human reviews every suppression. A " +
				"//agentverify:ignore the change adds suppresses nothing (unless the base policy " +
				"sets suppressions.allow_new): the finding it aimed at is reported beside this one.",
		},
	},
	Run:          run,
	PerDirectory: true,
}

func run(pass *check.Pass) ([]check.Finding, error) {
	var out []check.Finding
	detected := map[string]string{} // frontend name → detected convention
	for _, f := range pass.Changes.Files {
		if err := pass.Context.Err(); err != nil {
			return nil, err
		}
		if !f.Analyzable() {
			continue
		}
		opts := pass.Policy.ForPath(f.Path).Style
		if opts == nil {
			continue
		}
		lf, err := pass.Files.Parse(f, change.Head)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		if lf == nil || len(lf.SyntaxErrors) > 0 {
			continue
		}
		out = append(out, suppressions(f.Path, lf)...)
		if generated(lf) && pass.Changes.NoBase {
			// Only in check mode: in a change the header is the change's own word, and
			// an agent must not exempt its code by writing "Code generated" above it.
			continue
		}
		fs, err := fileStyle(pass, f, lf, opts, detected)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

// fileStyle checks a parsed head file against the naming, documentation and line-length
// options in force for it.
func fileStyle(pass *check.Pass, f *change.File, lf *lang.File, opts *policy.StyleOptions, detected map[string]string) ([]check.Finding, error) {
	conv := opts.Naming
	if conv == "detect" {
		var err error
		if c, ok := moot(pass, f.Path, lf); ok {
			conv = c
		} else if conv, err = detect(pass, f.Path, detected); err != nil {
			return nil, err
		}
	}
	out := naming(f.Path, conv, lf)
	if opts.RequireDocs == "exported" {
		if l, ok := pass.Languages.For(f.Path).(lang.Linker); ok {
			var err error
			if lf, err = l.Link(pass.Request(), lf); err != nil {
				return nil, fmt.Errorf("%s: %w", f.Path, err)
			}
		}
		fs, err := missingDocs(pass, f, lf)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return append(out, lineLength(f.Path, opts.MaxLineLength, lf)...), nil
}

// generatedRE is Go's marker for generated code (https://go.dev/s/generatedcode) in any
// line-comment syntax ("# Code generated ... DO NOT EDIT." in Python), and protoc's own
// header for Python.
var generatedRE = lazyregexp.New(`^(?://|#|;+) ?Code generated .* DO NOT EDIT\.$|^# Generated by the protocol buffer compiler\.\s+DO NOT EDIT!$`)

// generated reports whether the file carries the generated-code marker before its
// package clause (or anywhere, for a language without one).
func generated(lf *lang.File) bool {
	pkgLine := len(lf.Lines) + 1
	for _, id := range lf.Idents {
		if id.Kind == lang.IdentPackage {
			pkgLine = id.Pos.Line
			break
		}
	}
	for _, c := range lf.Comments {
		if c.Pos.Line < pkgLine && generatedRE.MatchString(c.Text) {
			return true
		}
	}
	return false
}

func lineLength(path string, limit int, lf *lang.File) []check.Finding {
	if limit <= 0 {
		return nil
	}
	var out []check.Finding
	for i, line := range lf.Lines {
		n := utf8.RuneCountInString(line)
		if n <= limit {
			continue
		}
		col, runes := 0, 0 // col: 1-based byte column of the first rune over the limit
		for k := range line {
			if runes == limit {
				col = k + 1
				break
			}
			runes++
		}
		out = append(out, check.Finding{
			Rule:       "style/line-length",
			Location:   check.Location{File: path, Line: i + 1, Column: col},
			Message:    fmt.Sprintf("line is %d characters long (limit %d)", n, limit),
			Suggestion: "break the line or extract a variable",
			Symbol:     strings.TrimSpace(line),
		})
	}
	return out
}

// suppressionRE matches comments that silence a linter or this gate. A marker counts only
// at the start of the comment (after its opener and blanks), where the tools read it: a
// comment that merely mentions "#nosec" in prose silences nothing.
var suppressionRE = lazyregexp.New(`^(?://|/\*+|#)\s*(?:nolint\b|lint:(?:file-)?ignore\b|agentverify:ignore\b|#\s*nosec\b|nosec\b|` +
	`revive:disable|(?:gocognit|gocyclo):ignore\b|NOSONAR|eslint-disable|oxlint-disable|biome-ignore|deno-lint-ignore|` +
	`@ts-(?:ignore|nocheck|expect-error)\b|` +
	`noqa\b|type:\s*ignore\b|pylint:\s*disable|pyright:\s*ignore\b|` +
	// pyright's file-level rule comment: "# pyright: reportAttributeAccessIssue=false"
	`pyright:\s*(?:[\w=]+\s*,\s*)*report\w+\s*=\s*(?:false|none|information|warning)\b)`)

func suppressions(path string, lf *lang.File) []check.Finding {
	var out []check.Finding
	for _, c := range lf.Comments {
		if !suppressionRE.MatchString(c.Text) {
			continue
		}
		text := strings.TrimSpace(c.Text)
		if first, _, ok := strings.Cut(text, "\n"); ok {
			text = first
		}
		out = append(out, check.Finding{
			Rule:       "style/suppression-added",
			Location:   check.Location{File: path, Line: c.Pos.Line, Column: c.Pos.Column},
			Message:    "suppression comment " + text,
			Suggestion: "fix what the linter reports instead of silencing it, or have a human approve the suppression",
			Symbol:     text,
		})
	}
	return out
}
