package complexity_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/dimensions/complexity"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/policy"
)

// genFunc is a randomly generated Go function with the metrics it was built to have.
type genFunc struct {
	src                    string
	lines, nesting, cyclom int
}

// builder renders random statements and keeps the expected counts.
type builder struct {
	t       *rapid.T
	out     strings.Builder
	lines   int // code lines inside the body
	deepest int
	cyclom  int
	filler  string // the text of a simple statement
}

func (b *builder) line(indent int, s string, code bool) {
	b.out.WriteString(strings.Repeat("\t", indent) + s + "\n")
	if code {
		b.lines++
	}
}

// cond writes a condition of 1-3 operands joined by && or || and counts its operators.
func (b *builder) cond() string {
	n := rapid.IntRange(0, 2).Draw(b.t, "ops")
	parts := []string{"a"}
	for range n {
		parts = append(parts, rapid.SampledFrom([]string{"&&", "||"}).Draw(b.t, "op"), "b")
	}
	b.cyclom += n
	return strings.Join(parts, " ")
}

// block writes 0-3 statements at depth (the nesting of their container).
func (b *builder) block(indent, depth, budget int) {
	b.deepest = max(b.deepest, depth)
	for range rapid.IntRange(0, 3).Draw(b.t, "stmts") {
		kind := "simple"
		if budget > 0 {
			kind = rapid.SampledFrom([]string{"simple", "blank", "comment", "if", "for", "range", "switch", "select", "func"}).Draw(b.t, "kind")
		}
		b.stmt(kind, indent, depth, budget)
	}
}

func (b *builder) stmt(kind string, indent, depth, budget int) {
	in := depth + 1
	switch kind {
	case "simple":
		b.line(indent, b.filler, true)
	case "blank":
		b.line(0, "", false)
	case "comment":
		b.line(indent, "// "+b.filler, false)
	case "if":
		b.cyclom++
		b.line(indent, "if "+b.cond()+" {", true)
		b.block(indent+1, in, budget-1)
		for range rapid.IntRange(0, 2).Draw(b.t, "elseifs") {
			b.cyclom++
			b.line(indent, "} else if "+b.cond()+" {", true)
			b.block(indent+1, in, budget-1)
		}
		if rapid.Bool().Draw(b.t, "else") {
			b.line(indent, "} else {", true)
			b.block(indent+1, in, budget-1)
		}
		b.line(indent, "}", true)
	case "for", "range":
		b.cyclom++
		head := "for range xs {"
		if kind == "for" {
			head = "for " + b.cond() + " {"
		}
		b.line(indent, head, true)
		b.block(indent+1, in, budget-1)
		b.line(indent, "}", true)
	case "switch", "select":
		b.deepest = max(b.deepest, in)
		head, clause := "switch {", ""
		if kind == "select" {
			head, clause = "select {", "case <-ch:"
		}
		b.line(indent, head, true)
		for range rapid.IntRange(0, 3).Draw(b.t, "cases") {
			b.cyclom++
			if kind == "switch" {
				clause = "case " + b.cond() + ":"
			}
			b.line(indent, clause, true)
			b.block(indent+1, in, budget-1)
		}
		if rapid.Bool().Draw(b.t, "default") {
			b.line(indent, "default:", true)
			b.block(indent+1, in, budget-1)
		}
		b.line(indent, "}", true)
	case "func":
		b.line(indent, "func() {", true)
		b.block(indent+1, in, budget-1)
		b.line(indent, "}()", true)
	}
	if kind != "simple" && kind != "blank" && kind != "comment" {
		b.deepest = max(b.deepest, in)
	}
}

// drawFunc generates a function F whose body statements are `filler`.
func drawFunc(t *rapid.T, filler string) genFunc {
	b := &builder{t: t, cyclom: 1, filler: filler}
	b.out.WriteString("package p\n\nfunc F(a, b bool, ch chan int, xs []int) {\n")
	b.block(1, 0, rapid.IntRange(0, 5).Draw(t, "budget"))
	b.out.WriteString("}\n")
	return genFunc{src: b.out.String(), lines: b.lines, nesting: b.deepest, cyclom: b.cyclom}
}

func metricsOf(t *rapid.T, src string) *lang.Metrics {
	lf, err := golang.New().Parse("p.go", []byte(src))
	if err != nil || len(lf.SyntaxErrors) > 0 {
		t.Fatalf("generated source does not parse: %v %v\n%s", err, lf.SyntaxErrors, src)
	}
	return lf.Decls[0].Metrics
}

