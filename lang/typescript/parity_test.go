package typescript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/lang"
)

// The cyclomatic numbers must be ESLint's `complexity` rule's and the cognitive ones
// eslint-plugin-sonarjs's (S3776), function for function. The oracle is the real ESLint,
// installed into the project's git-ignored .cache/eslint (.ci/run does it); the corpus is
// testdata/metrics.txtar and, without -short, the TypeScript sources rxjs ships.

const eslintInstall = "npm install --prefix .cache/eslint --no-save eslint@9.39.5 eslint-plugin-sonarjs@4.2.2 typescript-eslint@8 typescript@5"

// eslintConfig reports every function's numbers (limits 0), TypeScript and JSX parsed by
// typescript-eslint's parser.
const eslintConfig = `import tseslint from "typescript-eslint";
import sonarjs from "eslint-plugin-sonarjs";
export default [
  { files: ["**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}"],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
    plugins: { sonarjs },
    rules: { complexity: ["error", 0], "sonarjs/cognitive-complexity": ["error", 0] } },
];
`

// eslintDir returns the node_modules directory holding ESLint and its plugins.
func eslintDir(t *testing.T) string {
	t.Helper()
	dir, _ := filepath.Abs(".")
	for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		nm := filepath.Join(dir, ".cache", "eslint", "node_modules")
		if _, err := os.Stat(filepath.Join(nm, ".bin", "eslint")); err == nil {
			if _, err := os.Stat(filepath.Join(nm, "eslint-plugin-sonarjs")); err == nil {
				return nm
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
	}
	t.Skipf("ESLint with eslint-plugin-sonarjs is not installed; from the repository root: %s", eslintInstall)
	return ""
}

type eslintMessage struct {
	RuleID  string `json:"ruleId"`
	Message string `json:"message"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

var eslintNumber = regexp.MustCompile(`complexity of (\d+)|Complexity from (\d+)`)

// runESLint lints files (absolute, under dir: ESLint ignores files outside its
// configuration's directory) and returns the messages by file.
func runESLint(t *testing.T, nm, dir string, files []string) map[string][]eslintMessage {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "eslint.config.mjs"), []byte(eslintConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--no-config-lookup", "-c", filepath.Join(dir, "eslint.config.mjs"), "-f", "json", "--no-ignore"}, files...)
	cmd := exec.Command(filepath.Join(nm, ".bin", "eslint"), args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run() // exit 1: problems reported
	var results []struct {
		FilePath string          `json:"filePath"`
		Messages []eslintMessage `json:"messages"`
	}
	if err := json.Unmarshal(out.Bytes(), &results); err != nil {
		t.Fatalf("eslint: %v: %s", err, errb.String())
	}
	m := map[string][]eslintMessage{}
	for _, r := range results {
		m[r.FilePath] = r.Messages
	}
	return m
}

// innermost returns the function whose span holds pos most closely, or else the first
// that starts on pos's line after it (a decorated method's report is at its decorator).
func innermost(lf *lang.File, line, col int) *lang.Decl {
	var best *lang.Decl
	in := func(d *lang.Decl) bool {
		s, e := d.Span.Start, d.Span.End
		after := line > s.Line || line == s.Line && col >= s.Column
		before := line < e.Line || line == e.Line && col <= e.Column
		return after && before
	}
	for i := range lf.Decls {
		d := &lf.Decls[i]
		if d.Metrics == nil || !in(d) {
			continue
		}
		if best == nil || in(best) && (d.Span.Start.Line > best.Span.Start.Line || d.Span.Start.Line == best.Span.Start.Line && d.Span.Start.Column > best.Span.Start.Column) {
			best = d
		}
	}
	if best != nil {
		return best
	}
	for i := range lf.Decls {
		d := &lf.Decls[i]
		if d.Metrics != nil && d.Span.Start.Line == line && d.Span.Start.Column >= col && (best == nil || d.Span.Start.Column < best.Span.Start.Column) {
			best = d
		}
	}
	return best
}

var quotedName = regexp.MustCompile(`^\S.* '([^']+)' has`)

// named returns the function ESLint's message names ("Method 'next'") when one of
// that name starts on the message's line: a property's function, which ESLint reports
// at the property's key.
func named(lf *lang.File, m eslintMessage) *lang.Decl {
	q := quotedName.FindStringSubmatch(m.Message)
	if q == nil {
		return nil
	}
	for i := range lf.Decls {
		d := &lf.Decls[i]
		last := d.Name[strings.LastIndexAny(d.Name, "/.")+1:]
		if d.Metrics != nil && d.Span.Start.Line == m.Line && last == q[1] && d.Span.Start.Column >= m.Column {
			return d
		}
	}
	return nil
}

