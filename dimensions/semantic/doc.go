// Package semantic is the dimension that checks that a change keeps the public API and the
// test suite: it compares the declarations of each changed package at the base and at the
// head of the change, as the language frontend reports them.
//
//   - semantics/removed-export (P13): an exported declaration present at the base is gone;
//     reported at the declaration as it was (the base file and line). A declaration moved
//     between files of one package is not a removal; a rename is the removal it is, with
//     the new name as suggestion when the signature matches.
//   - semantics/incompatible-change (P14, P15): an exported function, method, variable,
//     constant or struct field whose signature (as the frontend normalises it) changed;
//     additions are compatible and never reported.
//   - semantics/removed-test: a Test, Fuzz, Benchmark or Example function is gone.
//   - semantics/test-skipped: the change adds t.Skip, b.Skip, SkipNow or Skipf.
//   - semantics/broken-dependent: declared for the catalogue; the check of unchanged
//     dependents is not implemented yet and never fires.
//
// Since a declaration can only disappear from, or move into, a file the change touches,
// comparing the changed files of each package is enough: no unchanged file is read.
// Packages named main are not an API; packages under internal/ are skipped unless
// include_internal is set. Type declarations are compared through their fields; changes to
// interface method sets and comparability are not detected yet.
package semantic
