package golang_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fzipp/gocyclo"
	"github.com/uudashr/gocognit"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
)

// parityCorpus lists the .go files the parity test compares on: standard-library
// packages with plenty of control flow, and the testdata.
func parityCorpus(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"strings", "bytes", "net/http", "go/parser", "encoding/json"} {
		root := filepath.Join(runtime.GOROOT(), "src", filepath.FromSlash(dir))
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".go") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("corpus %s: %v", dir, err)
		}
	}
	td, _ := filepath.Glob("testdata/*.go")
	return append(files, td...)
}

// TestParityGocycloGocognit checks that Cyclomatic and Cognitive equal gocyclo's and
// gocognit's numbers on every function of the corpus.
func TestParityGocycloGocognit(t *testing.T) {
	fe := golang.New()
	funcs, diffs := 0, 0
	for _, path := range parityCorpus(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ParseComments)
		if err != nil {
			continue // testdata of go/parser holds files that do not parse
		}
		lf, _ := fe.Parse(path, src)
		ours := measuredFuncs(lf)
		k := 0
		for _, decl := range af.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if k >= len(ours) {
				t.Fatalf("%s: frontend has fewer functions than go/parser", path)
			}
			d := lf.Decls[ours[k]]
			k++
			funcs++
			if !strings.HasSuffix(d.Name, fn.Name.Name) {
				t.Fatalf("%s: function %d is %s, go/parser says %s", path, k, d.Name, fn.Name.Name)
			}
			if want := gocyclo.Complexity(fn); d.Metrics.Cyclomatic != want {
				diffs++
				t.Errorf("%s:%d: %s: cyclomatic %d, gocyclo %d", path, d.NamePos.Line, d.Name, d.Metrics.Cyclomatic, want)
			}
			if want := gocognit.Complexity(fn); d.Metrics.Cognitive != want {
				diffs++
				t.Errorf("%s:%d: %s: cognitive %d, gocognit %d", path, d.NamePos.Line, d.Name, d.Metrics.Cognitive, want)
			}
		}
		if k != len(ours) {
			t.Fatalf("%s: frontend has %d functions, go/parser %d", path, len(ours), k)
		}
	}
	if funcs < 5000 {
		t.Errorf("corpus too small: %d functions", funcs)
	}
	t.Logf("%d functions compared, %d differences", funcs, diffs)
}

// measuredFuncs lists the indexes of the declarations with metrics that gocyclo measures
// too: functions and methods, not variables holding function literals.
func measuredFuncs(lf *lang.File) []int {
	var out []int
	for i, d := range lf.Decls {
		if d.Metrics != nil && d.Kind != lang.Var {
			out = append(out, i)
		}
	}
	return out
}
