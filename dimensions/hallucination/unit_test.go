package hallucination

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/policy"
)

func TestClosest(t *testing.T) {
	cases := []struct {
		name  string
		cands []string
		want  []string
	}{
		{"GetEnv", []string{"Getenv", "Exit", "Environ", "Chdir"}, []string{"Getenv"}},
		{"ParseInteger", []string{"ParseInt", "ParseFloat", "Itoa", "Quote"}, []string{"ParseInt"}},
		{"Timeout", []string{"TimeoutSeconds", "Name", "Retries"}, []string{"TimeoutSeconds"}},
		{"VerifyTokne", []string{"VerifyToken", "Verify", "Sign"}, []string{"VerifyToken", "Verify"}},
		{"UnixMillis", []string{"UnixMilli", "Unix", "UnixNano", "Add"}, []string{"UnixMilli", "Unix"}},
		{"Reverse", []string{"Repeat", "Replace", "ReplaceAll", "Title"}, nil},
		{"Len", []string{"Load", "Range", "Store", "Delete"}, nil},
		{"x", []string{"y", "xx"}, nil},
		{"Foo", []string{"foo", "Fo", "Food", "Fob", "Bar"}, []string{"foo", "Fo", "Fob"}},
	}
	for _, c := range cases {
		if got := closest(c.name, c.cands); !slices.Equal(got, c.want) {
			t.Errorf("closest(%q, %q) = %q, want %q", c.name, c.cands, got, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "", 3}, {"tokne", "token", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3}, {"getenv", "getenv", 0}} {
		if got := distance(c.a, c.b); got != c.d {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

// Distance is a metric bounded by the longer length, zero only on equal strings.
func TestDistanceProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.StringMatching(`[a-e]{0,8}`).Draw(t, "a")
		b := rapid.StringMatching(`[a-e]{0,8}`).Draw(t, "b")
		d := distance(a, b)
		if d != distance(b, a) {
			t.Fatalf("not symmetric: %q %q", a, b)
		}
		if (d == 0) != (a == b) || d > max(len(a), len(b)) || d < abs(len(a)-len(b)) {
			t.Fatalf("distance(%q, %q) = %d out of bounds", a, b, d)
		}
	})
}

// Suggestions are at most three, never the name itself, always drawn from the candidates.
func TestClosestBounded(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.StringMatching(`[A-Za-z]{1,10}`).Draw(t, "name")
		cands := rapid.SliceOf(rapid.StringMatching(`[A-Za-z]{1,10}`)).Draw(t, "cands")
		got := closest(name, cands)
		if len(got) > maxSuggestions {
			t.Fatalf("%d suggestions", len(got))
		}
		for _, g := range got {
			if g == name || !slices.Contains(cands, g) {
				t.Fatalf("bad suggestion %q for %q", g, name)
			}
		}
	})
}

func abs(x int) int { return max(x, -x) }

func TestClassifyTypeErrorPatterns(t *testing.T) {
	c := &converter{res: &load.Result{}}
	cases := []struct{ msg, rule string }{
		{"undefined: foo", RuleUndefined},
		{"x.Foo undefined (type T has no field or method Foo)", RuleUnknownMember},
		{"x.foo undefined (cannot refer to unexported field foo)", RuleUnknownMember},
		{"not enough arguments in call to f\n\thave ()\n\twant (int)", RuleWrongSignature},
		{"too many arguments in call to f\n\thave (int, int)\n\twant (int)", RuleWrongSignature},
		{"not enough return values\n\thave ()\n\twant (int)", RuleWrongSignature},
		{"too many return values", RuleWrongSignature},
		{`cannot use "1" (untyped string constant) as int value in argument to os.Exit`, RuleWrongSignature},
		{"cannot use x (variable of type int) as string value in return statement", RuleWrongSignature},
		{"assignment mismatch: 2 variables but fmt.Sprintf returns 1 value", RuleWrongSignature},
		{"f() (no value) used as value", RuleWrongSignature},
		{"cannot range over f (variable of type func(func(int) bool)): requires go1.23 or later", RuleAPITooNew},
		{"declared and not used: x", RuleTypeError},
		{`"fmt" imported and not used`, RuleTypeError},
		{"missing return", RuleTypeError},
		{"could not import example.com/x (no metadata)", RuleTypeError},
	}
	for _, tc := range cases {
		f := c.classifyTypeError(&load.Package{}, load.Error{Kind: load.TypeError, Msg: tc.msg})
		if f.Rule != tc.rule {
			t.Errorf("%q: rule %s, want %s", tc.msg, f.Rule, tc.rule)
		}
	}
}

func TestSanitizeDropsGoGet(t *testing.T) {
	msg := "no required module provides package github.com/x/y; to add it:\n\tgo get github.com/x/y"
	if got := sanitize(msg); strings.Contains(got, "go get") || got != "no required module provides package github.com/x/y" {
		t.Fatalf("sanitize = %q", got)
	}
}

