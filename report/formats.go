package report

import (
	"fmt"
	"io"
	"strings"
)

// format is one output format: its name and its writer (opts apply to text only).
type format struct {
	name  string
	write func(io.Writer, *Report, TextOptions) error
}

// formats is every output format, in the order --help shows them: the one place a format
// is named, so the list and the writers cannot disagree.
func formats() []format {
	plain := func(w func(io.Writer, *Report) error) func(io.Writer, *Report, TextOptions) error {
		return func(out io.Writer, r *Report, _ TextOptions) error { return w(out, r) }
	}
	return []format{
		{"text", WriteText},
		{"json", plain(WriteJSON)},
		{"sarif", plain(WriteSARIF)},
		{"github", plain(WriteGitHub)},
		{"checkstyle", plain(WriteCheckstyle)},
		{"junit", plain(WriteJUnit)},
		{"codeclimate", plain(WriteCodeClimate)},
		{"rdjson", plain(WriteRDJSON)},
		{"rdjsonl", plain(WriteRDJSONL)},
	}
}

// Formats lists the output formats by name, in the order --help shows them.
func Formats() []string {
	var names []string
	for _, f := range formats() {
		names = append(names, f.name)
	}
	return names
}

// IsFormat reports whether name is an output format.
func IsFormat(name string) bool {
	for _, f := range formats() {
		if f.name == name {
			return true
		}
	}
	return false
}

// Write writes r in the named format; opts apply to text only.
func Write(w io.Writer, name string, r *Report, opts TextOptions) error {
	for _, f := range formats() {
		if f.name == name {
			return f.write(w, r, opts)
		}
	}
	return fmt.Errorf("unknown format %q (want %s)", name, strings.Join(Formats(), ", "))
}
