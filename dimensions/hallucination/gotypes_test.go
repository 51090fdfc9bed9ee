package hallucination

import (
	"context"
	"fmt"
	"go/build"
	"go/scanner"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/policy"
)

// gotypesSkipped lists the flags of go/types' test data that the go command cannot
// reproduce, and why a case carrying one is skipped.
var gotypesSkipped = map[string]string{
	"-gotypesalias=0": "needs GODEBUG=gotypesalias=0, a process-wide setting of go/types that the go command's default (aliases on) contradicts",
	"-fakeImportC":    "needs go/types' FakeImportC: the real toolchain runs cgo for import \"C\" instead",
}

// gotypesCase is one package of go/types' test data: a file, or a directory of files.
type gotypesCase struct {
	name  string            // suite/case
	files map[string][]byte // file name (.go) → content
	lang  string            // -lang flag, e.g. "go1.17"; "" for the toolchain's
	skip  string            // why the case is skipped, or ""
}

// expected is one ERROR comment: the error is due at the token just before it.
type expected struct {
	file      string // repository-relative
	line, col int
	text      string
}

// TestGoTypesSuite runs go/types' own test data (testdata/gotypes, see its README)
// through the hallucination dimension with the real toolchain and fails when an error the
// data expects is not reported on its line. Figures go to the log (-v). With -short it
// runs every third case.
func TestGoTypesSuite(t *testing.T) {
	cases := readGoTypesCases(t, filepath.Join("testdata", "gotypes"))
	root := t.TempDir()
	var files []*change.File
	var wants []expected
	skipped := 0
	modules := map[string]bool{}
	for i, c := range cases {
		if !shorttest.Runs(i, 10) {
			continue // -short runs one case in ten; the full suite (CI) all of them
		}
		if c.skip != "" {
			t.Logf("skipped %s: %s", c.name, c.skip)
			skipped++
			continue
		}
		mod := moduleFor(c.lang)
		modules[mod] = true
		for name, src := range c.files {
			rel := path.Join(mod, c.name, name)
			writeFile(t, filepath.Join(root, filepath.FromSlash(rel)), src)
			files = append(files, change.NewFile(rel, "", nil, src))
			wants = append(wants, errorComments(rel, src)...)
		}
	}
	for mod := range modules {
		writeFile(t, filepath.Join(root, mod, "go.mod"), []byte(fmt.Sprintf("module gotypes%s\n\ngo %s\n", strings.ReplaceAll(mod, ".", ""), goLine(mod))))
	}
	set := &change.Set{Root: root, HeadFS: os.DirFS(root), NoBase: true, Files: files}
	set.Sort()
	got, err := Dimension.Run(&check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Mode: check.Check, Languages: languages})
	if err != nil {
		t.Fatal(err)
	}
	wants, testOnly := dropTestBuiltins(root, wants)
	t.Logf("skipped %d expected errors on lines calling assert or trace: go/types declares these builtins only in its own tests", testOnly)
	exact, moved, missed := matchExpected(wants, got)
	t.Logf("go/types test data (Go %s): %d cases, %d skipped; %d errors expected: %d found at their position, %d elsewhere on their line, %d missed; %d findings in all, %s",
		strings.TrimPrefix(build.Default.ReleaseTags[len(build.Default.ReleaseTags)-1], "go"), len(cases), skipped, len(wants), exact, len(moved), len(missed), len(got), unexpectedByRule(wants, got))
	for _, m := range moved {
		t.Errorf("%s:%d:%d: expected error reported at another column: %s%s", m.file, m.line, m.col, m.text, reportedAt(got, m.file, m.line))
	}
	for _, m := range missed {
		t.Errorf("%s:%d:%d: expected error not reported: %s%s", m.file, m.line, m.col, m.text, reportedAt(got, m.file, m.line))
	}
}

// reportedAt lists what was reported on a line, to show how an expected error moved.
func reportedAt(got []check.Finding, file string, line int) string {
	var s []string
	for _, f := range got {
		if f.Location.File == file && f.Location.Line == line {
			s = append(s, fmt.Sprintf("%d:%d %s: %s", f.Location.Line, f.Location.Column, f.Rule, f.Message))
		}
	}
	if len(s) == 0 {
		return " (nothing reported on the line)"
	}
	return " (reported on the line: " + strings.Join(s, "; ") + ")"
}

// unexpectedByRule counts, by rule, the findings on lines where the data expects no
// error: go/types' test data marks only go/types' own errors, so these are the
// dimension's additions (api-too-new, import rules) and errors of the test-only builtins.
func unexpectedByRule(wants []expected, got []check.Finding) string {
	lines := map[string]bool{}
	for _, w := range wants {
		lines[fmt.Sprintf("%s:%d", w.file, w.line)] = true
	}
	n := map[string]int{}
	for _, f := range got {
		if !lines[fmt.Sprintf("%s:%d", f.Location.File, f.Location.Line)] {
			n[f.Rule]++
		}
	}
	return fmt.Sprintf("on lines with no expected error: %v", n)
}

