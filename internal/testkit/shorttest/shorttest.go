// Package shorttest decides which cases of a slow table run under go test -short: a
// deterministic sample, so that each table keeps a representative in the quick suite
// while the full suite (what CI runs) runs every case.
package shorttest

import "testing"

// Sample skips t under -short unless i (the case's index, from 0) is the first of
// every n; without -short, or with n < 2, it does nothing.
func Sample(t testing.TB, i, n int) {
	t.Helper()
	if !Runs(i, n) {
		t.Skipf("slow: -short runs one case in %d of this table; the full suite runs them all", n)
	}
}

// Runs reports whether the i-th case of a table sampled one in n runs in this test run.
func Runs(i, n int) bool {
	return !testing.Short() || n < 2 || i%n == 0
}

// Slow skips t under -short, saying what makes it slow: a test whose value is a real
// tool, a real project or a fresh cache, that a table's sample or a sibling represents
// in the quick suite. The full suite runs it.
func Slow(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("slow (%s): the full suite runs it, -short does not", what)
	}
}
