package report

import (
	"bytes"
	"unicode/utf8"
)

// columns converts the report's columns, which count bytes from 1 as Go's go/token,
// tree-sitter and the Lisp reader do, into Unicode code points from 1, the unit SARIF
// runs declare (columnKind unicodeCodePoints; SARIF has no byte unit to declare
// instead, design.md §8). The line's text comes from the report's Source; line starts
// are indexed once per file and side.
type columns struct {
	source func(path string, base bool) ([]byte, bool)
	files  map[fileSide]*lines
}

type fileSide struct {
	path string
	base bool
}

// lines is a file's content and the offset of each line's start.
type lines struct {
	data   []byte
	starts []int
}

func newColumns(source func(string, bool) ([]byte, bool)) *columns {
	return &columns{source: source, files: map[fileSide]*lines{}}
}

// convert returns the code-point column of the byte column col on line (both from 1)
// of path, and false when the file's content is unknown or has no such line. A column
// past the end of the line (an end position after its last character) keeps its distance
// from the end.
func (c *columns) convert(path string, base bool, line, col int) (int, bool) {
	ls := c.file(path, base)
	if ls == nil || line < 1 || line > len(ls.starts) {
		return 0, false
	}
	start := ls.starts[line-1]
	end := len(ls.data)
	if line < len(ls.starts) {
		end = ls.starts[line] - 1 // the newline is not part of the line
	}
	text := ls.data[start:end]
	n := col - 1
	if n <= len(text) {
		return utf8.RuneCount(text[:n]) + 1, true
	}
	return utf8.RuneCount(text) + n - len(text) + 1, true
}

func (c *columns) file(path string, base bool) *lines {
	key := fileSide{path, base}
	if ls, ok := c.files[key]; ok {
		return ls
	}
	var ls *lines
	if c.source != nil {
		if data, ok := c.source(path, base); ok {
			ls = &lines{data: data, starts: []int{0}}
			for i := 0; ; {
				j := bytes.IndexByte(data[i:], '\n')
				if j < 0 {
					break
				}
				i += j + 1
				ls.starts = append(ls.starts, i)
			}
		}
	}
	c.files[key] = ls
	return ls
}
