package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentverify/agentverify/check"
)

// TextOptions tune the text format.
type TextOptions struct {
	Color   bool // ANSI colours; the CLI sets it only on a terminal
	Timings bool // show the duration in the header
	// Quiet writes only the violations, without the verdict and dimension lines (and so
	// nothing at all for a run without violations).
	Quiet bool
}

const (
	red    = "\x1b[31m"
	yellow = "\x1b[33m"
	green  = "\x1b[32m"
	bold   = "\x1b[1m"
	faint  = "\x1b[2m"
	reset  = "\x1b[0m"
)

// WriteText writes the human format of design.md §8: a verdict line, one line per dimension,
// then one block per violation.
func WriteText(w io.Writer, r *Report, opts TextOptions) error {
	bw := bufio.NewWriter(w)
	paint := func(code, s string) string {
		if !opts.Color {
			return s
		}
		return code + s + reset
	}
	verdict := strings.ToUpper(string(r.Status))
	switch r.Status {
	case Errored:
		verdict = paint(bold+red, "COULD NOT VERIFY")
	case Failed:
		verdict = paint(bold+red, verdict)
	case Warnings:
		verdict = paint(bold+yellow, verdict)
	default:
		verdict = paint(bold+green, verdict)
	}
	header := plural(len(r.Files), "file", "files")
	if r.Policy != "" { // a run stopped before it read a policy has none
		header = "policy " + r.Policy + ", " + header
	}
	if opts.Timings {
		header += fmt.Sprintf(", %d ms", r.DurationMS)
	}
	if !opts.Quiet {
		fmt.Fprintf(bw, "agentverify: %s  (%s)\n", verdict, header)
		if r.Error != "" {
			fmt.Fprintf(bw, "  %s %s\n", paint(red, "reason:"), Escape(oneLine(r.Error)))
		}
		if r.Task != "" {
			fmt.Fprintf(bw, "  task: %s\n", Escape(oneLine(r.Task)))
		}
		for _, d := range r.DimensionResults {
			mark, detail := dimensionLine(d, paint)
			fmt.Fprintf(bw, "  %s %-14s %s\n", mark, d.Dimension, detail)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(bw, "  note: %s\n", Escape(n))
		}
	}
	for i, v := range r.Violations {
		if i > 0 || !opts.Quiet {
			bw.WriteString("\n")
		}
		writeViolation(bw, v, paint)
	}
	return bw.Flush()
}

// writeViolation writes one violation's block: its line, suggestion and related places.
func writeViolation(w io.Writer, v Violation, paint func(code, s string) string) {
	sev := string(v.Severity)
	if v.Severity == "error" {
		sev = paint(red, sev)
	} else {
		sev = paint(yellow, sev)
	}
	fmt.Fprintf(w, "%s: %s: %s %s\n", textLocation(v.Location), sev, Escape(v.Message), paint(faint, "["+v.Rule+"]"))
	if v.Suggestion != "" {
		fmt.Fprintf(w, "    suggestion: %s\n", Escape(v.Suggestion))
	}
	for _, r := range v.Related {
		side := ""
		if r.Base {
			side = " (base)"
		}
		fmt.Fprintf(w, "    related: %s%s: %s\n", textLocation(r.Location), side, Escape(r.Message))
	}
}

// Escape makes s safe for one line of text output: line breaks and other control
// characters are written as Go escapes (\n, \t, \x1b), invalid UTF-8 as \xNN, so a file
// named "a\nb.go" or a multi-line message cannot forge a line of its own (or a terminal
// colour). Text without them is returned as is.
func Escape(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	q := strconv.Quote(s)
	return strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
}

func textLocation(l check.Location) string {
	loc := fmt.Sprintf("%s:%d", Escape(l.File), l.Line)
	if l.Column > 0 {
		loc += fmt.Sprintf(":%d", l.Column)
	}
	return loc
}

// dimensionLine returns the mark and the detail of a dimension's line.
func dimensionLine(d DimensionResult, paint func(code, s string) string) (mark, detail string) {
	switch {
	case d.Skipped:
		return paint(faint, "-"), "skipped"
	case d.Status == Errored:
		return paint(red, "!"), "could not verify"
	case d.Errors == 0 && d.Warnings == 0:
		return paint(green, "✓"), "passed"
	}
	var parts []string
	if d.Errors > 0 {
		parts = append(parts, plural(d.Errors, "error", "errors"))
	}
	if d.Warnings > 0 {
		parts = append(parts, plural(d.Warnings, "warning", "warnings"))
	}
	mark = paint(green, "✓")
	if d.Status == Failed {
		mark = paint(red, "✗")
	}
	return mark, strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