func TestP16FunctionLengthCountsCodeLines(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawFunc(t, "_ = a")
		if m := metricsOf(t, g.src); m.Lines != g.lines {
			t.Fatalf("Lines = %d, generated %d\n%s", m.Lines, g.lines, g.src)
		}
	})
}

func TestP17NestingEqualsGeneratedDepth(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawFunc(t, "_ = a")
		if m := metricsOf(t, g.src); m.Nesting != g.nesting {
			t.Fatalf("Nesting = %d, generated %d\n%s", m.Nesting, g.nesting, g.src)
		}
	})
}

func TestP18CyclomaticEqualsGeneratedCount(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawFunc(t, "_ = a")
		if m := metricsOf(t, g.src); m.Cyclomatic != g.cyclom {
			t.Fatalf("Cyclomatic = %d, generated %d\n%s", m.Cyclomatic, g.cyclom, g.src)
		}
	})
}

// run runs the dimension on one file p.go with the given limits.
func run(t *rapid.T, mode check.Mode, base, head string, opts policy.ComplexityOptions) []check.Finding {
	pol := policy.Default()
	pol.Complexity = &opts
	var baseContent []byte
	set := &change.Set{Root: "/r", NoBase: mode == check.Check}
	if mode != check.Check {
		baseContent, set.BaseRev = []byte(base), "base"
	}
	set.Files = []*change.File{change.NewFile("p.go", "p.go", baseContent, []byte(head))}
	langs := lang.Registry{golang.New()}
	pass := &check.Pass{Context: context.Background(), Changes: set, Policy: pol, Mode: mode,
		Languages: langs, Files: check.NewFiles(langs)}
	fs, err := complexity.Dimension.Run(pass)
	if err != nil {
		t.Fatal(err)
	}
	var kept []check.Finding
	for _, f := range fs {
		if pass.Keep(f) {
			kept = append(kept, f)
		}
	}
	return kept
}

// TestP19AtLimitNeverReportedBelowReported: with every limit equal to the function's own
// metric nothing is reported; one below, exactly that rule fires.
func TestP19AtLimitNeverReportedBelowReported(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawFunc(t, "_ = a")
		m := metricsOf(t, g.src)
		at := policy.ComplexityOptions{MaxFunctionLines: max(m.Lines, 1), MaxNestingDepth: max(m.Nesting, 1),
			MaxCyclomatic: m.Cyclomatic, MaxCognitive: max(m.Cognitive, 1)}
		if fs := run(t, check.Check, "", g.src, at); len(fs) > 0 {
			t.Fatalf("reported at the limit: %v\n%s", fs, g.src)
		}
		below := at
		below.MaxCyclomatic = m.Cyclomatic - 1
		fs := run(t, check.Check, "", g.src, below)
		if m.Cyclomatic == 1 {
			if len(fs) > 0 { // limit 0 is off
				t.Fatalf("limit 0 reported: %v", fs)
			}
			return
		}
		want := fmt.Sprintf("function F has cyclomatic complexity %d (limit %d)", m.Cyclomatic, m.Cyclomatic-1)
		if len(fs) != 1 || fs[0].Rule != "complexity/cyclomatic" || fs[0].Message != want || fs[0].Symbol != "F" {
			t.Fatalf("one below the limit: got %v, want %q", fs, want)
		}
	})
}

// TestG1NotWorseNeverReportedInDiff: a function whose statements changed but whose
// metrics did not is never reported in diff mode, however low the limits.
func TestG1NotWorseNeverReportedInDiff(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawFunc(t, "_ = FILL")
		base := strings.ReplaceAll(g.src, "FILL", "a")
		head := strings.ReplaceAll(g.src, "FILL", "b")
		low := policy.ComplexityOptions{MaxFunctionLines: 1, MaxNestingDepth: 1, MaxCyclomatic: 1, MaxCognitive: 1}
		if fs := run(t, check.Diff, base, head, low); len(fs) > 0 {
			t.Fatalf("unchanged metrics reported: %v\nbase:\n%s\nhead:\n%s", fs, base, head)
		}
		if fs := run(t, check.Diff, "package p\n", head, low); len(fs) == 0 && g.cyclom > 1 {
			t.Fatalf("new function over the limit not reported\n%s", head)
		}
	})
}
