package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/report"
)

// TestFix: --fix applies the findings' exact fixes to the files of the change, verifies
// again and exits with the new verdict; --dry-run shows the diff and writes nothing.
func TestFix(t *testing.T) {
	shorttest.Slow(t, "runs the CLI through real git repositories and Go loads; siblings cover the path in -short")
	t.Parallel()
	for _, c := range []struct {
		name, head, want string
	}{
		{"missing import", cleanGo + "\n// Up shouts.\nfunc Up(s string) string { return strings.ToUpper(s) }\n", `import "strings"`},
		{"single did-you-mean", "// Package m is a small test module.\npackage m\n\nimport \"strings\"\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int { return a + b }\n\n// Trim trims.\nfunc Trim(s string) bool { return strings.Containz(s, \"x\") }\n", "strings.Contains(s, \"x\")"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
			r.Write(map[string]string{"m.go": c.head})
			code, out, _ := run(t, r.Dir, "", "diff", "--fix", "--dry-run")
			if code != 1 || !strings.Contains(out, "--- a/m.go") || !addedLine(out, c.want) {
				t.Fatalf("--dry-run: exit %d, want 1 and a diff adding %q:\n%s", code, c.want, out)
			}
			if got, _ := os.ReadFile(filepath.Join(r.Dir, "m.go")); string(got) != c.head {
				t.Fatal("--dry-run changed the file")
			}
			code, out, errs := run(t, r.Dir, "", "diff", "--fix")
			got, _ := os.ReadFile(filepath.Join(r.Dir, "m.go"))
			if code != 0 || !strings.Contains(string(got), c.want) || !strings.Contains(errs, "fixed 1 finding") {
				t.Errorf("--fix: exit %d, want 0 with %q in the file\n%s\n%s%s", code, c.want, got, out, errs)
			}
		})
	}
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	if code, _, errs := run(t, r.Dir, "", "diff", "--fix", "--patch", "-"); code != 2 || !strings.Contains(errs, "--patch") {
		t.Errorf("--fix --patch: exit %d %q, want 2", code, errs)
	}
	if code, _, errs := run(t, r.Dir, "", "diff", "--dry-run"); code != 2 || !strings.Contains(errs, "--dry-run goes with --fix") {
		t.Errorf("--dry-run alone: exit %d %q, want 2", code, errs)
	}
}

// addedLine reports whether a unified diff adds a line holding want.
func addedLine(diff, want string) bool {
	for _, l := range strings.Split(diff, "\n") {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") && strings.Contains(l, want) {
			return true
		}
	}
	return false
}

// TestPlanFixes: only fixes whose every edit is in a file of the change are taken, a
// repeated edit once, and a fix overlapping one taken not at all.
func TestPlanFixes(t *testing.T) {
	t.Parallel()
	edit := func(file string, line, col, endCol int, text string) check.Edit {
		return check.Edit{Range: check.Location{File: file, Line: line, Column: col, EndLine: line, EndColumn: endCol}, NewText: text}
	}
	fix := func(es ...check.Edit) *check.Fix { return &check.Fix{Description: "d", Edits: es} }
	rep := &report.Report{
		Files: []report.FileEntry{{Path: "a.go", Operation: change.Modify}, {Path: "gone.go", Operation: change.Delete}},
		Violations: []report.Violation{
			{Fix: fix(edit("a.go", 3, 1, 1, "import \"x\""))},
			{Fix: fix(edit("a.go", 3, 1, 1, "import \"x\""))}, // the same edit again
			{Fix: fix(edit("a.go", 5, 3, 8, "Right"))},
			{Fix: fix(edit("a.go", 5, 6, 9, "Other"))},                              // overlaps the one before
			{Fix: fix(edit("other.go", 1, 1, 1, "x"))},                              // outside the change
			{Fix: fix(edit("gone.go", 1, 1, 1, "x"))},                               // deleted by the change
			{Fix: fix(edit("a.go", 9, 1, 1, "ok"), edit("other.go", 1, 1, 1, "x"))}, // partly outside
			{},
		},
	}
	plan := planFixes(rep)
	if plan.fixed != 3 || len(plan.edits) != 1 || len(plan.edits["a.go"]) != 2 {
		t.Fatalf("plan: %d fixed, edits %+v; want 3 fixes, 2 edits in a.go", plan.fixed, plan.edits)
	}
	out, err := apply([]byte("l1\nl2\nl3\nl4\n  Wrong()\n"), plan.edits["a.go"])
	if err != nil || string(out) != "l1\nl2\nimport \"x\"l3\nl4\n  Right()\n" {
		t.Errorf("apply: %q %v", out, err)
	}
	if _, err := apply([]byte("short\n"), []check.Edit{edit("a.go", 7, 1, 1, "x")}); err == nil {
		t.Error("an edit past the end of the file was applied")
	}
}
