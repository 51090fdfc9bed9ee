package agenthook

import (
	"errors"
	"fmt"
	"strings"
)

// stringEdit is one old/new string replacement as most agents' edit tools take it.
type stringEdit struct {
	Old, New string
	All      bool // replace every occurrence (replace_all, allow_multiple)
}

// applyExact applies string edits in order as Claude Code (and the tools modelled on it)
// does: each old string must occur exactly once unless All is set, must differ from its
// new string, and an empty old string on a missing file creates it (first edit only).
// exists says whether the file is there; content is what it holds.
func applyExact(path, content string, exists bool, edits []stringEdit) (string, error) {
	s := content
	for i, e := range edits {
		if e.Old == "" {
			if i == 0 && !exists {
				s, exists = e.New, true
				continue
			}
			return "", fmt.Errorf("edit %d: empty old_string on an existing file", i+1)
		}
		if !exists {
			return "", fmt.Errorf("%s: file does not exist", path)
		}
		var err error
		if s, err = replaceOnce(s, path, i+1, e); err != nil {
			return "", err
		}
	}
	return s, nil
}

// replaceOnce applies edit n, e, to s, the content of path.
func replaceOnce(s, path string, n int, e stringEdit) (string, error) {
	if e.Old == e.New {
		return "", fmt.Errorf("edit %d: old_string and new_string are the same", n)
	}
	switch count := strings.Count(s, e.Old); {
	case count == 0:
		return "", fmt.Errorf("edit %d: old_string not found in %s", n, path)
	case count > 1 && !e.All:
		return "", fmt.Errorf("edit %d: old_string occurs %d times in %s; give more context or set replace_all", n, count, path)
	case e.All:
		return strings.ReplaceAll(s, e.Old, e.New), nil
	}
	return strings.Replace(s, e.Old, e.New, 1), nil
}

// errNoMatch says that the agent's own matching would have to guess.
var errNoMatch = errors.New("old_string does not match the file")

// lineEnding returns "\r\n" for content whose first line break is one, else "\n".
func lineEnding(s string) string {
	if i := strings.IndexByte(s, '\n'); i > 0 && s[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// withEnding converts LF line breaks to eol.
func withEnding(s, eol string) string {
	if eol == "\n" {
		return s
	}
	return strings.ReplaceAll(s, "\n", eol)
}

// lineTrimmedMatch finds search (whole lines) in content comparing lines with surrounding
// whitespace trimmed, from byte offset from on; it returns the byte range matched.
func lineTrimmedMatch(content, search string, from int) (start, end int, ok bool) {
	lines := strings.SplitAfter(content, "\n")
	want := strings.Split(strings.TrimSuffix(search, "\n"), "\n")
	offset := 0
	for i := range lines {
		if offset >= from && i+len(want) <= len(lines) && trimmedEqual(lines[i:i+len(want)], want) {
			n := 0
			for _, l := range lines[i : i+len(want)] {
				n += len(l)
			}
			return offset, offset + n, true
		}
		offset += len(lines[i])
	}
	return 0, 0, false
}

func trimmedEqual(lines, want []string) bool {
	for j, w := range want {
		if strings.TrimSpace(lines[j]) != strings.TrimSpace(w) {
			return false
		}
	}
	return true
}