// compareWithESLint parses each file and compares its numbers with ESLint's; it returns
// the number of functions compared.
func compareWithESLint(t *testing.T, files []string, msgs map[string][]eslintMessage) int {
	t.Helper()
	n := 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lf, err := New().Parse(p, src)
		if err != nil {
			t.Fatal(err)
		}
		if len(lf.SyntaxErrors) > 0 {
			t.Errorf("%s: syntax errors on code ESLint parses: %v", p, lf.SyntaxErrors)
			continue
		}
		n += compareFile(t, p, lf, msgs[p])
	}
	return n
}

func compareFile(t *testing.T, p string, lf *lang.File, msgs []eslintMessage) int {
	seenCyc, seenCog := map[*lang.Decl]bool{}, map[*lang.Decl]bool{}
	for _, m := range msgs {
		num := eslintNumber.FindStringSubmatch(m.Message)
		if num == nil || strings.HasPrefix(m.Message, "Class field initializer") {
			if m.RuleID == "" {
				t.Errorf("%s:%d: ESLint: %s", p, m.Line, m.Message)
			}
			continue
		}
		want := num[1] + num[2]
		d := named(lf, m)
		if d == nil {
			d = innermost(lf, m.Line, m.Column)
		}
		if d == nil {
			t.Errorf("%s:%d:%d: ESLint reports a function we do not have: %s", p, m.Line, m.Column, m.Message)
			continue
		}
		got := d.Metrics.Cyclomatic
		seen := seenCyc
		if m.RuleID == "sonarjs/cognitive-complexity" {
			got, seen = d.Metrics.Cognitive, seenCog
		}
		seen[d] = true
		if fmt.Sprint(got) != want {
			t.Errorf("%s:%d:%d: %s: %s %d, ESLint %s (%s)", p, m.Line, m.Column, d.Name, m.RuleID, got, want, m.Message)
		}
	}
	for i := range lf.Decls {
		d := &lf.Decls[i]
		if d.Metrics == nil {
			continue
		}
		if !seenCyc[d] {
			t.Errorf("%s:%v: %s: cyclomatic %d, ESLint reports no such function", p, d.NamePos, d.Name, d.Metrics.Cyclomatic)
		}
		if !seenCog[d] && d.Metrics.Cognitive > 0 && !strings.HasPrefix(d.Name[strings.LastIndex(d.Name, "/")+1:], "<static block") {
			t.Errorf("%s:%v: %s: cognitive %d, sonarjs reports 0", p, d.NamePos, d.Name, d.Metrics.Cognitive)
		}
	}
	return len(seenCyc)
}

func TestMetricsParityCorpus(t *testing.T) {
	shorttest.Slow(t, "measures ESLint/sonarjs parity over a real corpus")
	nm := eslintDir(t)
	ar, err := txtar.ParseFile(filepath.Join("testdata", "metrics.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	for _, f := range ar.Files {
		p := filepath.Join(dir, f.Name)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	n := compareWithESLint(t, files, runESLint(t, nm, dir, files))
	t.Logf("%d functions compared", n)
}

// TestMetricsParityRxJS compares every function of the TypeScript sources rxjs ships.
func TestMetricsParityRxJS(t *testing.T) {
	if testing.Short() {
		t.Skip("lints a real package with ESLint: not in -short")
	}
	nm := eslintDir(t)
	dir := npmPackage(t, "rxjs@7.8.2")
	var files []string
	_ = filepath.WalkDir(filepath.Join(dir, "src"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".ts") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 200 {
		t.Fatalf("rxjs ships %d TypeScript sources, want its src/", len(files))
	}
	n := compareWithESLint(t, files, runESLint(t, nm, dir, files))
	t.Logf("%d functions of %d files compared", n, len(files))
}

// npmPackage downloads a package's tarball from the npm registry (npm pack) and
// returns the directory it unpacks to; it skips the test when npm is missing.
func npmPackage(t *testing.T, spec string) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed (apt-get install npm)")
	}
	dir := t.TempDir()
	cmd := exec.Command(npm, "pack", "--silent", spec)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("npm pack %s: %v (is the npm registry reachable?)", spec, err)
	}
	tgz := filepath.Join(dir, strings.TrimSpace(string(out)))
	if out, err := exec.Command("tar", "-xzf", tgz, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v: %s", err, out)
	}
	return filepath.Join(dir, "package")
}
