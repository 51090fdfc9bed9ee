package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/report"
)

// source names the diagnostics' producer.
const source = "agentverify"

// diagnostics converts a report (or the error that kept it from being made) into
// diagnostics by file URI. A verification that failed to run, or whose report says it
// could not verify the change, is an error diagnostic at the top of each open document
// that has no internal error of its own: none is ever shown as a clean file.
func diagnostics(rep *report.Report, err error, docs map[string]document, root string) map[string][]Diagnostic {
	out := map[string][]Diagnostic{}
	if err != nil || rep == nil {
		reason := ""
		if err != nil {
			reason = err.Error()
		}
		unverified(out, docs, reason)
		return out
	}
	if rep.Root != "" {
		root = rep.Root
	}
	t := texts{docs: docs, root: root}
	for _, v := range rep.Violations {
		uri := fileURI(filepath.Join(root, filepath.FromSlash(v.Location.File)))
		out[uri] = append(out[uri], t.diagnostic(v))
	}
	if !rep.Status.OK() && rep.Status != report.Failed {
		unverified(out, docs, rep.Error)
	}
	return out
}

// unverified adds the could-not-verify diagnostic, with reason, to every open document
// that does not already show an internal error: the report places a dimension's internal
// error at one file of the change, and the other documents were not verified either.
func unverified(out map[string][]Diagnostic, docs map[string]document, reason string) {
	msg := "agentverify could not verify this file"
	if reason = oneLine(reason); reason != "" {
		msg += ": " + reason
	}
	for uri := range docs {
		if !slices.ContainsFunc(out[uri], func(d Diagnostic) bool { return report.IsInternalError(d.Code) }) {
			out[uri] = append(out[uri], Diagnostic{Severity: SeverityError, Code: report.UnverifiedRule, Source: source, Message: msg})
		}
	}
}

// texts finds the text of a file: the editor's buffer when open, else the disk.
type texts struct {
	docs  map[string]document
	root  string
	cache map[string][]string
}

func (t *texts) lines(file string) []string {
	if t.cache == nil {
		t.cache = map[string][]string{}
	}
	if ls, ok := t.cache[file]; ok {
		return ls
	}
	path := filepath.Join(t.root, filepath.FromSlash(file))
	text := ""
	if d, ok := t.docs[fileURI(path)]; ok {
		text = d.text
	} else if b, err := os.ReadFile(path); err == nil && len(b) < 8<<20 {
		text = string(b)
	}
	ls := strings.Split(text, "\n")
	t.cache[file] = ls
	return ls
}

// position converts a 1-based line and byte column to the protocol's 0-based line and
// UTF-16 offset.
func (t *texts) position(file string, line, col int) Position {
	p := Position{Line: max(line-1, 0)}
	ls := t.lines(file)
	if p.Line >= len(ls) || col <= 1 {
		return p
	}
	text := ls[p.Line]
	n := min(col-1, len(text))
	for _, r := range text[:n] {
		p.Character += max(utf16.RuneLen(r), 1)
	}
	return p
}

// rangeOf is the range of a location; a location without an end covers the rest of its
// line from its column (the whole line for a file-level finding).
func (t *texts) rangeOf(l check.Location) Range {
	start := t.position(l.File, l.Line, l.Column)
	if l.EndLine > 0 && l.EndColumn > 0 {
		return Range{Start: start, End: t.position(l.File, l.EndLine, l.EndColumn)}
	}
	end := Position{Line: start.Line}
	if ls := t.lines(l.File); start.Line < len(ls) {
		end = t.position(l.File, l.Line, len(ls[start.Line])+1)
	}
	if end.Character < start.Character {
		end = start
	}
	return Range{Start: start, End: end}
}

func (t *texts) diagnostic(v report.Violation) Diagnostic {
	d := Diagnostic{
		Range:           t.rangeOf(v.Location),
		Severity:        severity(string(v.Severity)),
		Code:            v.Rule,
		CodeDescription: &CodeDescription{Href: "https://github.com/agentverify/agentverify/blob/main/docs/rules.md#" + anchor(v.Rule)},
		Source:          source,
		Message:         v.Message,
	}
	if v.Suggestion != "" {
		d.Message += " (" + v.Suggestion + ")"
	}
	for _, r := range v.Related {
		d.RelatedInformation = append(d.RelatedInformation, DiagnosticRelatedInformation{
			Location: Location{URI: fileURI(filepath.Join(t.root, filepath.FromSlash(r.Location.File))), Range: t.rangeOf(r.Location)},
			Message:  r.Message,
		})
	}
	if v.Fix != nil && len(v.Fix.Edits) > 0 {
		d.Data = t.fixData(v.Fix)
	}
	return d
}

// fix is the code action a diagnostic carries in its data field.
type fix struct {
	Title   string                `json:"title"`
	Changes map[string][]TextEdit `json:"changes"`
}

func (t *texts) fixData(f *check.Fix) json.RawMessage {
	x := fix{Title: f.Description, Changes: map[string][]TextEdit{}}
	for _, e := range f.Edits {
		uri := fileURI(filepath.Join(t.root, filepath.FromSlash(e.Range.File)))
		r := Range{Start: t.position(e.Range.File, e.Range.Line, e.Range.Column), End: t.position(e.Range.File, e.Range.EndLine, e.Range.EndColumn)}
		x.Changes[uri] = append(x.Changes[uri], TextEdit{Range: r, NewText: e.NewText})
	}
	b, _ := json.Marshal(x)
	return b
}

func severity(s string) int {
	switch s {
	case "error":
		return SeverityError
	case "warning":
		return SeverityWarning
	}
	return SeverityInfo
}

// anchor is the rules.md heading anchor of a rule ID.
func anchor(rule string) string {
	return strings.NewReplacer("/", "", "-", "-").Replace(strings.ToLower(rule))
}

// codeActions offers the quick fix of every diagnostic in the request that has one.
func codeActions(p CodeActionParams) []CodeAction {
	out := []CodeAction{}
	for _, d := range p.Context.Diagnostics {
		var x fix
		if d.Source != source || len(d.Data) == 0 || json.Unmarshal(d.Data, &x) != nil || len(x.Changes) == 0 {
			continue
		}
		title := x.Title
		if title == "" {
			title = "Fix " + d.Code
		}
		out = append(out, CodeAction{Title: title, Kind: "quickfix", Diagnostics: []Diagnostic{d}, IsPreferred: true, Edit: WorkspaceEdit{Changes: x.Changes}})
	}
	return out
}
