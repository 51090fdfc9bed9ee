package hallucination

import (
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/internal/testkit/checktest"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// stdExports are real exported functions of the standard library, each used in a call of
// the given shape.
var stdExports = []struct{ pkg, name, call string }{
	{"strings", "TrimSpace", `strings.%s(" x ")`},
	{"strings", "HasPrefix", `strings.%s("ab", "a")`},
	{"strconv", "Itoa", `strconv.%s(1)`},
	{"os", "Getenv", `os.%s("HOME")`},
	{"path", "Base", `path.%s("a/b")`},
	{"bytes", "Contains", `bytes.%s(nil, nil)`},
	{"errors", "New", `errors.%s("x")`},
}

// mutate returns a misspelling of name that no package exports: a dropped, doubled or
// swapped letter, or a changed case.
func mutate(t *rapid.T, name string) string {
	i := rapid.IntRange(1, len(name)-1).Draw(t, "at")
	switch rapid.IntRange(0, 2).Draw(t, "kind") {
	case 0:
		return name[:i] + string(name[i]) + name[i:] // a doubled letter
	case 1:
		return name[:i] + strings.ToLower(name[i:i+1]) + name[i+1:] + "x" // a lowered letter and a stray one
	}
	return name + "s"
}

// TestP7UnknownSymbolAlwaysReported: a call to a misspelled member of a standard-library
// package is always reported as unknown-symbol at the selector, with the real name among
// the suggestions (P7), and every suggested name is one the package really declares (P21).
func TestP7UnknownSymbolAlwaysReported(t *testing.T) {
	// The file on disk imports every package the edits use, so each edit keeps the import
	// set and takes the loader's warm path.
	imports := "package app\n\nimport (\n\t\"bytes\"\n\t\"errors\"\n\t\"os\"\n\t\"path\"\n\t\"strconv\"\n\t\"strings\"\n)\n\n" +
		"var _, _, _, _, _, _ = bytes.Contains, errors.New, os.Getenv, path.Base, strconv.Itoa, strings.TrimSpace\n"
	root := writeTree(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "app/app.go": imports})
	warm := lang.Registry{golang.NewWarm(load.New(load.Options{}))}
	rapid.Check(t, func(rt *rapid.T) {
		e := rapid.SampledFrom(stdExports).Draw(rt, "export")
		wrong := mutate(rt, e.name)
		call := strings.Replace(e.call, "%s", wrong, 1)
		src := imports + "\nvar _ = " + call + "\n"
		pass := passFor(t, root, []editset.Edit{{Path: "app/app.go", Content: []byte(src)}})
		pass.Languages = warm
		fs, err := Dimension.Run(pass)
		if err != nil {
			rt.Fatal(err)
		}
		var found bool
		for _, f := range fs {
			if f.Rule == RuleUnknownSymbol && f.Location.Line == 14 && f.Location.Column == strings.Index("var _ = "+call, wrong)+1 {
				found = true
				if !strings.Contains(f.Suggestion, e.pkg+"."+e.name) {
					rt.Fatalf("%s: suggestion %q lacks %s.%s", call, f.Suggestion, e.pkg, e.name)
				}
			}
		}
		if !found {
			rt.Fatalf("%s: no unknown-symbol at the selector; findings %+v", call, fs)
		}
	})
}

// TestP9UnknownImportReportedWithoutGoGet: an import nobody published is reported as
// unknown-import, and no message tells the agent to fetch it.
func TestP9UnknownImportReportedWithoutGoGet(t *testing.T) {
	for i, imp := range []string{"github.com/go-utilities/stringhelpers", "golang.org/x/stringutil", "stringhelpers"} {
		if !shorttest.Runs(i, 3) {
			continue // -short tries the first import; the full suite all three
		}
		root := writeTree(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "app/app.go": "package app\n"})
		src := "package app\n\nimport _ \"" + imp + "\"\n"
		fs, err := Dimension.Run(passFor(t, root, []editset.Edit{{Path: "app/app.go", Content: []byte(src)}}))
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) == 0 || fs[0].Rule != RuleUnknownImport {
			t.Errorf("import %q: findings %+v, want unknown-import", imp, fs)
		}
		for _, f := range fs {
			if strings.Contains(f.Message+f.Suggestion, "go get") || strings.Contains(f.Message+f.Suggestion, "go mod download") {
				t.Errorf("import %q: advice to fetch: %s %s", imp, f.Message, f.Suggestion)
			}
		}
	}
}

// TestG6CorrectProgramsPass: correct programs using the newest standard library produce no
// finding (the ok_*.txtar cases have no expectations, so any finding fails them).
func TestG6CorrectProgramsPass(t *testing.T) {
	matches, _ := filepath.Glob(filepath.Join("testdata", "ok_*.txtar"))
	if len(matches) < 10 {
		t.Fatalf("%d correct-program cases, want at least 10", len(matches))
	}
	for i, m := range matches {
		t.Run(filepath.Base(m), func(t *testing.T) {
			shorttest.Sample(t, i, 10) // each case loads its packages with go list
			c := checktest.Load(t, m)
			c.Check(t, Dimension, checktest.RunDimension(t, c, Dimension, languages))
		})
	}
}
