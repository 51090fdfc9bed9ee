// Package report holds the canonical result of a verification and writes it in each output
// format, one file per format. Every writer is deterministic: the same Report gives the same
// bytes.
package report

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

// SchemaVersion is the version of the JSON document. Version 2 added the status "error"
// (the change could not be verified: exit 2, where version 1 said "failed") and the keys
// error, base and notes.
const SchemaVersion = 2

// Status is the verdict of a run or a dimension (P3).
type Status string

// Statuses, best first. Errored is not a verdict on the change: something it does not
// control (a missing tool or module, a crash, a time-out, bad input) kept the gate from
// verifying it, which fails closed (exit 2) and says what to fix.
const (
	Passed   Status = "passed"
	Warnings Status = "warnings"
	Failed   Status = "failed"
	Errored  Status = "error"
)

// OK reports whether a change with this verdict may land: passed, or only warnings.
func (s Status) OK() bool { return s == Passed || s == Warnings }

// Tool identifies agentverify in reports.
type Tool struct {
	Name           string `json:"name"`
	Version        string `json:"version"`
	InformationURI string `json:"information_uri,omitempty"`
}

// Dimensions holds, per dimension, whether it passed (passed, only warnings, or skipped).
// A struct rather than a map keeps the JSON in report order.
type Dimensions struct {
	Scope         bool `json:"scope"`
	Hallucination bool `json:"hallucination"`
	Style         bool `json:"style"`
	Semantics     bool `json:"semantics"`
	Complexity    bool `json:"complexity"`
}

// DimensionResult is the outcome of one dimension.
type DimensionResult struct {
	Dimension  string `json:"dimension"`
	Status     Status `json:"status"`
	Skipped    bool   `json:"skipped"`
	Errors     int    `json:"errors"`
	Warnings   int    `json:"warnings"`
	DurationMS int64  `json:"duration_ms"`
}

// FileEntry is one file of the change.
type FileEntry struct {
	Path      string    `json:"path"`
	OldPath   string    `json:"old_path,omitempty"`
	Operation change.Op `json:"operation"`
}

// Violation is a finding with the severity the policy gave it.
type Violation struct {
	Rule        string          `json:"rule"`
	Dimension   string          `json:"dimension"`
	Severity    policy.Severity `json:"severity"`
	Message     string          `json:"message"`
	Suggestion  string          `json:"suggestion,omitempty"`
	Location    check.Location  `json:"location"`
	Related     []check.Related `json:"related,omitempty"`
	Fix         *check.Fix      `json:"fix,omitempty"`
	Fingerprint string          `json:"fingerprint"`
}

// ModelLine is the violation on one line (names and messages escaped) as an agent reads it to repair its edit: rule,
// place, severity, message and, in parentheses, the suggestion. The Claude Code hook and
// the MCP server answer with it.
func (v Violation) ModelLine() string {
	line := fmt.Sprintf("%s %s:%d: %s: %s", v.Rule, Escape(v.Location.File), v.Location.Line, v.Severity, Escape(v.Message))
	if v.Suggestion != "" {
		line += " (" + Escape(v.Suggestion) + ")"
	}
	return line
}

// Report is the canonical result; every output format is written from it.
type Report struct {
	SchemaVersion int    `json:"schema_version"`
	Tool          Tool   `json:"tool"`
	Policy        string `json:"policy"`
	Task          string `json:"task,omitempty"`
	// Base is the commit the change was verified against (diff modes; none in check mode).
	Base   string `json:"base,omitempty"`
	Status Status `json:"status"`
	// Error says, when Status is Errored, why the change could not be verified: one line
	// that names what to fix (install pyright, download the modules, a bad flag).
	Error            string            `json:"error,omitempty"`
	Passed           bool              `json:"passed"`
	Dimensions       Dimensions        `json:"dimensions"`
	DimensionResults []DimensionResult `json:"dimension_results"`
	Files            []FileEntry       `json:"files"`
	Violations       []Violation       `json:"violations"`
	// Notes are what the run did besides verifying that a reader should know (a file that
	// vanished while it was read and was skipped).
	Notes      []string `json:"notes,omitempty"`
	DurationMS int64    `json:"duration_ms"`

	// Rules lists every rule known to the run (for SARIF's rules[] and explain); not part
	// of the JSON document.
	Rules []*check.Rule `json:"-"`
	// Root is the absolute directory the report's paths are relative to (the repository
	// root); not part of the JSON document, which stays the same wherever it was made.
	Root string `json:"-"`
	// Source returns the content of a file of the report on the head (base false) or the
	// base side, and whether it is known; the SARIF writer counts columns in code points
	// with it. Not part of the JSON document.
	Source func(path string, base bool) ([]byte, bool) `json:"-"`
}

// IsInternalError reports whether rule is a dimension's internal error
// ("<dimension>/internal-error"): the dimension could not verify the change.
func IsInternalError(rule string) bool { return strings.HasSuffix(rule, "/internal-error") }

// UnverifiedRule is the rule of the one entry the formats without a run-level error
// (Checkstyle, JUnit, rdjson, Code Climate, GitHub annotations) write for a report that
// could not be verified and has no internal-error violation to show it.
const UnverifiedRule = "agentverify/could-not-verify"

// unverified returns the entry that stands for r's error in formats that have only
// entries: none when r is not Errored or an internal-error violation already says why.
func unverified(r *Report) []Violation {
	if r.Status != Errored {
		return nil
	}
	for _, v := range r.Violations {
		if IsInternalError(v.Rule) {
			return nil
		}
	}
	reason := r.Error
	if reason == "" {
		reason = "the change could not be verified"
	}
	return []Violation{{Rule: UnverifiedRule, Severity: policy.Error, Message: "could not verify: " + reason,
		Location: check.Location{File: ".", Line: 1}}}
}

// entries is r's violations followed by its unverified entry, if any.
func entries(r *Report) []Violation {
	if extra := unverified(r); extra != nil {
		return append(append([]Violation(nil), r.Violations...), extra...)
	}
	return r.Violations
}
