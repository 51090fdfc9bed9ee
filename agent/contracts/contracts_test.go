package contracts

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// moduleRoot is the directory holding go.mod, found upwards from the test's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

// testFuncs returns the test and fuzz functions declared in the _test.go
// files of dir: top-level, no receiver, taking *testing.T or *testing.F.
func testFuncs(t *testing.T, dir string) map[string]bool {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("read %s: %v", dir, err)
	}
	funcs := map[string]bool{}
	fset := token.NewFileSet()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || len(fd.Type.Params.List) != 1 {
				continue
			}
			star, ok := fd.Type.Params.List[0].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			sel, ok := star.X.(*ast.SelectorExpr)
			if !ok || fmt.Sprint(sel.X) != "testing" {
				continue
			}
			name := fd.Name.Name
			if sel.Sel.Name == "T" && strings.HasPrefix(name, "Test") || sel.Sel.Name == "F" && strings.HasPrefix(name, "Fuzz") {
				funcs[name] = true
			}
		}
	}
	return funcs
}

func loadAgentLoop(t *testing.T) *Contract {
	t.Helper()
	c, err := AgentLoop()
	if err != nil {
		t.Fatalf("%v", err)
	}
	return c
}

func entries(c *Contract) []Entry { return append(slices.Clone(c.Invariants), c.Theorems...) }

func label(e Entry) string {
	if e.ID != "" {
		return e.ID
	}
	return e.Name
}

// TestAgentLoopBindingsExist fails when a binding names a test function
// that does not exist, or when no bound test carries the guarantee's name.
func TestAgentLoopBindingsExist(t *testing.T) {
	root := moduleRoot(t)
	c := loadAgentLoop(t)
	cache := map[string]map[string]bool{}
	for _, e := range entries(c) {
		named := false
		for _, raw := range e.Tests {
			b, err := ParseBinding(raw)
			if err != nil {
				t.Errorf("%s: %s: %v", AgentLoopFile, label(e), err)
				continue
			}
			if cache[b.Dir] == nil {
				cache[b.Dir] = testFuncs(t, filepath.Join(root, filepath.FromSlash(b.Dir)))
			}
			if !cache[b.Dir][b.Func] {
				t.Errorf("%s: %s: binding %s names no test function in %s", AgentLoopFile, label(e), raw, b.Dir)
			}
			named = named || strings.Contains(b.Func, e.GoName())
		}
		if !named {
			t.Errorf("%s: %s: no bound test has %q in its name", AgentLoopFile, label(e), e.GoName())
		}
	}
}

// TestAgentLoopComplete: INV-001…INV-016 in order, and every theorem the
// issue asks for.
func TestAgentLoopComplete(t *testing.T) {
	c := loadAgentLoop(t)
	var ids []string
	for _, e := range c.Invariants {
		ids = append(ids, e.ID)
	}
	var want []string
	for i := 1; i <= 16; i++ {
		want = append(want, fmt.Sprintf("INV-%03d", i))
	}
	if !slices.Equal(ids, want) {
		t.Errorf("invariants %v, want %v", ids, want)
	}
	fixed := map[string]string{"INV-008": "pool-capacity", "INV-009": "fan-out-count", "INV-010": "every-result-collected", "INV-011": "output-sanitisation"}
	for _, e := range c.Invariants {
		if n, ok := fixed[e.ID]; ok && e.Name != n {
			t.Errorf("%s is %q, want %q", e.ID, e.Name, n)
		}
	}
	var names []string
	for _, e := range c.Theorems {
		names = append(names, e.Name)
	}
	for _, need := range []string{
		"permission-safety", "budget-bounds-after-deduct", "error-state-forces-must-respond",
		"termination-by-max-steps", "step-increases-after-increment", "remaining-steps-decreases-after-increment",
		"decision-partition", "transitions-preserve-validity", "messages-preserve-control-flow",
		"truncate-preserves-system-prompt", "truncate-to-fit-length-bound", "truncate-fits-when-newest-fits",
	} {
		if !slices.Contains(names, need) {
			t.Errorf("theorem %s is missing", need)
		}
	}
}

// TestEveryGuaranteeTestIsBound: a TestINVnnn… or TestTheorem… function
// under agent/ that the contract does not bind is a guarantee nobody listed.
func TestEveryGuaranteeTestIsBound(t *testing.T) {
	root := moduleRoot(t)
	bound := map[string]bool{}
	for _, e := range entries(loadAgentLoop(t)) {
		for _, raw := range e.Tests {
			bound[raw] = true
		}
	}
	guarantee := regexp.MustCompile(`^Test(INV\d{3}|Theorem)`)
	err := filepath.WalkDir(filepath.Join(root, "agent"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || d.Name() == "testdata" {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for name := range testFuncs(t, path) {
			if key := filepath.ToSlash(rel) + "." + name; guarantee.MatchString(name) && !bound[key] {
				t.Errorf("%s is not bound in %s", key, AgentLoopFile)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestParseRejects(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"contract: x\nbogus: 1\n", "field bogus not found"},
		{"invariants: []\n", "contract: missing name"},
		{"contract: x\ninvariants:\n- id: INV-1\n  name: a\n  statement: s\n  tests: [agent/guard.TestA]\n", `id "INV-1" is not INV-nnn`},
		{"contract: x\ninvariants:\n- id: INV-001\n  name: A b\n  statement: s\n  tests: [agent/guard.TestA]\n", `name "A b" is not kebab-case`},
		{"contract: x\ntheorems:\n- name: a\n  statement: s\n  tests: [agent/guard.TestA]\n- name: a\n  statement: s\n  tests: [agent/guard.TestA]\n", "defined twice"},
		{"contract: x\ntheorems:\n- name: a\n  statement: ' '\n  tests: [agent/guard.TestA]\n", "no statement"},
		{"contract: x\ntheorems:\n- name: a\n  statement: s\n", "no test binds it"},
		{"contract: x\ntheorems:\n- name: a\n  statement: s\n  tests: [TestA]\n", `binding "TestA": want <package dir>.<TestName or FuzzName>`},
		{"contract: [\n", "did not find expected node content"},
	} {
		_, err := Parse([]byte(tc.yaml), "c.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "c.yaml: ") {
			t.Errorf("Parse(%q) error = %v, want %q", tc.yaml, err, tc.want)
		}
	}
}

func TestGoName(t *testing.T) {
	for _, tc := range []struct {
		e    Entry
		want string
	}{
		{Entry{ID: "INV-011", Name: "output-sanitisation"}, "INV011"},
		{Entry{Name: "permission-safety"}, "TheoremPermissionSafety"},
		{Entry{Name: "truncate-output-utf8-safe"}, "TheoremTruncateOutputUTF8Safe"},
	} {
		if e, want := tc.e, tc.want; e.GoName() != want {
			got := e.GoName()
			t.Errorf("GoName(%+v) = %q, want %q", e, got, want)
		}
	}
}
