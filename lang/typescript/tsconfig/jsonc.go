package tsconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// DecodeJSONC decodes JSON with comments and trailing commas, as TypeScript reads
// tsconfig.json and jsconfig.json, into v.
func DecodeJSONC(data []byte, v any) error {
	clean := stripJSONC(data)
	dec := json.NewDecoder(bytes.NewReader(clean))
	if err := dec.Decode(v); err != nil {
		if se, ok := err.(*json.SyntaxError); ok {
			return fmt.Errorf("line %d: %w", 1+bytes.Count(clean[:min(max(int(se.Offset)-1, 0), len(clean))], []byte("\n")), err)
		}
		return err
	}
	return nil
}

// stripJSONC blanks out comments (keeping newlines, so lines stay where they were) and
// drops commas before a closing bracket or brace, strings left alone.
func stripJSONC(data []byte) []byte {
	s := &stripper{data: data, out: make([]byte, 0, len(data))}
	for s.i < len(data) {
		switch c := data[s.i]; {
		case c == '"':
			s.str()
		case c == '/' && s.next() == '/':
			s.lineComment()
		case c == '/' && s.next() == '*':
			s.blockComment()
		case c == ',' && s.trailing():
			s.i++
		default:
			s.out = append(s.out, c)
			s.i++
		}
	}
	return s.out
}

// stripper is stripJSONC's state: the input, the position in it, the output.
type stripper struct {
	data []byte
	i    int
	out  []byte
}

func (s *stripper) next() byte {
	if s.i+1 < len(s.data) {
		return s.data[s.i+1]
	}
	return 0
}

// str copies a string literal, escapes included.
func (s *stripper) str() {
	j := s.i + 1
	for j < len(s.data) && s.data[j] != '"' {
		if s.data[j] == '\\' {
			j++
		}
		j++
	}
	j = min(j+1, len(s.data))
	s.out = append(s.out, s.data[s.i:j]...)
	s.i = j
}

// lineComment skips to the end of the line, keeping the newline.
func (s *stripper) lineComment() {
	for s.i < len(s.data) && s.data[s.i] != '\n' {
		s.i++
	}
}

// blockComment skips a /* */ comment, keeping its newlines.
func (s *stripper) blockComment() {
	s.i += 2
	for s.i < len(s.data) && !(s.data[s.i] == '*' && s.next() == '/') {
		if s.data[s.i] == '\n' {
			s.out = append(s.out, '\n')
		}
		s.i++
	}
	s.i += 2
}

// trailing reports whether the comma at the position is followed only by white space
// before a closing bracket or brace.
func (s *stripper) trailing() bool {
	j := s.i + 1
	for j < len(s.data) && (s.data[j] == ' ' || s.data[j] == '\t' || s.data[j] == '\n' || s.data[j] == '\r') {
		j++
	}
	return j < len(s.data) && (s.data[j] == ']' || s.data[j] == '}')
}
