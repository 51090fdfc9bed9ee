package report

import (
	"encoding/xml"
	"io"
)

// checkstyle is the Checkstyle XML result format, read by Jenkins' warnings-ng, reviewdog
// (-f=checkstyle) and most CI dashboards.
type checkstyle struct {
	XMLName xml.Name         `xml:"checkstyle"`
	Version string           `xml:"version,attr"`
	Files   []checkstyleFile `xml:"file"`
}

type checkstyleFile struct {
	Name   string            `xml:"name,attr"`
	Errors []checkstyleError `xml:"error"`
}

type checkstyleError struct {
	Line     int    `xml:"line,attr"`
	Column   int    `xml:"column,attr,omitempty"`
	Severity string `xml:"severity,attr"`
	Message  string `xml:"message,attr"`
	Source   string `xml:"source,attr"`
}

// WriteCheckstyle writes the violations as Checkstyle XML: one <file> per file in report
// order, one <error> per violation, the rule ID as its source; a run that could not
// verify the change has an <error> saying why.
func WriteCheckstyle(w io.Writer, r *Report) error {
	doc := checkstyle{Version: "5.0"}
	index := map[string]int{}
	for _, v := range entries(r) {
		i, ok := index[v.Location.File]
		if !ok {
			i = len(doc.Files)
			index[v.Location.File] = i
			doc.Files = append(doc.Files, checkstyleFile{Name: v.Location.File})
		}
		doc.Files[i].Errors = append(doc.Files[i].Errors, checkstyleError{
			Line: max(v.Location.Line, 1), Column: v.Location.Column, Severity: string(v.Severity),
			Message: messageWithSuggestion(v), Source: v.Rule,
		})
	}
	return writeXML(w, doc)
}

// writeXML writes an indented XML document with its declaration and a final newline.
func writeXML(w io.Writer, doc any) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// messageWithSuggestion is the message with the suggestion on a line of its own, for
// formats that have no field for it.
func messageWithSuggestion(v Violation) string {
	if v.Suggestion == "" {
		return v.Message
	}
	return v.Message + "\n" + v.Suggestion
}