// writeTree writes a module for the tests below.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func passFor(t *testing.T, root string, edits []editset.Edit) *check.Pass {
	t.Helper()
	set, err := editset.Build(root, edits)
	if err != nil {
		t.Fatal(err)
	}
	return &check.Pass{Context: context.Background(), Changes: set, Policy: policy.Default(), Mode: check.Diff}
}

// An in-memory edit is checked as proposed, not as on disk, and a second edit of the same
// package through a shared loader takes the warm path.
func TestInMemoryEditAndWarmPath(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n",
		"app/app.go": "package app\n\nimport \"os\"\n\nfunc Home() string { return os.Getenv(\"HOME\") }\n",
	})
	l := load.New(load.Options{})
	dim := New(l)
	for i, name := range []string{"GetEnv", "Getenvv"} {
		src := "package app\n\nimport \"os\"\n\nfunc Home() string { return os." + name + "(\"HOME\") }\n"
		fs, err := dim.Run(passFor(t, root, []editset.Edit{{Path: "app/app.go", Content: []byte(src)}}))
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) != 1 || fs[0].Rule != RuleUnknownSymbol || fs[0].Location != (check.Location{File: "app/app.go", Line: 5, Column: 32, EndLine: 5, EndColumn: 32 + len(name)}) {
			t.Fatalf("edit %d: findings %+v", i, fs)
		}
		if !strings.Contains(fs[0].Suggestion, "os.Getenv") {
			t.Fatalf("edit %d: suggestion %q", i, fs[0].Suggestion)
		}
	}
	// The first edit loads the disk state cold and re-checks the edit on the warm path;
	// the second edit is warm only.
	if cold, warm := l.Stats(); cold != 1 || warm != 2 {
		t.Fatalf("cold=%d warm=%d, want 1 and 2", cold, warm)
	}
}

// A go.mod that is broken at the base and not touched by the change is no finding of the
// change: the dimension fails (the engine reports hallucination/internal-error).
func TestBrokenBaseGoModFailsClosed(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n\nrequire (\n",
		"app/app.go": "package app\n",
	})
	_, err := Dimension.Run(passFor(t, root, []editset.Edit{{Path: "app/app.go", Content: []byte("package app\n\nfunc A() {}\n")}}))
	if err == nil || !strings.Contains(err.Error(), "go.mod") {
		t.Fatalf("err = %v, want a go list error about go.mod", err)
	}
}

func TestNoToolchainFailsClosed(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
	root := writeTree(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "app/app.go": "package app\n"})
	t.Setenv("PATH", t.TempDir())
	_, err := Dimension.Run(passFor(t, root, []editset.Edit{{Path: "app/app.go", Content: []byte("package app\n\nfunc A() {}\n")}}))
	if err == nil {
		t.Fatal("ran without a Go toolchain and reported nothing")
	}
}

// With no base (check mode) nothing is added: no requirement is reported as new; with a
// base, a requirement the change adds is.
func TestNewDependencyNeedsABase(t *testing.T) {
	mod := []byte("module example.com/m\n\ngo 1.22\n\nrequire golang.org/x/mod v0.42.0\n")
	f := change.NewFile("go.mod", "", nil, mod)
	if fs, ok := goModFindings(f, true); !ok || len(fs) != 0 {
		t.Errorf("check mode: %v %+v", ok, fs)
	}
	f = change.NewFile("go.mod", "go.mod", []byte("module example.com/m\n\ngo 1.22\n"), mod)
	if fs, ok := goModFindings(f, false); !ok || len(fs) != 1 || fs[0].Rule != RuleNewDependency || fs[0].Location.Line != 5 {
		t.Errorf("diff mode: %v %+v", ok, fs)
	}
}

// In a go.work workspace, a change spanning two modules is checked as the change has
// it, not as the disk has it: module a sees what the change adds to module b.
func TestWorkspaceChangeSpanningModules(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.work":  "go 1.22\n\nuse (\n\t./a\n\t./b\n)\n",
		"a/go.mod": "module example.com/a\n\ngo 1.22\n",
		"a/a.go":   "package a\n",
		"b/go.mod": "module example.com/b\n\ngo 1.22\n",
		"b/b.go":   "package b\n\n// Old is old.\nfunc Old() int { return 1 }\n",
	})
	edits := []editset.Edit{
		{Path: "b/b.go", Content: []byte("package b\n\n// Old is old.\nfunc Old() int { return 1 }\n\n// New is new.\nfunc New() int { return 2 }\n")},
		{Path: "a/a.go", Content: []byte("package a\n\nimport \"example.com/b\"\n\nfunc Use() int { return b.Old() + b.New() + b.Nwe() }\n")},
	}
	fs, err := New(load.New(load.Options{})).Run(passFor(t, root, edits))
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || fs[0].Rule != RuleUnknownSymbol || fs[0].Symbol != "b.Nwe" || !strings.Contains(fs[0].Suggestion, "b.New") {
		t.Fatalf("findings %+v, want only b.Nwe with b.New suggested", fs)
	}
}
