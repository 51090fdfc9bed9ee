package report

import (
	"encoding/json"
	"io"
)

// Reviewdog Diagnostic Format (rdjson/rdjsonl): reviewdog posts each diagnostic as a
// review comment on the pull request.
type rdResult struct {
	Source      rdSource       `json:"source"`
	Diagnostics []rdDiagnostic `json:"diagnostics"`
}

type rdSource struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

type rdDiagnostic struct {
	Message  string     `json:"message"`
	Location rdLocation `json:"location"`
	Severity string     `json:"severity"`
	Source   rdSource   `json:"source"`
	Code     rdCode     `json:"code"`
	// RelatedLocations are the finding's related places (where a removed declaration was).
	RelatedLocations []rdRelated `json:"related_locations,omitempty"`
}

type rdRelated struct {
	Message  string     `json:"message,omitempty"`
	Location rdLocation `json:"location"`
}

type rdLocation struct {
	Path  string  `json:"path"`
	Range rdRange `json:"range"`
}

type rdRange struct {
	Start rdPosition  `json:"start"`
	End   *rdPosition `json:"end,omitempty"`
}

type rdPosition struct {
	Line   int `json:"line"`
	Column int `json:"column,omitempty"`
}

type rdCode struct {
	Value string `json:"value"`
	URL   string `json:"url,omitempty"`
}

// WriteRDJSON writes the report as one rdjson DiagnosticResult document.
func WriteRDJSON(w io.Writer, r *Report) error {
	res := rdResult{Source: rdSource{Name: r.Tool.Name, URL: r.Tool.InformationURI}, Diagnostics: rdDiagnostics(r)}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}

// WriteRDJSONL writes one rdjson Diagnostic per line (reviewdog -f=rdjsonl).
func WriteRDJSONL(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	for _, d := range rdDiagnostics(r) {
		if err := enc.Encode(d); err != nil {
			return err
		}
	}
	return nil
}

// rdDiagnostics is one diagnostic per violation, and one saying why for a run that could
// not verify the change.
func rdDiagnostics(r *Report) []rdDiagnostic {
	out := make([]rdDiagnostic, 0, len(r.Violations)+1)
	for _, v := range entries(r) {
		d := rdDiagnostic{
			Message:  messageWithSuggestion(v),
			Location: rdLocation{Path: v.Location.File, Range: rdRange{Start: rdPosition{Line: max(v.Location.Line, 1), Column: v.Location.Column}}},
			Severity: "WARNING",
			Source:   rdSource{Name: r.Tool.Name, URL: r.Tool.InformationURI},
			Code:     rdCode{Value: v.Rule},
		}
		if v.Severity == "error" {
			d.Severity = "ERROR"
		}
		if v.Location.EndLine > 0 {
			d.Location.Range.End = &rdPosition{Line: v.Location.EndLine, Column: v.Location.EndColumn}
		}
		for _, rel := range v.Related {
			msg := rel.Message
			if rel.Base {
				msg += " (at the base of the change)"
			}
			d.RelatedLocations = append(d.RelatedLocations, rdRelated{Message: msg,
				Location: rdLocation{Path: rel.Location.File, Range: rdRange{Start: rdPosition{Line: max(rel.Location.Line, 1), Column: rel.Location.Column}}}})
		}
		out = append(out, d)
	}
	return out
}
