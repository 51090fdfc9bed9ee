package vet

import (
	"errors"
	"go/token"
	"reflect"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
)

// TestAnalyzersSideBySide runs two analyzers that require nothing of each other and each
// wait for the other to have started: one after the other, the first would wait in vain.
func TestAnalyzersSideBySide(t *testing.T) {
	t.Parallel()
	pkg := check(t, token.NewFileSet(), "example.com/p", "package p\n\nfunc F() {}\n", nil)
	started := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	meet := func(me, other string) *analysis.Analyzer {
		return &analysis.Analyzer{Name: me, Doc: "waits for " + other, Run: func(pass *analysis.Pass) (any, error) {
			close(started[me])
			select {
			case <-started[other]:
				pass.Reportf(pass.Files[0].Package, "%s met %s", me, other)
				return nil, nil
			case <-time.After(10 * time.Second):
				return nil, errors.New(me + " ran alone")
			}
		}}
	}
	diags, err := Run(pkg, []*analysis.Analyzer{meet("a", "b"), meet("b", "a")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The diagnostics come in the analyzers' order, whichever finished first.
	if len(diags) != 2 || diags[0].Message != "a met b" || diags[1].Message != "b met a" {
		t.Fatalf("diagnostics = %+v", diags)
	}
}

type factA struct{}

func (*factA) AFact()         {}
func (*factA) String() string { return "A" }

type factB struct{}

func (*factB) AFact()         {}
func (*factB) String() string { return "B" }

// TestAllObjectFactsOwnTypes: an analyzer's AllObjectFacts holds facts of its own
// FactTypes only, as analysis.Pass promises, and never another analyzer's, which may be
// in the making beside it.
func TestAllObjectFactsOwnTypes(t *testing.T) {
	t.Parallel()
	pkg := check(t, token.NewFileSet(), "example.com/p", "package p\n\nfunc F() {}\n", nil)
	obj := pkg.Types.Scope().Lookup("F")
	exporter := &analysis.Analyzer{Name: "exporter", Doc: "exports A", FactTypes: []analysis.Fact{new(factA)},
		Run: func(pass *analysis.Pass) (any, error) { pass.ExportObjectFact(obj, new(factA)); return nil, nil }}
	var seen []string
	reader := &analysis.Analyzer{Name: "reader", Doc: "lists its facts", FactTypes: []analysis.Fact{new(factB)}, Requires: []*analysis.Analyzer{exporter},
		Run: func(pass *analysis.Pass) (any, error) {
			pass.ExportObjectFact(obj, new(factB))
			for _, f := range pass.AllObjectFacts() {
				seen = append(seen, reflect.TypeOf(f.Fact).Elem().Name())
			}
			return nil, nil
		}}
	if _, err := Run(pkg, []*analysis.Analyzer{reader}, NewFacts()); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != "factB" {
		t.Fatalf("reader saw facts %v, want only its own factB", seen)
	}
}

// TestRequiresCycleFails: analyzers that require each other fail the run with an error
// naming the cycle; each waiting for the other would hang it.
func TestRequiresCycleFails(t *testing.T) {
	t.Parallel()
	pkg := check(t, token.NewFileSet(), "example.com/p", "package p\n", nil)
	noop := func(*analysis.Pass) (any, error) { return nil, nil }
	a := &analysis.Analyzer{Name: "a", Doc: "requires b", Run: noop}
	b := &analysis.Analyzer{Name: "b", Doc: "requires a", Run: noop, Requires: []*analysis.Analyzer{a}}
	a.Requires = []*analysis.Analyzer{b}
	done := make(chan error, 1)
	go func() { _, err := Run(pkg, []*analysis.Analyzer{a}, nil); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "cycle") {
			t.Fatalf("Run = %v, want an error naming the cycle", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run hung on a cycle of Requires")
	}
}
