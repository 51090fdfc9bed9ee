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
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(data)-1)
			out = append(out, data[i:j+1]...)
			i = j
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			if i < len(data) {
				out = append(out, '\n')
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			i += 2
			for i+1 < len(data) && !(data[i] == '*' && data[i+1] == '/') {
				if data[i] == '\n' {
					out = append(out, '\n')
				}
				i++
			}
			i++
		case c == ',':
			j := i + 1
			for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
				j++
			}
			if j < len(data) && (data[j] == ']' || data[j] == '}') {
				continue
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
