package hallucination

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lang/golang/resolve"
	"github.com/agentverify/agentverify/lang/golang/vet"
	"github.com/agentverify/agentverify/policy"
)

// Every analyzer of go vet's suite has its rule, and no rule names an analyzer the suite
// does not run; stdversion reports under api-too-new.
func TestVetRulesCoverSuite(t *testing.T) {
	want := map[string]bool{}
	for _, a := range vet.Suite {
		if a.Name != "stdversion" {
			want[policy.Hallucination+"/"+string(resolve.VetKind(a.Name))] = true
		}
	}
	got := map[string]bool{}
	for _, r := range Dimension.Rules {
		if strings.HasPrefix(r.ID, policy.Hallucination+"/vet-") {
			got[r.ID] = true
			if !want[r.ID] {
				t.Errorf("rule %s names no analyzer of vet.Suite", r.ID)
			}
			if r.Default != policy.Error || !strings.Contains(r.Doc, r.ID+": off") {
				t.Errorf("rule %s: default %s, doc %q", r.ID, r.Default, r.Doc)
			}
		}
	}
	for id := range want {
		if !got[id] {
			t.Errorf("analyzer rule %s is not declared", id)
		}
	}
}

// A check of one directory learns the facts of the module's packages it imports, though
// they are not checked themselves: the finding is the one a check of the whole module
// reports, so a result cache that replays the other directories changes nothing.
func TestVetFactsFromUncheckedPackages(t *testing.T) {
	files := map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.24\n",
		"logx/logx.go": "package logx\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\n// Debugf logs.\nfunc Debugf(format string, args ...any) { fmt.Fprintf(os.Stderr, format, args...) }\n",
		"app/app.go":   "package app\n\nimport \"example.com/m/logx\"\n\nfunc Run(op string) { logx.Debugf(\"%d\", op) }\n",
	}
	root := writeTree(t, files)
	want := check.Location{File: "app/app.go", Line: 5, Column: 36, EndLine: 5, EndColumn: 38}
	for _, only := range [][]string{{"app/app.go"}, {"app/app.go", "logx/logx.go"}} {
		fs := checkOnly(t, root, files, only)
		if len(fs) != 1 || fs[0].Rule != "hallucination/vet-printf" || fs[0].Location != want {
			t.Fatalf("check of %v: %+v", only, fs)
		}
	}
}

// checkOnly runs the dimension in check mode over the files of the module at root that
// only names, as `agentverify check` of them does.
func checkOnly(t *testing.T, root string, files map[string]string, only []string) []check.Finding {
	t.Helper()
	var cf []*change.File
	for _, p := range only {
		cf = append(cf, change.NewFile(p, "", nil, []byte(files[p])))
	}
	set := &change.Set{Root: root, HeadFS: os.DirFS(root), NoBase: true, OnDisk: true, Files: cf}
	set.Sort()
	fs, err := Dimension.Run(&check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Mode: check.Check, Languages: languages})
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// A package loaded for its facts only (a module package the checked ones import) reports
// nothing of its own: a check of one directory reports the findings of its files alone.
func TestVetFactsOnlyReportNothing(t *testing.T) {
	files := map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.24\n",
		"logx/logx.go": "package logx\n\nimport \"fmt\"\n\n// Debugf logs.\nfunc Debugf(format string, args ...any) { fmt.Printf(format, args...) }\n\nfunc warn() { Debugf(\"%d\", \"s\") }\n",
		"app/app.go":   "package app\n\nimport \"example.com/m/logx\"\n\nfunc Run(op string) { logx.Debugf(\"%d\", op) }\n",
	}
	root := writeTree(t, files)
	for _, only := range [][]string{{"app/app.go"}, {"app/app.go", "logx/logx.go"}} {
		var got []string
		for _, f := range checkOnly(t, root, files, only) {
			got = append(got, f.Rule+" "+f.Location.File)
		}
		var want []string
		for _, p := range only {
			want = append(want, "hallucination/vet-printf "+p)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("check of %v: got %q, want %q", only, got, want)
		}
	}
}

