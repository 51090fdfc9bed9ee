// Package codexpatch reads and applies the patch format of OpenAI Codex's apply_patch tool
// ("*** Begin Patch"), which OpenCode's and Cline's apply_patch tools take too. It follows
// Codex's own parser and applier (codex-rs/apply-patch: parser.rs, lib.rs,
// seek_sequence.rs) so that the content a hook verifies is the content the agent writes:
// the lenient heredoc wrapper, padded markers, chunks found at or after the previous one
// with decreasing strictness (exact, then ignoring trailing whitespace, then both ends,
// then typographic punctuation), a pure addition appended at the end, and a final newline
// on every updated file. What Codex refuses — a missing marker, an empty update, context
// that is not in the file, an update or delete of a file that does not exist — is an
// error here too.
package codexpatch

import (
	"errors"
	"fmt"
	"strings"
)

// Markers of the format.
const (
	beginMarker  = "*** Begin Patch"
	endMarker    = "*** End Patch"
	addMarker    = "*** Add File: "
	deleteMarker = "*** Delete File: "
	updateMarker = "*** Update File: "
	moveMarker   = "*** Move to: "
	eofMarker    = "*** End of File"
	contextMark  = "@@ "
	emptyContext = "@@"
)

// Op is what a hunk does to its file.
type Op int

// Hunk operations.
const (
	Add Op = iota
	Delete
	Update
)

// Hunk is one file section of a patch.
type Hunk struct {
	Op   Op
	Path string
	// MoveTo is the new path of an updated file ("*** Move to:"), or "".
	MoveTo string
	// Contents is the whole file an Add hunk creates.
	Contents string
	// Chunks are an Update hunk's changes, in file order.
	Chunks []Chunk
}

// Chunk is one change of an Update hunk: OldLines are replaced by NewLines, found after
// Context (a line such as a function header) when it is set.
type Chunk struct {
	Context     string
	HasContext  bool
	OldLines    []string
	NewLines    []string
	IsEndOfFile bool
}

// Patch is a parsed patch.
type Patch struct {
	Hunks []Hunk
}

// Error is a patch that Codex would refuse to parse; Line is 1-based in the patch body.
type Error struct {
	Line int
	Msg  string
}

// Error says what is wrong and where, as Codex's message does.
func (e *Error) Error() string {
	if e.Line == 0 {
		return "invalid patch: " + e.Msg
	}
	return fmt.Sprintf("invalid patch: line %d: %s", e.Line, e.Msg)
}

// MaxLines bounds the patch body: a larger patch is refused rather than read.
const MaxLines = 1 << 20

// Parse reads a patch as Codex does in its lenient mode: the text is trimmed and split
// into lines (a trailing carriage return dropped, as Rust's lines() does), the first must
// be "*** Begin Patch" and the last "*** End Patch" (surrounding whitespace allowed), or
// the whole may be wrapped in a <<EOF heredoc.
func Parse(text string) (*Patch, error) {
	lines := splitLines(strings.TrimSpace(text))
	if len(lines) > MaxLines {
		return nil, &Error{Msg: fmt.Sprintf("%d lines, more than %d", len(lines), MaxLines)}
	}
	body, err := boundaries(lines)
	if err != nil {
		return nil, err
	}
	p := &Patch{}
	line := 2
	for len(body) > 0 {
		h, n, err := parseHunk(body, line)
		if err != nil {
			return nil, err
		}
		p.Hunks = append(p.Hunks, h)
		line += n
		body = body[n:]
	}
	return p, nil
}

// splitLines splits like Rust's str::lines: on "\n", a final empty line not counted, a
// "\r" before each "\n" removed.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// boundaries returns the lines between the markers, unwrapping a heredoc.
func boundaries(lines []string) ([]string, error) {
	err := checkMarkers(lines)
	if err == nil {
		return lines[1 : len(lines)-1], nil
	}
	if len(lines) >= 4 && heredocStart(lines[0]) && strings.HasSuffix(lines[len(lines)-1], "EOF") {
		inner := lines[1 : len(lines)-1]
		if checkMarkers(inner) == nil {
			return inner[1 : len(inner)-1], nil
		}
		return nil, checkMarkers(inner)
	}
	return nil, err
}

func heredocStart(l string) bool { return l == "<<EOF" || l == "<<'EOF'" || l == `<<"EOF"` }

