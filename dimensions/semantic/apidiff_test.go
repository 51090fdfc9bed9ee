package semantic

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/tools/txtar"

	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
)

// apidiffCase is one file of apidiff's testdata split into its old and new package, with
// the changes apidiff expects (its messages, "B: changed from int to string").
type apidiffCase struct {
	old, new                 strings.Builder
	incompatible, compatible []string
}

// splitApidiff splits a testdata file as apidiff's own test does: lines after "// old"
// go to the old package, after "// new" to the new one, after "// both" (and before any
// marker) to both; "// i MSG" and "// c MSG" are expectations and go nowhere.
func splitApidiff(t *testing.T, file string) *apidiffCase {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := &apidiffCase{}
	toOld, toNew := true, true
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		switch tl := strings.TrimSpace(line); {
		case tl == "// old":
			toOld, toNew = true, false
		case tl == "// new":
			toOld, toNew = false, true
		case tl == "// both":
			toOld, toNew = true, true
		case strings.HasPrefix(tl, "// i "):
			c.incompatible = append(c.incompatible, strings.TrimSpace(tl[4:]))
		case strings.HasPrefix(tl, "// c "):
			c.compatible = append(c.compatible, strings.TrimSpace(tl[4:]))
		default:
			if toOld {
				c.old.WriteString(line + "\n")
			}
			if toNew {
				c.new.WriteString(line + "\n")
			}
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return c
}

// run puts the case into a module as a change of package p from old to new and runs the
// dimension over it.
func (c *apidiffCase) run(t *testing.T) []check.Finding {
	ar := &txtar.Archive{Files: []txtar.File{
		{Name: "go.mod", Data: []byte("module example.com/apidiff\n\ngo 1.22\n")},
		{Name: "base/p/p.go", Data: []byte(c.old.String())},
		{Name: "head/p/p.go", Data: []byte(c.new.String())},
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
	files, err := filepath.Glob(filepath.Join("testdata", "apidiff", "*.go.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no apidiff testdata (err %v)", err)
	}
	var found, missed, falseAlarms int
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".go.txt")
		t.Run(name, func(t *testing.T) {
			c := splitApidiff(t, file)
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
	for _, want := range c.incompatible {
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
	lines := strings.Split(c.new.String(), "\n")
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
