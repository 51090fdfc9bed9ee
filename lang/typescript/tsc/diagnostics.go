package tsc

import (
	"bufio"
	"bytes"
	"context"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentverify/agentverify/lazyregexp"
)

// Diagnostic is one of the compiler's diagnostics.
type Diagnostic struct {
	// File is the file's path as the compiler names it (batch: relative to the directory
	// it ran in; the server's: absolute), "" for a diagnostic of the configuration or
	// the program as a whole.
	File string
	// Line and Column are 1-based; Column counts UTF-16 code units.
	Line, Column int
	// Category is "error", "warning", "suggestion" or "message".
	Category string
	Code     int
	// Message is the diagnostic's first line; Detail the rest of its chain, if any.
	Message, Detail string
}

// Options are what a batch check is run under.
type Options struct {
	// Config is the tsconfig.json to check with (absolute).
	Config string
	// Dir is the directory to run in; the diagnostics' File is relative to it.
	Dir string
}

// Check runs `tsc -p Config --noEmit --pretty false` and returns every diagnostic.
func (t *Tool) Check(ctx context.Context, o Options) ([]Diagnostic, error) {
	out, err := t.run(ctx, o.Dir, "-p", o.Config, "--noEmit", "--pretty", "false")
	if err != nil {
		return nil, err
	}
	return parseDiagnostics(out), nil
}

var (
	located = lazyregexp.New(`^(.+)\((\d+),(\d+)\): (error|warning|suggestion|message) TS(\d+): (.*)$`)
	global  = lazyregexp.New(`^(error|warning|suggestion|message) TS(\d+): (.*)$`)
)

// parseDiagnostics reads the compiler's --pretty false output: one line per diagnostic,
// "file(line,col): error TSn: message" or "error TSn: message", the rest of a message
// chain on indented lines after it.
func parseDiagnostics(out []byte) []Diagnostic {
	var ds []Diagnostic
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if m := located.FindStringSubmatch(line); m != nil {
			l, _ := strconv.Atoi(m[2])
			c, _ := strconv.Atoi(m[3])
			code, _ := strconv.Atoi(m[5])
			ds = append(ds, Diagnostic{File: filepath.ToSlash(m[1]), Line: l, Column: c, Category: m[4], Code: code, Message: m[6]})
			continue
		}
		if m := global.FindStringSubmatch(line); m != nil {
			code, _ := strconv.Atoi(m[2])
			ds = append(ds, Diagnostic{Category: m[1], Code: code, Message: m[3]})
			continue
		}
		if len(ds) > 0 && strings.HasPrefix(line, " ") && strings.TrimSpace(line) != "" {
			d := &ds[len(ds)-1]
			if d.Detail != "" {
				d.Detail += "\n"
			}
			d.Detail += strings.TrimSpace(line)
		}
	}
	return ds
}
