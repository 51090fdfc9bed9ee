package resolve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lang/suggest"
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
		if got := suggest.Distance(c.a, c.b); got != c.d {
			t.Errorf("suggest.Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

// Distance is a metric bounded by the longer length, zero only on equal strings.
func TestDistanceProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.StringMatching(`[a-e]{0,8}`).Draw(t, "a")
		b := rapid.StringMatching(`[a-e]{0,8}`).Draw(t, "b")
		d := suggest.Distance(a, b)
		if d != suggest.Distance(b, a) {
			t.Fatalf("not symmetric: %q %q", a, b)
		}
		if (d == 0) != (a == b) || d > max(len(a), len(b)) || d < abs(len(a)-len(b)) {
			t.Fatalf("suggest.Distance(%q, %q) = %d out of bounds", a, b, d)
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
	cases := []struct {
		msg  string
		rule lang.Kind
	}{
		{"undefined: foo", lang.Undefined},
		{"x.Foo undefined (type T has no field or method Foo)", lang.UnknownMember},
		{"x.foo undefined (cannot refer to unexported field foo)", lang.UnknownMember},
		{"not enough arguments in call to f\n\thave ()\n\twant (int)", lang.WrongSignature},
		{"too many arguments in call to f\n\thave (int, int)\n\twant (int)", lang.WrongSignature},
		{"not enough return values\n\thave ()\n\twant (int)", lang.WrongSignature},
		{"too many return values", lang.WrongSignature},
		{`cannot use "1" (untyped string constant) as int value in argument to os.Exit`, lang.WrongSignature},
		{"cannot use x (variable of type int) as string value in return statement", lang.WrongSignature},
		{"assignment mismatch: 2 variables but fmt.Sprintf returns 1 value", lang.WrongSignature},
		{"f() (no value) used as value", lang.WrongSignature},
		{"cannot range over f (variable of type func(func(int) bool)): requires go1.23 or later", lang.APITooNew},
		{"declared and not used: x", lang.TypeError},
		{`"fmt" imported and not used`, lang.TypeError},
		{"missing return", lang.TypeError},
		{"could not import example.com/x (no metadata)", lang.TypeError},
	}
	for _, tc := range cases {
		f := c.classifyTypeError(&load.Package{}, load.Error{Kind: load.TypeError, Msg: tc.msg})
		if f.Kind != tc.rule {
			t.Errorf("%q: rule %s, want %s", tc.msg, f.Kind, tc.rule)
		}
	}
}

func TestSanitizeDropsGoGet(t *testing.T) {
	msg := "no required module provides package github.com/x/y; to add it:\n\tgo get github.com/x/y"
	if got := sanitize(msg); strings.Contains(got, "go get") || got != "no required module provides package github.com/x/y" {
		t.Fatalf("sanitize = %q", got)
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
	if fs, ok := goModFindings(f, false); !ok || len(fs) != 1 || fs[0].Kind != lang.NewDependency || fs[0].Location.Line != 5 {
		t.Errorf("diff mode: %v %+v", ok, fs)
	}
}

// A go list message names paths in the repository relative to its root.
func TestRelMsg(t *testing.T) {
	c := &converter{roots: []string{"/tmp/clone", "/real/clone"}}
	for msg, want := range map[string]string{
		"build constraints exclude all Go files in /tmp/clone/app/testdata": "build constraints exclude all Go files in app/testdata",
		"found packages a (a.go) and b (b.go) in /real/clone/x":             "found packages a (a.go) and b (b.go) in x",
		"no Go files in /tmp/clone":                                         "no Go files in .",
		"no Go files in /tmp/clone2/x":                                      "no Go files in /tmp/clone2/x",
	} {
		if got := c.relMsg(msg); got != want {
			t.Errorf("relMsg(%q) = %q, want %q", msg, got, want)
		}
	}
}

// A panic the loader recovered is the verification's failure: it is never reported as
// the changed go.mod's problem (exit 1), whatever the change touched.
func TestLoadFailureCrash(t *testing.T) {
	p := &lang.Request{Context: context.Background(), Changes: &change.Set{Root: t.TempDir()}}
	u := &unit{dir: ".", inModule: true, goMod: change.NewFile("go.mod", "", nil, []byte("module m\n"))}
	crashErr := fmt.Errorf("go list: %w", &crash.Error{Value: "nil map", Inner: "go/types.(*Checker).objDecl"})
	if f, err := loadFailure(p, u, crashErr); err == nil || !errors.Is(err, crashErr) {
		t.Errorf("loadFailure(crash) = %+v, %v; want the crash as the run's error", f, err)
	}
	f, err := loadFailure(p, u, errors.New("go: errors parsing go.mod"))
	if err != nil || f.Location.File != "go.mod" {
		t.Errorf("loadFailure(go.mod error) = %+v, %v; want a finding at go.mod", f, err)
	}
}
