package report

import (
	"encoding/json"
	"io"
)

// codeClimateIssue is one issue of the Code Climate report GitLab reads as a code quality
// artifact (artifacts:reports:codequality).
type codeClimateIssue struct {
	Type        string              `json:"type"`
	CheckName   string              `json:"check_name"`
	Description string              `json:"description"`
	Categories  []string            `json:"categories"`
	Severity    string              `json:"severity"`
	Fingerprint string              `json:"fingerprint"`
	Location    codeClimateLocation `json:"location"`
}

type codeClimateLocation struct {
	Path  string `json:"path"`
	Lines struct {
		Begin int `json:"begin"`
		End   int `json:"end"`
	} `json:"lines"`
}

// categories maps a dimension to Code Climate's issue categories.
var categories = map[string]string{
	"scope": "Security", "hallucination": "Bug Risk", "style": "Style",
	"semantics": "Compatibility", "complexity": "Complexity",
}

// WriteCodeClimate writes the violations as a Code Climate JSON array: errors are "major",
// warnings "minor"; the fingerprint is the report's, stable under line shifts. A run that
// could not verify the change has one issue saying why.
func WriteCodeClimate(w io.Writer, r *Report) error {
	issues := make([]codeClimateIssue, 0, len(r.Violations)+1)
	for _, v := range entries(r) {
		is := codeClimateIssue{
			Type: "issue", CheckName: v.Rule, Description: messageWithSuggestion(v),
			Categories: []string{categories[v.Dimension]}, Severity: "minor", Fingerprint: v.Fingerprint,
		}
		if v.Severity == "error" {
			is.Severity = "major"
		}
		if is.Fingerprint == "" {
			is.Fingerprint = Fingerprint(v.Rule, v.Location.File, "", v.Message)
		}
		if is.Categories[0] == "" {
			is.Categories[0] = "Bug Risk"
		}
		is.Location.Path = v.Location.File
		is.Location.Lines.Begin = max(v.Location.Line, 1)
		is.Location.Lines.End = max(v.Location.EndLine, is.Location.Lines.Begin)
		issues = append(issues, is)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(issues)
}
