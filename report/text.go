package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
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
	case Failed:
		verdict = paint(bold+red, verdict)
	case Warnings:
		verdict = paint(bold+yellow, verdict)
	default:
		verdict = paint(bold+green, verdict)
	}
	header := fmt.Sprintf("policy %s, %s", r.Policy, plural(len(r.Files), "file", "files"))
	if opts.Timings {
		header += fmt.Sprintf(", %d ms", r.DurationMS)
	}
	if !opts.Quiet {
		fmt.Fprintf(bw, "agentverify: %s  (%s)\n", verdict, header)
		if r.Task != "" {
			fmt.Fprintf(bw, "  task: %s\n", oneLine(r.Task))
		}
		for _, d := range r.DimensionResults {
			mark, detail := dimensionLine(d, paint)
			fmt.Fprintf(bw, "  %s %-14s %s\n", mark, d.Dimension, detail)
		}
	}
	for i, v := range r.Violations {
		loc := fmt.Sprintf("%s:%d", v.Location.File, v.Location.Line)
		if v.Location.Column > 0 {
			loc += fmt.Sprintf(":%d", v.Location.Column)
		}
		sev := string(v.Severity)
		if v.Severity == "error" {
			sev = paint(red, sev)
		} else {
			sev = paint(yellow, sev)
		}
		if i > 0 || !opts.Quiet {
			bw.WriteString("\n")
		}
		fmt.Fprintf(bw, "%s: %s: %s %s\n", loc, sev, v.Message, paint(faint, "["+v.Rule+"]"))
		if v.Suggestion != "" {
			fmt.Fprintf(bw, "    suggestion: %s\n", v.Suggestion)
		}
	}
	return bw.Flush()
}

// dimensionLine returns the mark and the detail of a dimension's line.
func dimensionLine(d DimensionResult, paint func(code, s string) string) (mark, detail string) {
	switch {
	case d.Skipped:
		return paint(faint, "-"), "skipped"
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
