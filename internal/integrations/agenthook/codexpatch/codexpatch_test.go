package codexpatch

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"testing"
)

// files is a file system for Apply: path → content; a missing path does not exist.
type files map[string]string

func (f files) read(p string) ([]byte, error) {
	if p == "dir" {
		return nil, errors.New("dir: is a directory")
	}
	s, ok := f[p]
	if !ok {
		return nil, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	return []byte(s), nil
}

// result renders changes as "path: content" or "path: deleted", sorted.
func result(cs []Change) string {
	var out []string
	for _, c := range cs {
		if c.Delete {
			out = append(out, c.Path+": deleted")
			continue
		}
		out = append(out, fmt.Sprintf("%s: %q", c.Path, c.Content))
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// TestScenarios follows the scenarios Codex's own apply-patch suite checks
// (codex-rs/apply-patch/tests/fixtures/scenarios), one case each, with this test's own
// files: what Codex writes, or the error it refuses with.
func TestScenarios(t *testing.T) {
	tests := []struct {
		name  string
		files files
		patch string
		want  string // the changes, or "error: substring"
	}{
		{"001 add file", nil, "*** Begin Patch\n*** Add File: bar.md\n+This is a new file\n*** End Patch\n",
			`bar.md: "This is a new file\n"`},
		{"002 multiple operations", files{"delete.txt": "gone\n", "modify.txt": "line1\nline2\n"},
			"*** Begin Patch\n*** Add File: nested/new.txt\n+created\n*** Delete File: delete.txt\n*** Update File: modify.txt\n@@\n-line2\n+changed\n*** End Patch\n",
			"delete.txt: deleted\nmodify.txt: \"line1\\nchanged\\n\"\nnested/new.txt: \"created\\n\""},
		{"003 multiple chunks", files{"multi.txt": "line1\nline2\nline3\nline4\n"},
			"*** Begin Patch\n*** Update File: multi.txt\n@@\n-line2\n+changed2\n@@\n-line4\n+changed4\n*** End Patch\n",
			`multi.txt: "line1\nchanged2\nline3\nchanged4\n"`},
		{"004 move to a new directory", files{"old/name.txt": "old content\n", "old/other.txt": "unrelated\n"},
			"*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-old content\n+new content\n*** End Patch\n",
			"old/name.txt: deleted\nrenamed/dir/name.txt: \"new content\\n\""},
		{"005 rejects an empty patch", files{"foo.txt": "stable\n"}, "*** Begin Patch\n*** End Patch\n", "error: empty"},
		{"006 rejects missing context", files{"modify.txt": "line1\nline2\n"},
			"*** Begin Patch\n*** Update File: modify.txt\n@@\n-missing\n+changed\n*** End Patch\n", "error: failed to find expected lines"},
		{"007 rejects deleting a missing file", files{"foo.txt": "x\n"}, "*** Begin Patch\n*** Delete File: missing.txt\n*** End Patch\n", "error: does not exist"},
		{"008 rejects an empty update hunk", files{"foo.txt": "x\n"}, "*** Begin Patch\n*** Update File: foo.txt\n*** End Patch\n", "error: is empty"},
		{"009 update needs an existing file", nil, "*** Begin Patch\n*** Update File: missing.txt\n@@\n-old\n+new\n*** End Patch\n", "error: does not exist"},
		{"010 move overwrites the destination", files{"old/name.txt": "from\n", "renamed/dir/name.txt": "existing\n"},
			"*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-from\n+new\n*** End Patch\n",
			"old/name.txt: deleted\nrenamed/dir/name.txt: \"new\\n\""},
		{"011 add overwrites an existing file", files{"duplicate.txt": "old content\n"},
			"*** Begin Patch\n*** Add File: duplicate.txt\n+new content\n*** End Patch\n", `duplicate.txt: "new content\n"`},
		{"012 deleting a directory fails", files{}, "*** Begin Patch\n*** Delete File: dir\n*** End Patch\n", "error: is a directory"},
		{"013 rejects an invalid hunk header", files{"foo.txt": "x\n"}, "*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch\n", "error: is not a valid hunk header"},
		{"014 update appends a trailing newline", files{"no_newline.txt": "no newline at end"},
			"*** Begin Patch\n*** Update File: no_newline.txt\n@@\n-no newline at end\n+first line\n+second line\n*** End Patch\n",
			`no_newline.txt: "first line\nsecond line\n"`},
		{"015 a failure refuses the whole patch", nil,
			"*** Begin Patch\n*** Add File: created.txt\n+hello\n*** Update File: missing.txt\n@@\n-old\n+new\n*** End Patch\n", "error: does not exist"},
		{"016 pure addition chunk", files{"input.txt": "line1\nline2\n"},
			"*** Begin Patch\n*** Update File: input.txt\n@@\n+added line 1\n+added line 2\n*** End Patch\n",
			`input.txt: "line1\nline2\nadded line 1\nadded line 2\n"`},
		{"017 whitespace-padded hunk header", files{"foo.txt": "old\n"},
			"*** Begin Patch\n  *** Update File: foo.txt\n@@\n-old\n+new\n*** End Patch\n", `foo.txt: "new\n"`},
		{"018 whitespace-padded patch markers", files{"file.txt": "one\n"},
			" *** Begin Patch\n*** Update File: file.txt\n@@\n-one\n+two\n*** End Patch \n", `file.txt: "two\n"`},
		{"019 unicode", files{"foo.txt": "line1\nnaïve café\nline3\n"},
			"*** Begin Patch\n*** Update File: foo.txt\n@@\n line1\n-naïve café\n+naïve café ✅\n*** End Patch \n",
			`foo.txt: "line1\nnaïve café ✅\nline3\n"`},
		{"020 delete file", files{"keep.txt": "keep\n", "obsolete.txt": "x\n"}, "*** Begin Patch\n*** Delete File: obsolete.txt\n*** End Patch\n", "obsolete.txt: deleted"},
		{"021 deletion only", files{"lines.txt": "line1\ndelete me\nline3\n"},
			"*** Begin Patch\n*** Update File: lines.txt\n@@\n line1\n-delete me\n line3\n*** End Patch\n", `lines.txt: "line1\nline3\n"`},
		{"022 end of file marker", files{"tail.txt": "first\nsecond\nlast\n"},
			"*** Begin Patch\n*** Update File: tail.txt\n@@\n-last\n+end\n*** End of File\n*** End Patch\n", `tail.txt: "first\nsecond\nend\n"`},
		{"heredoc wrapper", files{"a.txt": "a\n"}, "<<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch\nEOF\n", `a.txt: "b\n"`},
		{"context line narrows", files{"a.py": "def f():\n    pass\ndef g():\n    pass\n"},
			"*** Begin Patch\n*** Update File: a.py\n@@ def g():\n-    pass\n+    return 1\n*** End Patch\n", `a.py: "def f():\n    pass\ndef g():\n    return 1\n"`},
		{"missing context line", files{"a.py": "def f():\n    pass\n"},
			"*** Begin Patch\n*** Update File: a.py\n@@ def nope():\n-    pass\n+    x\n*** End Patch\n", "error: failed to find context"},
		{"trailing whitespace tolerated", files{"a.txt": "x  \ny\n"}, "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+z\n*** End Patch\n", `a.txt: "z\ny\n"`},
		{"indentation tolerated", files{"a.txt": "    x\n"}, "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+z\n*** End Patch\n", `a.txt: "z\n"`},
		{"typographic dash tolerated", files{"a.txt": "a \u2014 b\n"}, "*** Begin Patch\n*** Update File: a.txt\n@@\n-a - b\n+c\n*** End Patch\n", `a.txt: "c\n"`},
		{"crlf kept", files{"a.txt": "a\r\nb\r\n"}, "*** Begin Patch\n*** Update File: a.txt\n@@\n-b\n+c\n*** End Patch\n", `a.txt: "a\r\nc\r\n"`},
		{"two hunks on one file", files{"a.txt": "a\nb\n"},
			"*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+x\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch\n", `a.txt: "y\nb\n"`},
		{"no begin marker", nil, "*** Add File: a\n+x\n*** End Patch\n", "error: first line"},
		{"no end marker", nil, "*** Begin Patch\n*** Add File: a\n+x\n", "error: last line"},
		{"chunk without @@ after the first", files{"a.txt": "a\nb\n"},
			"*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+x\nzzz\n*** End Patch\n", "error: expected update hunk to start with a @@"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := apply(tt.patch, tt.files)
			if want, isErr := strings.CutPrefix(tt.want, "error: "); isErr {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("got %q, %v; want an error containing %q", got, err, want)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got\n%s\nerr %v; want\n%s", got, err, tt.want)
			}
		})
	}
}

func apply(patch string, fs files) (string, error) {
	p, err := Parse(patch)
	if err != nil {
		return "", err
	}
	cs, err := Apply(p, fs.read)
	return result(cs), err
}

// FuzzParseApply: any text is parsed and applied without a panic, and a patch that
// applies yields only changes to paths the patch names.
func FuzzParseApply(f *testing.F) {
	f.Add("*** Begin Patch\n*** Update File: a.txt\n@@ a\n-b\n+c\n*** End of File\n*** End Patch\n")
	f.Add("<<EOF\n*** Begin Patch\n*** Add File: x\n+y\n*** Delete File: a.txt\n*** End Patch\nEOF")
	f.Add("*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n\n-a\n+\n@@\n+z\n*** End Patch")
	f.Fuzz(func(t *testing.T, patch string) {
		p, err := Parse(patch)
		if err != nil {
			return
		}
		cs, err := Apply(p, files{"a.txt": "a\nb\nc\n"}.read)
		if err != nil {
			return
		}
		named := map[string]bool{}
		for _, h := range p.Hunks {
			named[h.Path], named[h.MoveTo] = true, true
		}
		for _, c := range cs {
			if !named[c.Path] {
				t.Fatalf("change to %q, which the patch does not name", c.Path)
			}
		}
	})
}
