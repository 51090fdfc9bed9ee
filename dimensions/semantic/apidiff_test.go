package semantic

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/tools/txtar"

	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/apidiffsuite"
	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
)

// apidiffCase is one case of apidiff's testdata.
type apidiffCase struct{ *apidiffsuite.Case }

// run puts the case into a module as a change of package p from old to new and runs the
// dimension over it.
func (c *apidiffCase) run(t *testing.T) []check.Finding {
	ar := &txtar.Archive{Files: []txtar.File{
		{Name: "go.mod", Data: []byte("module example.com/apidiff\n\ngo 1.22\n")},
		{Name: "base/p/p.go", Data: []byte(c.Old)},
		{Name: "head/p/p.go", Data: []byte(c.New)},
	}}
	path := filepath.Join(t.TempDir(), "case.txtar")
	if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
	tc := checktest.Load(t, path)
	var out []check.Finding
	for _, f := range checktest.RunDimension(t, tc, Dimension, lang.Registry{golang.New()}) {
		if f.Rule == removedExport.ID || f.Rule == incompatibleChange.ID {
			out = append(out, f)
		}
	}
	return out
}

// TestApidiffSuite runs every case of golang.org/x/exp/apidiff's own testdata (copied into
// testdata/apidiff, see its README) through the dimension: every incompatible change
// apidiff expects must be reported, in the package of the change and at a line of the
// head file, and nothing else may be (compatible changes are not findings).
func TestApidiffSuite(t *testing.T) {
	var found, missed, falseAlarms int
	for i, ac := range apidiffsuite.Cases(t) {
		t.Run(ac.Name, func(t *testing.T) {
			shorttest.Sample(t, i, 6) // each case type-checks two versions of a package with go list
			c := &apidiffCase{ac}
			got := c.run(t)
			f, m, fa := c.compare(t, got)
			found, missed, falseAlarms = found+f, missed+m, falseAlarms+fa
		})
	}
	t.Logf("apidiff testdata: %d of %d incompatible changes found, %d missed, %d false alarms",
		found, found+missed, missed, falseAlarms)
}

// compare matches findings with the expected incompatible changes: a finding matches the
// expectation whose apidiff message it carries.
func (c *apidiffCase) compare(t *testing.T, got []check.Finding) (found, missed, falseAlarms int) {
	used := make([]bool, len(got))
	for _, want := range c.Incompatible {
		i := -1
		for j, f := range got {
			if !used[j] && matches(f, want) {
				i = j
				break
			}
		}
		if i < 0 {
			t.Errorf("missed incompatible change %q", want)
			missed++
			continue
		}
		used[i] = true
		found++
		c.checkPlace(t, got[i], want)
	}
	for j, f := range got {
		if !used[j] {
			t.Errorf("false alarm at %s:%d: %s: %s", f.Location.File, f.Location.Line, f.Rule, f.Message)
			falseAlarms++
		}
	}
	return found, missed, falseAlarms
}

// checkPlace checks that a finding is on a line of the head that declares what changed
// (a name of its subject is on the line) or, for a removal, on the package clause.
func (c *apidiffCase) checkPlace(t *testing.T, f check.Finding, want string) {
	lines := strings.Split(c.New, "\n")
	if f.Location.File != "p/p.go" || f.Location.Line < 1 || f.Location.Line > len(lines) {
		t.Errorf("%q reported at %s:%d, want a line of p/p.go", want, f.Location.File, f.Location.Line)
		return
	}
	line := lines[f.Location.Line-1]
	if f.Rule == removedExport.ID && strings.HasPrefix(line, "package ") {
		return
	}
	names := strings.FieldsFunc(f.Symbol, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
	for _, n := range names {
		if regexp.MustCompile(`\b` + n + `\b`).MatchString(line) {
			return
		}
	}
	t.Errorf("%q reported at p/p.go:%d, which declares none of %v: %s", want, f.Location.Line, names, line)
}

// matches reports whether finding f reports apidiff's message want.
func matches(f check.Finding, want string) bool {
	return strings.Contains(f.Message, ": "+want+";")
}