// A package whose in-package test variant is checked beside it is vetted once, as go vet
// does (through the test variant, which has all its files): its own finding is reported
// once, and the facts it teaches its importers (a printf wrapper) still reach them.
func TestVetTestVariantOnce(t *testing.T) {
	files := map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.24\n",
		"logx/logx.go":      "package logx\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\n// Debugf logs.\nfunc Debugf(format string, args ...any) { fmt.Fprintf(os.Stderr, format, args...) }\n\nfunc warn(err error) { Debugf(\"%w\", err) }\n",
		"logx/logx_test.go": "package logx\n\nimport \"testing\"\n\nfunc TestWarn(t *testing.T) { warn(nil) }\n",
		"app/app.go":        "package app\n\nimport \"example.com/m/logx\"\n\nfunc Run(op string) { logx.Debugf(\"%d\", op) }\n",
	}
	root := writeTree(t, files)
	var cf []*change.File
	for _, p := range []string{"app/app.go", "logx/logx.go", "logx/logx_test.go"} {
		cf = append(cf, change.NewFile(p, "", nil, []byte(files[p])))
	}
	set := &change.Set{Root: root, HeadFS: os.DirFS(root), NoBase: true, Files: cf}
	set.Sort()
	fs, err := Dimension.Run(&check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Mode: check.Check, Languages: languages})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		got = append(got, f.Rule+" "+f.Location.File)
	}
	if want := []string{"hallucination/vet-printf app/app.go", "hallucination/vet-printf logx/logx.go"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// A test file's type error hides none of its package's go vet findings: those in the
// package's own files are reported (timeformat), and on the warm path, where the test
// variant stands in for its package when it can (load.Request.StandIns), the printf
// facts of the package's wrapper still reach its external test.
func TestVetBesideBrokenTestFile(t *testing.T) {
	const logx = "package logx\n\nimport (\n\t\"fmt\"\n\t\"time\"\n)\n\nvar epoch time.Time\n\n// Debugf logs.\nfunc Debugf(format string, args ...any) { fmt.Printf(format, args...) }\n"
	const inTest = "package logx\n\nimport \"testing\"\n\nfunc TestIn(t *testing.T) { Debugf(\"x\") }\n"
	const xTest = "package logx_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/logx\"\n)\n\nfunc TestX(t *testing.T) { logx.Debugf(\"x\") }\n"
	root := writeTree(t, map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.22\n",
		"logx/logx.go":      logx,
		"logx/in_test.go":   inTest,
		"logx/logx_test.go": xTest,
	})
	l := load.New(load.Options{})
	pass := passFor(t, root, []editset.Edit{
		{Path: "logx/in_test.go", Content: []byte(inTest + "\nvar _ int = \"x\"\n")},
		{Path: "logx/logx_test.go", Content: []byte(xTest + "\nfunc TestY(t *testing.T) { logx.Debugf(\"%d\", \"s\") }\n")},
		{Path: "logx/logx.go", Content: []byte(logx + "\nfunc day(t time.Time) string { return t.Format(\"2006-02-01\") }\n")},
	})
	pass.Languages = lang.Registry{golang.NewWarm(l)}
	fs, err := Dimension.Run(pass)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		got = append(got, f.Rule+" "+f.Location.File)
	}
	if want := []string{"hallucination/type-error logx/in_test.go", "hallucination/vet-timeformat logx/logx.go", "hallucination/vet-printf logx/logx_test.go"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if _, warm := l.Stats(); warm != 1 {
		t.Fatalf("warm checks: %d, want 1", warm)
	}
}

