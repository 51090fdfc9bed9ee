package codexpatch

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// Change is the effect of a patch on one file: its new content, or its deletion.
type Change struct {
	Path    string
	Content []byte
	Delete  bool
}

// ReadFunc reads the current content of a file named in a patch; a file that does not
// exist is an error wrapping fs.ErrNotExist.
type ReadFunc func(path string) ([]byte, error)

// Apply computes what applying p does, in the order of its hunks, reading files with
// read. A file the patch touches twice sees the result of its earlier hunk, as it would
// on disk. Moves are a deletion of the old path and the new content at the new one.
func Apply(p *Patch, read ReadFunc) ([]Change, error) {
	if len(p.Hunks) == 0 {
		return nil, errors.New("no files were modified: the patch is empty")
	}
	st := &state{read: read, pending: map[string]*Change{}}
	for _, h := range p.Hunks {
		if err := st.apply(h); err != nil {
			return nil, err
		}
	}
	out := make([]Change, 0, len(st.order))
	for _, path := range st.order {
		out = append(out, *st.pending[path])
	}
	return out, nil
}

// state is the files as the patch has left them so far.
type state struct {
	read    ReadFunc
	pending map[string]*Change
	order   []string
}

func (s *state) set(c Change) {
	if _, ok := s.pending[c.Path]; !ok {
		s.order = append(s.order, c.Path)
	}
	s.pending[c.Path] = &c
}

// current returns the content of path as the patch has left it, and whether it exists.
func (s *state) current(path string) (string, bool, error) {
	if c, ok := s.pending[path]; ok {
		return string(c.Content), !c.Delete, nil
	}
	b, err := s.read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return string(b), true, nil
}

func (s *state) apply(h Hunk) error {
	switch h.Op {
	case Add:
		s.set(Change{Path: h.Path, Content: []byte(h.Contents)})
		return nil
	case Delete:
		if _, ok, err := s.current(h.Path); err != nil || !ok {
			return missing("delete", h.Path, err)
		}
		s.set(Change{Path: h.Path, Delete: true})
		return nil
	}
	old, ok, err := s.current(h.Path)
	if err != nil || !ok {
		return missing("update", h.Path, err)
	}
	content, err := UpdateContent(old, h.Chunks)
	if err != nil {
		return fmt.Errorf("%s: %w", h.Path, err)
	}
	if h.MoveTo != "" && h.MoveTo != h.Path {
		s.set(Change{Path: h.Path, Delete: true})
		s.set(Change{Path: h.MoveTo, Content: []byte(content)})
		return nil
	}
	s.set(Change{Path: h.Path, Content: []byte(content)})
	return nil
}

func missing(verb, path string, err error) error {
	if err != nil {
		return fmt.Errorf("failed to read %s to %s: %w", path, verb, err)
	}
	return fmt.Errorf("failed to %s %s: the file does not exist", verb, path)
}

// UpdateContent applies chunks to a file's content as Codex does: lines split on "\n" (the
// empty string after a final newline dropped), each chunk's old lines found at or after
// the end of the previous one, replacements applied, and the result ending in a newline.
// A file whose every line ends in "\r\n" keeps them.
func UpdateContent(content string, chunks []Chunk) (string, error) {
	crlf := usesCRLF(content)
	lines := strings.Split(content, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if crlf {
		for i, l := range lines {
			lines[i] = strings.TrimSuffix(l, "\r")
		}
	}
	reps, err := replacements(lines, chunks)
	if err != nil {
		return "", err
	}
	for i := len(reps) - 1; i >= 0; i-- {
		r := reps[i]
		end := min(r.start+r.old, len(lines))
		lines = slices.Concat(lines[:r.start], r.new, lines[end:])
	}
	if len(lines) == 0 || lines[len(lines)-1] != "" {
		lines = append(lines, "")
	}
	if crlf {
		return strings.Join(lines, "\r\n"), nil
	}
	return strings.Join(lines, "\n"), nil
}

// usesCRLF reports whether every newline of s is part of "\r\n".
func usesCRLF(s string) bool {
	n := strings.Count(s, "\n")
	return n > 0 && strings.Count(s, "\r\n") == n
}

type replacement struct {
	start, old int
	new        []string
}

// replacements locates each chunk in lines, in order.
func replacements(lines []string, chunks []Chunk) ([]replacement, error) {
	var out []replacement
	at := 0
	for _, c := range chunks {
		if c.HasContext {
			i, ok := seek(lines, []string{c.Context}, at, false)
			if !ok {
				return nil, fmt.Errorf("failed to find context '%s'", c.Context)
			}
			at = i + 1
		}
		if len(c.OldLines) == 0 {
			at := len(lines)
			if at > 0 && lines[at-1] == "" {
				at--
			}
			out = append(out, replacement{start: at, new: c.NewLines})
			continue
		}
		pattern, repl := c.OldLines, c.NewLines
		i, ok := seek(lines, pattern, at, c.IsEndOfFile)
		if !ok && pattern[len(pattern)-1] == "" {
			pattern = pattern[:len(pattern)-1]
			if len(repl) > 0 && repl[len(repl)-1] == "" {
				repl = repl[:len(repl)-1]
			}
			i, ok = seek(lines, pattern, at, c.IsEndOfFile)
		}
		if !ok {
			return nil, fmt.Errorf("failed to find expected lines:\n%s", strings.Join(c.OldLines, "\n"))
		}
		out = append(out, replacement{start: i, old: len(pattern), new: repl})
		at = i + len(pattern)
	}
	slices.SortStableFunc(out, func(a, b replacement) int { return a.start - b.start })
	return out, nil
}

// seek finds pattern in lines at or after start with decreasing strictness; with eof it
// looks only where the pattern would end the file.
func seek(lines, pattern []string, start int, eof bool) (int, bool) {
	if len(pattern) == 0 {
		return start, true
	}
	if len(pattern) > len(lines) {
		return 0, false
	}
	if eof {
		start = len(lines) - len(pattern)
	}
	for _, eq := range []func(a, b string) bool{
		func(a, b string) bool { return a == b },
		func(a, b string) bool { return strings.TrimRight(a, spaces) == strings.TrimRight(b, spaces) },
		func(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) },
		func(a, b string) bool { return normalise(a) == normalise(b) },
	} {
		for i := start; i <= len(lines)-len(pattern); i++ {
			if matchAt(lines[i:], pattern, eq) {
				return i, true
			}
		}
	}
	return 0, false
}

// spaces are the characters Rust's trim_end removes that Go's TrimRight needs named (the
// White_Space property); TrimSpace covers them on both ends.
const spaces = " \t\n\v\f\r\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"

func matchAt(lines, pattern []string, eq func(a, b string) bool) bool {
	for j, p := range pattern {
		if !eq(lines[j], p) {
			return false
		}
	}
	return true
}

// punctuation maps the typographic characters Codex's last pass reads as ASCII.
var punctuation = strings.NewReplacer(
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-",
	"\u2018", "'", "\u2019", "'", "\u201A", "'", "\u201B", "'",
	"\u201C", `"`, "\u201D", `"`, "\u201E", `"`, "\u201F", `"`,
	"\u00A0", " ", "\u2002", " ", "\u2003", " ", "\u2004", " ", "\u2005", " ", "\u2006", " ",
	"\u2007", " ", "\u2008", " ", "\u2009", " ", "\u200A", " ", "\u202F", " ", "\u205F", " ", "\u3000", " ",
)

func normalise(s string) string { return punctuation.Replace(strings.TrimSpace(s)) }
