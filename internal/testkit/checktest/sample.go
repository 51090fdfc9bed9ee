package checktest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/modroot"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
)

// An Option changes how Run runs a suite.
type Option func(*options)

type options struct {
	shortEvery int // under -short, one case in shortEvery runs; 0: all
}

// ShortSample makes Run, under go test -short, run one case in every n (the first of
// each n, in name order) and every case docs/guarantees.md binds a guarantee to; the
// others skip, saying so. The full suite runs every case. It is for suites whose cases
// each start a real tool (pyright, tsc) or fill empty caches, where a case costs seconds.
func ShortSample(n int) Option {
	return func(o *options) { o.shortEvery = n }
}

// sampler returns whether Run runs the i-th case, at path.
func (o options) sampler(t *testing.T) func(i int, path string) bool {
	if !testing.Short() || o.shortEvery <= 1 {
		return func(int, string) bool { return true }
	}
	bound := boundCases(t)
	return func(i int, path string) bool {
		return shorttest.Runs(i, o.shortEvery) || bound(path)
	}
}

// boundCases returns whether docs/guarantees.md names the case file at path.
func boundCases(t *testing.T) func(path string) bool {
	t.Helper()
	doc := modroot.File("docs", "guarantees.md")
	data, err := os.ReadFile(doc)
	if doc == "" || err != nil {
		t.Fatalf("ShortSample: cannot read docs/guarantees.md under the module root (%v)", err)
	}
	root := filepath.Dir(filepath.Dir(doc))
	return func(path string) bool {
		abs, err := filepath.Abs(path)
		if err != nil {
			return true
		}
		rel, err := filepath.Rel(root, abs)
		return err != nil || strings.Contains(string(data), "`"+filepath.ToSlash(rel)+"`")
	}
}
