package golang_test

import (
	"os"
	"testing"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
)

// parseFile parses a file of testdata with the frontend.
func parseFile(t testing.TB, path string) *lang.File {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lf, err := golang.New().Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(lf.SyntaxErrors) > 0 {
		t.Fatalf("%s: unexpected syntax errors %v", path, lf.SyntaxErrors)
	}
	return lf
}

func metricsByName(lf *lang.File) map[string]lang.Metrics {
	out := map[string]lang.Metrics{}
	for _, d := range lf.Decls {
		if d.Metrics != nil {
			out[d.Name] = *d.Metrics
		}
	}
	return out
}

// TestMetricsTestdata pins the metrics of hand-counted functions; -1 means "checked by
// the parity test only".
func TestMetricsTestdata(t *testing.T) {
	got := metricsByName(parseFile(t, "testdata/metrics.go"))
	tests := []struct {
		name                   string
		lines, nest, cyc, cogn int
	}{
		{"empty", 0, 0, 1, 0},
		{"oneLine", 0, 0, 1, 0},
		{"straight", 2, 0, 1, 0},
		{"raw", 5, 0, 1, 0},
		{"elseIfChain", 9, 1, 4, 4},
		{"nested", 13, 4, 7, 12},
		{"literals", 7, 2, 2, 2},
		{"labelled", 16, 3, -1, -1},
		{"selecting", 14, 3, 6, -1},
		{"typeSwitch", 11, 2, 5, 3},
		{"factorial", 4, 1, 2, 2},
		{"tree.size", 4, 1, 2, 1}, // t.left.size() is not a call through the receiver,
		{"tree.walk", 4, 1, 2, 2},
		{"generic", 6, 2, 3, 3},
		{"mixedOps", 1, 0, 8, 6},
		{"condLiteral", 11, 4, -1, -1},
		{"deepElse", 10, 3, -1, -1},
		{"litVar", 6, 2, 3, 3},
		{"handlers", 4, 1, 2, 1}, // the worst of "a" (one line) and "b"
	}
	for _, tt := range tests {
		m, ok := got[tt.name]
		if !ok {
			t.Errorf("%s: no metrics", tt.name)
			continue
		}
		check := func(what string, got, want int) {
			if want >= 0 && got != want {
				t.Errorf("%s: %s = %d, want %d", tt.name, what, got, want)
			}
		}
		check("Lines", m.Lines, tt.lines)
		check("Nesting", m.Nesting, tt.nest)
		check("Cyclomatic", m.Cyclomatic, tt.cyc)
		check("Cognitive", m.Cognitive, tt.cogn)
	}
}

// TestPackageLiteralsMeasured checks that only variables holding function literals get
// metrics, and that a literal is measured like the function it could have been.
func TestPackageLiteralsMeasured(t *testing.T) {
	got := metricsByName(parseFile(t, "testdata/metrics.go"))
	if m, ok := got["plainVar"]; ok {
		t.Errorf("plainVar: metrics %+v, want none", m)
	}
	src := "package p\n\nvar f = func(a, b bool) {\n\tif a && b {\n\t}\n}\n\nfunc g(a, b bool) {\n\tif a && b {\n\t}\n}\n"
	lf, err := golang.New().Parse("p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	byName := metricsByName(lf)
	if byName["f"] != byName["g"] {
		t.Errorf("var f = func: %+v, func g: %+v; want equal", byName["f"], byName["g"])
	}
}

// TestNestingDefinition pins the nesting rules of the package doc.
func TestNestingDefinition(t *testing.T) {
	tests := []struct {
		body string
		want int
	}{
		{"x := 1; _ = x", 0},
		{"if a {}", 1},
		{"if a {} else if b {} else if c {} else {}", 1},
		{"if a {} else if b { for {} }", 2},
		{"if a {} else { if b {} }", 2},
		{"switch { case a: if b {} }", 2},
		{"select { case <-ch: for {} }", 2},
		{"switch x := v.(type) { case int: _ = x }", 1},
		{"for range xs { func() { if a {} }() }", 3},
		{"go func() {}()", 1},
		{"if func() bool { return a }() {}", 2},
		{"{ { if a {} } }", 1},
	}
	for _, tt := range tests {
		src := "package p\nfunc f(a, b, c bool, ch chan int, v any, xs []int) {\n" + tt.body + "\n}\n"
		lf, err := golang.New().Parse("p.go", []byte(src))
		if err != nil || len(lf.SyntaxErrors) > 0 {
			t.Fatalf("%q: %v %v", tt.body, err, lf.SyntaxErrors)
		}
		if got := lf.Decls[0].Metrics.Nesting; got != tt.want {
			t.Errorf("%q: nesting %d, want %d", tt.body, got, tt.want)
		}
	}
}
