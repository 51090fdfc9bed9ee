package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/report"
)

// fixPlan is the edits --fix applies, by repository-relative file.
type fixPlan struct {
	edits map[string][]check.Edit
	fixed int // findings whose fix is in the plan
}

// planFixes collects the fixes of rep's violations that touch only files of the change (a
// fix never edits a file outside it), dropping repeats (two uses of one missing import
// propose the same edit) and any fix that overlaps one already taken.
func planFixes(rep *report.Report) fixPlan {
	inChange := map[string]bool{}
	for _, f := range rep.Files {
		if f.Operation != change.Delete {
			inChange[f.Path] = true
		}
	}
	plan := fixPlan{edits: map[string][]check.Edit{}}
	for _, v := range rep.Violations {
		if v.Fix == nil || !plan.fits(v.Fix, inChange) {
			continue
		}
		for _, e := range v.Fix.Edits {
			if !slices.Contains(plan.edits[e.Range.File], e) {
				plan.edits[e.Range.File] = append(plan.edits[e.Range.File], e)
			}
		}
		plan.fixed++
	}
	return plan
}

// fits reports whether every edit of fix is in a file of the change and either repeats or
// stays clear of the edits already planned.
func (p fixPlan) fits(fix *check.Fix, inChange map[string]bool) bool {
	for _, e := range fix.Edits {
		if !inChange[e.Range.File] {
			return false
		}
		for _, o := range p.edits[e.Range.File] {
			if o != e && overlaps(o.Range, e.Range) {
				return false
			}
		}
	}
	return len(fix.Edits) > 0
}

// overlaps reports whether two edit ranges share text or insert at the same place.
func overlaps(a, b check.Location) bool {
	before := func(l1, c1, l2, c2 int) bool { return l1 < l2 || l1 == l2 && c1 < c2 }
	return !before(a.EndLine, a.EndColumn, b.Line, b.Column) && !before(b.EndLine, b.EndColumn, a.Line, a.Column)
}

// apply returns content with edits applied; an edit outside the content is an error.
func apply(content []byte, edits []check.Edit) ([]byte, error) {
	type span struct {
		start, end int
		text       string
	}
	spans := make([]span, 0, len(edits))
	for _, e := range edits {
		start, ok1 := offset(content, e.Range.Line, e.Range.Column)
		end, ok2 := offset(content, e.Range.EndLine, e.Range.EndColumn)
		if !ok1 || !ok2 || end < start {
			return nil, fmt.Errorf("a fix does not fit the file (line %d, column %d): it changed since it was verified", e.Range.Line, e.Range.Column)
		}
		spans = append(spans, span{start, end, e.NewText})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start > spans[j].start })
	out := append([]byte(nil), content...)
	for _, s := range spans {
		out = append(out[:s.start], append([]byte(s.text), out[s.end:]...)...)
	}
	return out, nil
}

// offset turns a 1-based line and byte column into a byte offset of content.
func offset(content []byte, line, col int) (int, bool) {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(content[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	end := len(content)
	if i := bytes.IndexByte(content[off:], '\n'); i >= 0 {
		end = off + i
	}
	if col < 1 || off+col-1 > end {
		return 0, false
	}
	return off + col - 1, true
}

// runFixes applies the plan to the files under root, or with dryRun writes the diff of
// what it would change to w and changes nothing. Files are written atomically; a file that
// no longer matches its verified content fails the whole run before anything is written.
func runFixes(root string, plan fixPlan, dryRun bool, w io.Writer) error {
	files := make([]string, 0, len(plan.edits))
	for f := range plan.edits {
		files = append(files, f)
	}
	sort.Strings(files)
	fixed := map[string][]byte{}
	for _, f := range files {
		path := filepath.Join(root, filepath.FromSlash(f))
		old, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("--fix: %w", err)
		}
		out, err := apply(old, plan.edits[f])
		if err != nil {
			return fmt.Errorf("--fix: %s: %w", f, err)
		}
		if dryRun {
			writeDiff(w, f, old, out)
			continue
		}
		fixed[path] = out
	}
	for _, path := range slices.Sorted(maps.Keys(fixed)) {
		content := fixed[path]
		if err := writeFileAtomic(path, func(w io.Writer) error { _, err := w.Write(content); return err }); err != nil {
			return fmt.Errorf("--fix: %w", err)
		}
	}
	return nil
}

// writeDiff writes a unified diff of one file: one hunk from the first changed line to the
// last, with up to three lines of context (fixes are few and close together).
func writeDiff(w io.Writer, name string, old, new []byte) {
	a, b := lines(old), lines(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	start := max(pre-3, 0)
	endA, endB := min(len(a)-suf+3, len(a)), min(len(b)-suf+3, len(b))
	fmt.Fprintf(w, "--- a/%s\n+++ b/%s\n@@ -%d,%d +%d,%d @@\n", name, name, start+1, endA-start, start+1, endB-start)
	line := func(prefix, s string) {
		fmt.Fprint(w, prefix+strings.TrimSuffix(s, "\n")+"\n")
	}
	for _, s := range a[start:pre] {
		line(" ", s)
	}
	for _, s := range a[pre : len(a)-suf] {
		line("-", s)
	}
	for _, s := range b[pre : len(b)-suf] {
		line("+", s)
	}
	for _, s := range a[len(a)-suf : endA] {
		line(" ", s)
	}
}

// lines splits content into lines that keep their newline, without the empty element
// SplitAfter leaves after a final newline.
func lines(content []byte) []string {
	ls := strings.SplitAfter(string(content), "\n")
	if len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// errFixPatch: a patch is verified in memory, so there is no file to fix.
var errFixPatch = errors.New("--fix works on files: it cannot be used with --patch")
