// Package report holds the canonical result of a verification and writes it in each output
// format, one file per format. Every writer is deterministic: the same Report gives the same
// bytes.
package report

import (
	"fmt"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

// SchemaVersion is the version of the JSON document.
const SchemaVersion = 1

// Status is the verdict of a run or a dimension (P3).
type Status string

// Statuses, best first.
const (
	Passed   Status = "passed"
	Warnings Status = "warnings"
	Failed   Status = "failed"
)

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

// ModelLine is the violation on one line as an agent reads it to repair its edit: rule,
// place, severity, message and, in parentheses, the suggestion. The Claude Code hook and
// the MCP server answer with it.
func (v Violation) ModelLine() string {
	line := fmt.Sprintf("%s %s:%d: %s: %s", v.Rule, v.Location.File, v.Location.Line, v.Severity, v.Message)
	if v.Suggestion != "" {
		line += " (" + v.Suggestion + ")"
	}
	return line
}

// Report is the canonical result; every output format is written from it.
type Report struct {
	SchemaVersion    int               `json:"schema_version"`
	Tool             Tool              `json:"tool"`
	Policy           string            `json:"policy"`
	Task             string            `json:"task,omitempty"`
	Status           Status            `json:"status"`
	Passed           bool              `json:"passed"`
	Dimensions       Dimensions        `json:"dimensions"`
	DimensionResults []DimensionResult `json:"dimension_results"`
	Files            []FileEntry       `json:"files"`
	Violations       []Violation       `json:"violations"`
	DurationMS       int64             `json:"duration_ms"`

	// Rules lists every rule known to the run (for SARIF's rules[] and explain); not part
	// of the JSON document.
	Rules []*check.Rule `json:"-"`
	// Root is the absolute directory the report's paths are relative to (the repository
	// root); not part of the JSON document, which stays the same wherever it was made.
	Root string `json:"-"`
}
