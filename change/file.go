package change

import (
	"bytes"
	"strings"

	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// binaryProbe is how many leading bytes are searched for NUL, as git does.
const binaryProbe = 8000

// IsBinary reports whether content looks binary (a NUL byte among its first 8000 bytes).
func IsBinary(content []byte) bool {
	if len(content) > binaryProbe {
		content = content[:binaryProbe]
	}
	return bytes.IndexByte(content, 0) >= 0
}

// NewFile builds a File from its two sides: base nil means created, head nil means deleted,
// oldPath different from path means renamed. It classifies the content (binary, too large
// for DefaultMaxFileSize) and computes the changed head lines. Callers that know a side is
// too large pass its size with nil content through NewLargeFile instead.
func NewFile(path, oldPath string, base, head []byte) *File {
	return NewFileLimit(path, oldPath, base, head, DefaultMaxFileSize)
}

// NewFileLimit is NewFile with the size limit of the policy in force: a side over limit
// bytes makes the file TooLarge (its content is dropped). limit ≤ 0 means
// DefaultMaxFileSize.
func NewFileLimit(path, oldPath string, base, head []byte, limit int64) *File {
	if limit <= 0 {
		limit = DefaultMaxFileSize
	}
	f := &File{Path: path, OldPath: oldPath, Base: base, Head: head}
	switch {
	case base == nil && head == nil:
		f.Op = Modify
	case base == nil:
		f.Op, f.OldPath = Create, ""
	case head == nil:
		f.Op, f.OldPath = Delete, path
	case oldPath != "" && oldPath != path:
		f.Op = Rename
	default:
		f.Op, f.OldPath = Modify, path
	}
	f.Size = int64(max(len(base), len(head)))
	if f.Size > limit {
		f.TooLarge, f.Base, f.Head = true, nil, nil
		return f
	}
	f.Binary = IsBinary(base) || IsBinary(head)
	if !f.Binary {
		f.Changed = ChangedLines(base, head)
	}
	return f
}

// ChangedLines returns the lines of head that are not in base according to a line diff,
// as sorted, disjoint, inclusive ranges. Every line of head is changed when base is nil.
func ChangedLines(base, head []byte) []Range {
	if len(head) == 0 {
		return nil
	}
	if base == nil {
		return []Range{{1, countLines(head)}}
	}
	var out []Range
	line := 1
	for _, d := range diff.Do(string(base), string(head)) {
		n := strings.Count(d.Text, "\n")
		if !strings.HasSuffix(d.Text, "\n") {
			n++ // a final line with no newline
		}
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			line += n
		case diffmatchpatch.DiffInsert:
			out = addRange(out, Range{line, line + n - 1})
			line += n
		}
	}
	return out
}

func addRange(rs []Range, r Range) []Range {
	if n := len(rs); n > 0 && rs[n-1].End+1 >= r.Start {
		rs[n-1].End = max(rs[n-1].End, r.End)
		return rs
	}
	return append(rs, r)
}

func countLines(b []byte) int {
	n := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// NewLargeFile builds a File whose content is over the size limit: it is not loaded, and only
// scope checks run on it.
func NewLargeFile(path, oldPath string, op Op, size int64) *File {
	if op == Create {
		oldPath = ""
	}
	return &File{Path: path, OldPath: oldPath, Op: op, TooLarge: true, Size: size}
}

// HeadLine returns the line of head that line n of base became: the same line where the
// change kept it, else (the change deleted it) the head line now at the place of the
// deletion, so a finding about something removed points where it was. It is at least 1
// and at most head's last line.
func HeadLine(base, head []byte, n int) int {
	last := max(countLines(head), 1)
	bl, hl := 1, 1
	for _, d := range diff.Do(string(base), string(head)) {
		k := strings.Count(d.Text, "\n")
		if !strings.HasSuffix(d.Text, "\n") {
			k++
		}
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			if n < bl+k {
				return min(hl+(n-bl), last)
			}
			bl, hl = bl+k, hl+k
		case diffmatchpatch.DiffDelete:
			if n < bl+k {
				return min(hl, last)
			}
			bl += k
		case diffmatchpatch.DiffInsert:
			hl += k
		}
	}
	return min(hl, last)
}
