package pydeps

import (
	"fmt"
	"path"
	"strings"

	"github.com/agentverify/agentverify/lazyregexp"
)

// ReadFile reads a file of the project by its slash-separated path relative to the
// project's root.
type ReadFile func(name string) ([]byte, error)

// maxIncludeDepth bounds the nesting of -r includes; pip has no bound but cycles are
// reported long before.
const maxIncludeDepth = 16

// nameRe is a distribution name at the start of a requirement (PEP 508).
var nameRe = lazyregexp.New(`^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(.*)$`)

// eggRe finds the project name of a URL requirement (…#egg=name).
var eggRe = lazyregexp.New(`[#&]egg=([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)`)

// ParseRequirements parses the requirements file name (pip's format) and, through
// read, the files it includes with -r (their requirements count as declared) and -c
// (constraints pin versions but declare nothing, so they are not read). A line that is
// no requirement, no option and no comment is an error naming the file and line: pip
// refuses such a file, and a dependency nobody can read is not declared.
func ParseRequirements(name string, data []byte, read ReadFile) ([]Requirement, error) {
	p := &reqParser{read: read, seen: map[string]bool{}}
	return p.parse(name, data, 0)
}

type reqParser struct {
	read ReadFile
	seen map[string]bool
	out  []Requirement
}

func (p *reqParser) parse(name string, data []byte, depth int) ([]Requirement, error) {
	if p.seen[name] {
		return p.out, nil // included twice (or a cycle): pip reads it again to no effect
	}
	p.seen[name] = true
	for _, l := range logicalLines(string(data)) {
		if err := p.line(name, l, depth); err != nil {
			return nil, err
		}
	}
	return p.out, nil
}

// logical is one logical line: physical lines joined at a trailing backslash, its
// comment removed, with the number of its first physical line.
type logical struct {
	text string
	line int
}

// logicalLines splits a requirements file into logical lines, as pip does: a comment
// starts at '#' at the line's start or after whitespace.
func logicalLines(s string) []logical {
	var out []logical
	var cur strings.Builder
	start := 0
	for i, raw := range strings.Split(s, "\n") {
		raw = strings.TrimSuffix(raw, "\r")
		if cur.Len() == 0 {
			start = i + 1
		}
		if strings.HasSuffix(raw, "\\") && !strings.HasSuffix(raw, "\\\\") {
			cur.WriteString(strings.TrimSuffix(raw, "\\"))
			continue
		}
		cur.WriteString(raw)
		if t := strings.TrimSpace(stripComment(cur.String())); t != "" {
			out = append(out, logical{text: t, line: start})
		}
		cur.Reset()
	}
	if t := strings.TrimSpace(stripComment(cur.String())); t != "" {
		out = append(out, logical{text: t, line: start})
	}
	return out
}

func stripComment(s string) string {
	if strings.HasPrefix(s, "#") {
		return ""
	}
	for i := 1; i < len(s); i++ {
		if s[i] == '#' && (s[i-1] == ' ' || s[i-1] == '\t') {
			return s[:i]
		}
	}
	return s
}

// line handles one logical line of the file name.
func (p *reqParser) line(name string, l logical, depth int) error {
	t := l.text
	if !strings.HasPrefix(t, "-") {
		r, err := parseRequirement(t)
		if err != nil {
			return declErr(name, l.line, "%v", err)
		}
		if r != "" {
			p.out = append(p.out, newRequirement(r, t, name, l.line))
		}
		return nil
	}
	opt, arg := splitOption(t)
	switch opt {
	case "-r", "--requirement":
		return p.include(name, l, arg, depth)
	case "-e", "--editable":
		if m := eggRe.FindStringSubmatch(arg); m != nil {
			p.out = append(p.out, Requirement{Name: m[1], Key: Normalize(m[1]), File: name, Line: l.line})
		}
	}
	return nil // other options (-c, -i, --hash, -f, ...) declare nothing
}

// splitOption splits "-r file", "-rfile", "--requirement=file" into option and argument.
func splitOption(t string) (opt, arg string) {
	if strings.HasPrefix(t, "--") {
		opt, arg, _ = strings.Cut(t, "=")
		if i := strings.IndexAny(opt, " \t"); i >= 0 {
			opt, arg = opt[:i], opt[i:]
		}
		return opt, strings.TrimSpace(arg)
	}
	if len(t) > 2 {
		return t[:2], strings.TrimSpace(t[2:])
	}
	return t, ""
}

// include reads the requirements file arg, relative to the including file.
func (p *reqParser) include(name string, l logical, arg string, depth int) error {
	if arg == "" {
		return declErr(name, l.line, "-r needs a file name")
	}
	if strings.Contains(arg, "://") {
		return declErr(name, l.line, "-r %s: a requirements file behind a URL cannot be verified", arg)
	}
	if depth >= maxIncludeDepth {
		return declErr(name, l.line, "-r %s: includes nested deeper than %d", arg, maxIncludeDepth)
	}
	inc := path.Clean(path.Join(path.Dir(name), arg))
	if path.IsAbs(arg) || strings.HasPrefix(inc, "../") || inc == ".." {
		return declErr(name, l.line, "-r %s: outside the project", arg)
	}
	data, err := p.read(inc)
	if err != nil {
		return declErr(name, l.line, "-r %s: %v", arg, err)
	}
	if _, err := p.parse(inc, data, depth+1); err != nil {
		return declErr(name, l.line, "in -r %s: %v", arg, err)
	}
	return nil
}

// newRequirement is the requirement spec, of distribution name, at file:line.
func newRequirement(name, spec, file string, line int) Requirement {
	_, marker, _ := strings.Cut(spec, ";")
	return Requirement{Name: name, Key: Normalize(name), File: file, Line: line, Conditional: strings.TrimSpace(marker) != ""}
}

// parseRequirement returns the distribution name of one requirement line: a PEP 508
// requirement ("name[extra] >= 1; marker", "name @ url"), or a URL or path with
// #egg=name. A URL or path without a name declares nothing that can be checked by name
// and returns "".
func parseRequirement(t string) (string, error) {
	if m := eggRe.FindStringSubmatch(t); m != nil {
		return m[1], nil
	}
	if strings.Contains(t, "://") || strings.HasPrefix(t, ".") || strings.HasPrefix(t, "/") {
		before, _, found := strings.Cut(t, "@")
		if found && nameRe.MatchString(strings.TrimSpace(before)) && !strings.Contains(before, "/") {
			return nameRe.FindStringSubmatch(strings.TrimSpace(before))[1], nil
		}
		return "", nil
	}
	m := nameRe.FindStringSubmatch(t)
	if m == nil {
		return "", fmt.Errorf("%q is not a requirement", t)
	}
	rest := strings.TrimSpace(m[2])
	if rest != "" && !strings.ContainsAny(rest[:1], "[<>=!~;@(,-") {
		return "", fmt.Errorf("%q is not a requirement (unexpected %q after the name)", t, rest)
	}
	return m[1], nil
}
