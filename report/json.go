package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON writes the report as one indented JSON document (design.md §8).
func WriteJSON(w io.Writer, r *Report) error {
	c := *r
	if c.Violations == nil {
		c.Violations = []Violation{}
	}
	if c.Files == nil {
		c.Files = []FileEntry{}
	}
	if c.DimensionResults == nil {
		c.DimensionResults = []DimensionResult{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// ReadJSON reads a report written by WriteJSON. Unknown fields are errors, so a document
// of another schema version is not silently misread.
func ReadJSON(r io.Reader) (*Report, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var rep Report
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("reading report: %w", err)
	}
	if rep.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("reading report: schema_version %d, want %d", rep.SchemaVersion, SchemaVersion)
	}
	return &rep, nil
}
