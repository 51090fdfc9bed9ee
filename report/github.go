package report

import (
	"fmt"
	"io"
	"strings"
)

// WriteGitHub writes one workflow command per violation, which GitHub Actions shows as an
// annotation on the file and line:
//
//	::error file=auth/token.go,line=12,col=9,title=hallucination/unknown-symbol::message
//
// A run that could not verify the change has one error saying why, on no file.
func WriteGitHub(w io.Writer, r *Report) error {
	for _, v := range entries(r) {
		cmd := "error"
		if v.Severity == "warning" {
			cmd = "warning"
		}
		if v.Location.File == "." { // the repository, not a file: an annotation of the run
			if _, err := fmt.Fprintf(w, "::%s title=%s::%s\n", cmd, escapeProperty(v.Rule), escapeData(v.Message)); err != nil {
				return err
			}
			continue
		}
		props := fmt.Sprintf("file=%s,line=%d", escapeProperty(v.Location.File), max(v.Location.Line, 1))
		if v.Location.Column > 0 {
			props += fmt.Sprintf(",col=%d", v.Location.Column)
		}
		if v.Location.EndLine > 0 {
			props += fmt.Sprintf(",endLine=%d", v.Location.EndLine)
		}
		if v.Location.EndColumn > 0 && v.Location.EndLine == v.Location.Line {
			props += fmt.Sprintf(",endColumn=%d", v.Location.EndColumn)
		}
		props += ",title=" + escapeProperty(v.Rule)
		msg := v.Message
		if v.Suggestion != "" {
			msg += "\n" + v.Suggestion
		}
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", cmd, props, escapeData(msg)); err != nil {
			return err
		}
	}
	return nil
}

// escapeData escapes a message as the Actions runner expects.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property value, where ':' and ',' separate fields.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