func checkMarkers(lines []string) error {
	switch {
	case len(lines) == 0 || strings.TrimSpace(lines[0]) != beginMarker:
		return &Error{Msg: "the first line of the patch must be '*** Begin Patch'"}
	case len(lines) < 2 || strings.TrimSpace(lines[len(lines)-1]) != endMarker:
		return &Error{Msg: "the last line of the patch must be '*** End Patch'"}
	}
	return nil
}

// parseHunk reads the hunk at the start of lines (line is its number in the patch) and
// returns it with the number of lines it took.
func parseHunk(lines []string, line int) (Hunk, int, error) {
	first := strings.TrimSpace(lines[0])
	if p, ok := strings.CutPrefix(first, addMarker); ok {
		var b strings.Builder
		n := 1
		for _, l := range lines[1:] {
			add, ok := strings.CutPrefix(l, "+")
			if !ok {
				break
			}
			b.WriteString(add + "\n")
			n++
		}
		return Hunk{Op: Add, Path: p, Contents: b.String()}, n, nil
	}
	if p, ok := strings.CutPrefix(first, deleteMarker); ok {
		return Hunk{Op: Delete, Path: p}, 1, nil
	}
	if p, ok := strings.CutPrefix(first, updateMarker); ok {
		return parseUpdate(p, lines, line)
	}
	return Hunk{}, 0, &Error{Line: line, Msg: fmt.Sprintf("'%s' is not a valid hunk header; valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'", first)}
}

// parseUpdate reads an Update hunk for path p.
func parseUpdate(p string, lines []string, line int) (Hunk, int, error) {
	h := Hunk{Op: Update, Path: p}
	rest, n := lines[1:], 1
	if len(rest) > 0 {
		if to, ok := strings.CutPrefix(rest[0], moveMarker); ok {
			h.MoveTo, rest, n = to, rest[1:], n+1
		}
	}
	for len(rest) > 0 {
		if strings.TrimSpace(rest[0]) == "" {
			rest, n = rest[1:], n+1
			continue
		}
		if strings.HasPrefix(rest[0], "*") {
			break
		}
		c, used, err := parseChunk(rest, line+n, len(h.Chunks) == 0)
		if err != nil {
			return Hunk{}, 0, err
		}
		h.Chunks = append(h.Chunks, c)
		rest, n = rest[used:], n+used
	}
	if len(h.Chunks) == 0 {
		return Hunk{}, 0, &Error{Line: line, Msg: fmt.Sprintf("update file hunk for path '%s' is empty", p)}
	}
	return h, n, nil
}

var errNoLines = errors.New("update hunk does not contain any lines")

// parseChunk reads one chunk: an optional @@ context line, then context, removed and
// added lines, optionally closed by "*** End of File".
func parseChunk(lines []string, line int, first bool) (Chunk, int, error) {
	var c Chunk
	start := 0
	switch {
	case lines[0] == emptyContext:
		start = 1
	case strings.HasPrefix(lines[0], contextMark):
		c.Context, c.HasContext, start = strings.TrimPrefix(lines[0], contextMark), true, 1
	case !first:
		return c, 0, &Error{Line: line, Msg: fmt.Sprintf("expected update hunk to start with a @@ context marker, got: '%s'", lines[0])}
	}
	if start >= len(lines) {
		return c, 0, &Error{Line: line + 1, Msg: errNoLines.Error()}
	}
	n := 0
	for _, l := range lines[start:] {
		if l == eofMarker {
			if n == 0 {
				return c, 0, &Error{Line: line + 1, Msg: errNoLines.Error()}
			}
			c.IsEndOfFile = true
			n++
			break
		}
		if !c.addLine(l) {
			if n == 0 {
				return c, 0, &Error{Line: line + 1, Msg: fmt.Sprintf("unexpected line found in update hunk: '%s'; every line should start with ' ' (context line), '+' (added line), or '-' (removed line)", l)}
			}
			break // the start of the next chunk or hunk
		}
		n++
	}
	return c, n + start, nil
}

// addLine records one diff line and reports whether l was one.
func (c *Chunk) addLine(l string) bool {
	if l == "" {
		c.OldLines, c.NewLines = append(c.OldLines, ""), append(c.NewLines, "")
		return true
	}
	switch l[0] {
	case ' ':
		c.OldLines, c.NewLines = append(c.OldLines, l[1:]), append(c.NewLines, l[1:])
	case '+':
		c.NewLines = append(c.NewLines, l[1:])
	case '-':
		c.OldLines = append(c.OldLines, l[1:])
	default:
		return false
	}
	return true
}