// dropTestBuiltins removes the expectations on lines that call assert or trace, builtins
// go/types declares only for its own tests, and returns how many it removed.
func dropTestBuiltins(root string, wants []expected) ([]expected, int) {
	lines := map[string][]string{}
	var out []expected
	for _, w := range wants {
		if lines[w.file] == nil {
			b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(w.file)))
			lines[w.file] = strings.Split(string(b), "\n")
		}
		text := strings.TrimSpace(lines[w.file][w.line-1])
		if !strings.HasPrefix(text, "assert(") && !strings.HasPrefix(text, "trace(") {
			out = append(out, w)
		}
	}
	return out, len(wants) - len(out)
}

// moduleFor returns the module directory for a language version: one module per -lang,
// since the go command takes the language version from the go directive.
func moduleFor(lang string) string {
	if lang == "" {
		return "latest"
	}
	return "lang" + strings.TrimPrefix(lang, "go")
}

func goLine(mod string) string {
	if v, ok := strings.CutPrefix(mod, "lang"); ok {
		return v
	}
	tags := build.Default.ReleaseTags
	return strings.TrimPrefix(tags[len(tags)-1], "go")
}

func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// readGoTypesCases reads the suites under dir: each .go.src file, or each directory of
// them, is one case.
func readGoTypesCases(t *testing.T, dir string) []gotypesCase {
	t.Helper()
	var cases []gotypesCase
	for _, suite := range []string{"check", "spec", "examples", "fixedbugs"} {
		ents, err := os.ReadDir(filepath.Join(dir, suite))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			c := gotypesCase{name: suite + "/" + strings.TrimSuffix(e.Name(), ".go.src"), files: map[string][]byte{}}
			paths := []string{filepath.Join(dir, suite, e.Name())}
			if e.IsDir() {
				paths, _ = filepath.Glob(filepath.Join(dir, suite, e.Name(), "*.go.src"))
			} else if !strings.HasSuffix(e.Name(), ".go.src") {
				continue
			}
			sort.Strings(paths)
			for _, p := range paths {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				c.files[strings.TrimSuffix(filepath.Base(p), ".src")] = b
			}
			c.lang, c.skip = caseFlags(c.files[strings.TrimSuffix(filepath.Base(paths[0]), ".src")])
			cases = append(cases, c)
		}
	}
	return cases
}

// caseFlags reads the flags of a case's first line ("// -lang=go1.17 -gotypesalias=1").
func caseFlags(src []byte) (lang, skip string) {
	first, _, _ := strings.Cut(string(src), "\n")
	rest, ok := strings.CutPrefix(first, "// -")
	if !ok {
		return "", ""
	}
	for _, f := range strings.Fields("-" + rest) {
		if why, ok := gotypesSkipped[f]; ok {
			return "", why
		}
		if v, ok := strings.CutPrefix(f, "-lang="); ok {
			lang = v
		}
	}
	return lang, ""
}

var errorComment = regexp.MustCompile(`^ ERRORx? `)

// errorComments finds the ERROR comments of src as go/types' harness does: each is due
// at the last token before it, automatically inserted semicolons not counted. The same
// comment repeated at one position is one expectation.
func errorComments(file string, src []byte) []expected {
	fset := token.NewFileSet()
	f := fset.AddFile(file, -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, scanner.ScanComments)
	var prev token.Pos
	var out []expected
	seen := map[expected]bool{}
	for {
		pos, tok, lit := s.Scan()
		switch {
		case tok == token.EOF:
			return out
		case tok == token.COMMENT:
			text := strings.TrimSuffix(lit[2:], "*/")
			if lit[1] != '*' {
				text = lit[2:]
			}
			p := fset.Position(prev)
			e := expected{file: file, line: p.Line, col: p.Column, text: strings.TrimSpace(text)}
			// go/types reports some errors twice at one position (once per variable of
			// a declaration); the dimension reports identical findings once.
			if errorComment.MatchString(text) && !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		case tok == token.SEMICOLON && lit == "\n":
		default:
			prev = pos
		}
	}
}

// matchExpected pairs each expected error with a distinct finding of its file and line,
// preferring one at its column.
func matchExpected(wants []expected, got []check.Finding) (exact int, moved, missed []expected) {
	type lineKey struct {
		file string
		line int
	}
	byLine := map[lineKey][]check.Finding{}
	for _, f := range got {
		k := lineKey{f.Location.File, f.Location.Line}
		byLine[k] = append(byLine[k], f)
	}
	used := map[lineKey]map[int]bool{}
	take := func(k lineKey, col int) bool {
		if used[k] == nil {
			used[k] = map[int]bool{}
		}
		for i, f := range byLine[k] {
			if !used[k][i] && (col == 0 || f.Location.Column == col) {
				used[k][i] = true
				return true
			}
		}
		return false
	}
	var rest []expected
	for _, w := range wants {
		if take(lineKey{w.file, w.line}, w.col) {
			exact++
		} else {
			rest = append(rest, w)
		}
	}
	for _, w := range rest {
		if take(lineKey{w.file, w.line}, 0) {
			moved = append(moved, w)
		} else {
			missed = append(missed, w)
		}
	}
	return exact, moved, missed
}