// A diagnostic with one suggested fix carries it as the finding's fix, its edit in the
// repository's coordinates; an in-memory edit is vetted as proposed, on the warm path too.
func TestVetFixes(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.24\n",
		"app/app.go": "package app\n",
	})
	l := load.New(load.Options{})
	src := "package app\n\nimport (\n\t\"fmt\"\n\t\"time\"\n)\n\nfunc Run(msg string, t time.Time) {\n\tfmt.Printf(msg)\n\t_ = t.Format(\"2006-02-01\")\n}\n"
	for i := range 2 {
		pass := passFor(t, root, []editset.Edit{{Path: "app/app.go", Content: []byte(src)}})
		pass.Languages = lang.Registry{golang.NewWarm(l)}
		fs, err := Dimension.Run(pass)
		if err != nil {
			t.Fatal(err)
		}
		rules := []string{}
		for _, f := range fs {
			rules = append(rules, f.Rule)
		}
		if !slices.Equal(rules, []string{"hallucination/vet-printf", "hallucination/vet-timeformat"}) {
			t.Fatalf("edit %d: %+v", i, fs)
		}
		printf, format := fs[0].Fix, fs[1].Fix
		if printf == nil || len(printf.Edits) != 1 || printf.Edits[0].NewText != `"%s", ` ||
			printf.Edits[0].Range != (check.Location{File: "app/app.go", Line: 9, Column: 13, EndLine: 9, EndColumn: 13}) {
			t.Fatalf("edit %d: printf fix %+v", i, printf)
		}
		if format == nil || len(format.Edits) != 1 || format.Edits[0].NewText != "2006-01-02" || format.Edits[0].Range.Line != 10 {
			t.Fatalf("edit %d: timeformat fix %+v", i, format)
		}
		if !strings.Contains(fs[0].Suggestion, `insert "%s" format string`) {
			t.Fatalf("edit %d: suggestion %q", i, fs[0].Suggestion)
		}
	}
	if _, warm := l.Stats(); warm < 1 { // the second edit; the first imports what the disk does not
		t.Fatalf("warm checks: %d", warm)
	}
}

// A //go:embed pattern that matches nothing is reported on the warm path too, where no go
// list runs, at the pattern, once.
func TestEmbedPatternWarm(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n",
		"web/web.go": "package web\n\nimport _ \"embed\"\n\n//go:embed web.go\nvar src string\n",
	})
	l := load.New(load.Options{})
	for i, name := range []string{"index.html", "page.html"} {
		src := "package web\n\nimport _ \"embed\"\n\n//go:embed " + name + "\nvar src string\n"
		pass := passFor(t, root, []editset.Edit{{Path: "web/web.go", Content: []byte(src)}})
		pass.Languages = lang.Registry{golang.NewWarm(l)}
		fs, err := Dimension.Run(pass)
		if err != nil {
			t.Fatal(err)
		}
		want := check.Location{File: "web/web.go", Line: 5, Column: 12}
		if len(fs) != 1 || fs[0].Rule != RuleBuildError || fs[0].Location != want || fs[0].Message != "pattern "+name+": no matching files found" {
			t.Fatalf("edit %d: %+v", i, fs)
		}
	}
	if _, warm := l.Stats(); warm != 2 {
		t.Fatalf("warm checks: %d, want 2", warm)
	}
}

