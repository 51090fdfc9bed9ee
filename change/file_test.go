package change

import (
	"reflect"
	"strings"
	"testing"
)

func TestChangedLines(t *testing.T) {
	tests := []struct {
		name       string
		base, head string
		want       []Range
	}{
		{"create", "", "a\nb\n", []Range{{1, 2}}},
		{"unchanged", "a\nb\n", "a\nb\n", nil},
		{"append", "a\nb\n", "a\nb\nc\n", []Range{{3, 3}}},
		{"modify middle", "a\nb\nc\n", "a\nB\nc\n", []Range{{2, 2}}},
		{"two hunks", "a\nb\nc\nd\ne\n", "A\nb\nc\nd\nE\n", []Range{{1, 1}, {5, 5}}},
		{"delete only", "a\nb\nc\n", "a\nc\n", nil},
		{"no final newline", "a\nb", "a\nb\nc", []Range{{2, 3}}},
		{"insert block", "a\nz\n", "a\nx\ny\nz\n", []Range{{2, 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var base []byte
			if tt.name != "create" {
				base = []byte(tt.base)
			}
			got := ChangedLines(base, []byte(tt.head))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ChangedLines(%q, %q) = %v, want %v", tt.base, tt.head, got, tt.want)
			}
		})
	}
}

func TestNewFileOps(t *testing.T) {
	tests := []struct {
		path, old  string
		base, head []byte
		want       Op
	}{
		{"a.go", "", nil, []byte("x"), Create},
		{"a.go", "a.go", []byte("x"), nil, Delete},
		{"a.go", "a.go", []byte("x"), []byte("y"), Modify},
		{"b.go", "a.go", []byte("x"), []byte("x"), Rename},
	}
	for _, tt := range tests {
		if f := NewFile(tt.path, tt.old, tt.base, tt.head); f.Op != tt.want {
			t.Errorf("NewFile(%s, %s) op = %s, want %s", tt.path, tt.old, f.Op, tt.want)
		}
	}
}

func TestNewFileClassifies(t *testing.T) {
	if f := NewFile("bin", "", nil, []byte("a\x00b")); !f.Binary || f.Changed != nil {
		t.Errorf("binary file not classified: %+v", f)
	}
	big := []byte(strings.Repeat("x", MaxFileSize+1))
	if f := NewFile("big", "", nil, big); !f.TooLarge || f.Head != nil || f.Analyzable() {
		t.Errorf("large file not classified: TooLarge=%v", f.TooLarge)
	}
	f := NewFile("a.go", "a.go", []byte("a\nb\n"), []byte("a\nB\n"))
	if !f.LineChanged(2) || f.LineChanged(1) || f.LineChanged(3) {
		t.Errorf("LineChanged wrong for %v", f.Changed)
	}
}

// TestLimit checks that a set's size limit drops the content of the files over it, and
// only theirs.
func TestLimit(t *testing.T) {
	small := NewFile("s.go", "", nil, []byte("package s\n"))
	big := NewFile("b.go", "b.go", []byte("package b\n"), []byte("package b\n\nvar X = 1\n"))
	set := &Set{Files: []*File{big, small}}
	set.Limit(12)
	if !big.TooLarge || big.Head != nil || big.Base != nil || big.Changed != nil || big.Analyzable() {
		t.Errorf("b.go over the limit: %+v", big)
	}
	if small.TooLarge || string(small.Head) != "package s\n" {
		t.Errorf("s.go under the limit: %+v", small)
	}
	if f := NewFileLimit("x.go", "", nil, []byte("0123456789"), 9); !f.TooLarge || f.Size != 10 {
		t.Errorf("NewFileLimit over the limit: %+v", f)
	}
}

// TestHeadLine: a kept line maps to where it is at the head, a deleted one to the head
// line now at its place, within the head's lines.
func TestHeadLine(t *testing.T) {
	for _, tc := range []struct {
		base, head string
		n, want    int
	}{
		{"a\nb\nc\n", "a\nb\nc\n", 2, 2},
		{"a\nb\nc\n", "x\na\nb\nc\n", 3, 4},
		{"a\nb\nc\nd\n", "a\nd\n", 2, 2},
		{"a\nb\nc\nd\n", "a\nd\n", 3, 2},
		{"a\nb\nc\n", "a\n", 3, 1},
		{"a\nb\n", "", 1, 1},
		{"a\nb\nc\nd\n", "a\nX\nd\n", 3, 2},
	} {
		if got := HeadLine([]byte(tc.base), []byte(tc.head), tc.n); got != tc.want {
			t.Errorf("HeadLine(%q, %q, %d) = %d, want %d", tc.base, tc.head, tc.n, got, tc.want)
		}
	}
}
