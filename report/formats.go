package report

import (
	"fmt"
	"io"
	"strings"
)

// Formats lists the output formats by name, in the order --help shows them.
func Formats() []string {
	return []string{"text", "json", "sarif", "github", "checkstyle", "junit", "codeclimate", "rdjson", "rdjsonl"}
}

// IsFormat reports whether name is an output format.
func IsFormat(name string) bool {
	for _, f := range Formats() {
		if f == name {
			return true
		}
	}
	return false
}

// Write writes r in the named format; opts apply to text only.
func Write(w io.Writer, format string, r *Report, opts TextOptions) error {
	switch format {
	case "text":
		return WriteText(w, r, opts)
	case "json":
		return WriteJSON(w, r)
	case "sarif":
		return WriteSARIF(w, r)
	case "github":
		return WriteGitHub(w, r)
	case "checkstyle":
		return WriteCheckstyle(w, r)
	case "junit":
		return WriteJUnit(w, r)
	case "codeclimate":
		return WriteCodeClimate(w, r)
	case "rdjson":
		return WriteRDJSON(w, r)
	case "rdjsonl":
		return WriteRDJSONL(w, r)
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats(), ", "))
}