// A deprecated call whose note names the same function with the same signature gets a
// fix; applied, the file compiles and uses nothing deprecated.
func TestDeprecatedFix(t *testing.T) {
	for i, c := range []struct{ name, src string }{
		{"only use", "package app\n\nimport (\n\t\"io\"\n\t\"io/ioutil\"\n)\n\nfunc Read(r io.Reader) ([]byte, error) {\n\treturn ioutil.ReadAll(r)\n}\n"},
		{"no io import", "package app\n\nimport (\n\t\"io/ioutil\"\n\t\"strings\"\n)\n\nfunc Read(s string) ([]byte, error) {\n\treturn ioutil.ReadAll(strings.NewReader(s))\n}\n"},
		{"other uses", "package app\n\nimport (\n\t\"io\"\n\t\"io/ioutil\"\n)\n\nvar W = ioutil.Discard\n\nfunc Read(r io.Reader) ([]byte, error) {\n\treturn ioutil.ReadAll(r)\n}\n"},
	} {
		if !shorttest.Runs(i, 3) {
			continue // -short fixes the first shape; the full suite all three
		}
		root := writeTree(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "app/app.go": "package app\n"})
		src := c.src
		l := load.New(load.Options{})
		for round := 0; round < 3; round++ {
			pass := passFor(t, root, []editset.Edit{{Path: "app/app.go", Content: []byte(src)}})
			pass.Languages = lang.Registry{golang.NewWarm(l)}
			fs, err := Dimension.Run(pass)
			if err != nil {
				t.Fatal(err)
			}
			if len(fs) == 0 {
				break
			}
			if round == 2 || fs[0].Rule != RuleDeprecated || fs[0].Fix == nil {
				t.Fatalf("%s, round %d: %+v", c.name, round, fs)
			}
			src = applyEdits(t, src, fs[0].Fix.Edits)
		}
		if strings.Contains(src, "ioutil") {
			t.Fatalf("%s: fixed source still uses ioutil:\n%s", c.name, src)
		}
	}
}

// applyEdits applies line/column edits (1-based, end exclusive) to src.
func applyEdits(t *testing.T, src string, edits []check.Edit) string {
	t.Helper()
	lines := strings.SplitAfter(src, "\n")
	offset := func(line, col int) int {
		n := 0
		for _, l := range lines[:line-1] {
			n += len(l)
		}
		return n + col - 1
	}
	slices.SortFunc(edits, func(a, b check.Edit) int {
		return offset(b.Range.Line, b.Range.Column) - offset(a.Range.Line, a.Range.Column)
	})
	for _, e := range edits {
		from, to := offset(e.Range.Line, e.Range.Column), offset(e.Range.EndLine, e.Range.EndColumn)
		src = src[:from] + e.NewText + src[to:]
	}
	return src
}

// buildtag judges the text of every file of a package's directory, the files its build
// leaves out too: each changed file is judged once, by the host check where it loaded the
// directory, else under the configuration that builds the file (older releases included,
// whose rewritten release tags keep a file's lines as consistent as they were).
func TestVetBuildtagOncePerFile(t *testing.T) {
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.20\n",
		"m.go":   "package m\n\n// F does nothing.\nfunc F() {}\n",
		// The host build leaves these out; the host check's go vet reads them.
		"tags.go": "//go:build foo\n// +build bar\n\npackage m\n",
		"old.go":  "//go:build !go1.21\n// +build !go1.22\n\npackage m\n",
		// No file of these directories is in the host build.
		"sub/old.go":        "//go:build !go1.21\n// +build !go1.22\n\npackage sub\n",
		"sub/tags.go":       "//go:build foo\n// +build bar\n\npackage sub\n",
		"fallback/both.go":  "//go:build !go1.21\n// +build !go1.21\n\npackage fallback\n",
		"fallback/plus.go":  "// +build !go1.21\n// +build !go1.20 go1.19\n\npackage fallback\n",
		"fallback/other.go": "//go:build !go1.21 && (go1.19 || !go1.20)\n\npackage fallback\n",
	}
	root := writeTree(t, files)
	var cf []*change.File
	for p, src := range files {
		cf = append(cf, change.NewFile(p, "", nil, []byte(src)))
	}
	set := &change.Set{Root: root, HeadFS: os.DirFS(root), NoBase: true, OnDisk: true, Files: cf}
	set.Sort()
	fs, err := Dimension.Run(&check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Mode: check.Check, Languages: languages})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		if f.Rule == "hallucination/vet-buildtag" {
			got = append(got, f.Location.File)
		}
		t.Logf("%s %s:%d %s", f.Rule, f.Location.File, f.Location.Line, f.Message)
	}
	slices.Sort(got)
	if want := []string{"old.go", "sub/old.go", "sub/tags.go", "tags.go"}; !slices.Equal(got, want) {
		t.Errorf("vet-buildtag in %q, want one in each of %q", got, want)
	}
}
