// Package semantic is the dimension that checks that a change keeps the public API and the
// test suite: it compares the declarations of each changed package at the base and at the
// head of the change, as the language frontend reports them.
//
//   - semantics/removed-export (P13): an exported declaration present at the base is gone;
//     reported at the declaration as it was (the base file and line). A declaration moved
//     between files of one package is not a removal; a rename is the removal it is, with
//     the new name as suggestion when the signature matches.
//   - semantics/incompatible-change (P14, P15): following golang.org/x/exp/apidiff, an
//     exported function or method whose signature changed (a value method moved to the
//     pointer receiver included), a constant whose type or value changed, a variable or
//     field whose type changed (narrowing included), an interface that gained a method
//     (unless it has an unexported one), lost or changed one, a struct that stopped being
//     comparable, any other type whose definition or type parameters changed. Additions
//     (new exports, new fields, a method on a sealed interface) are compatible and never
//     reported.
//   - semantics/removed-test: a Test, Fuzz, Benchmark or Example function is gone.
//   - semantics/test-skipped: the change adds t.Skip, b.Skip, SkipNow or Skipf.
//   - semantics/broken-dependent: when the change removes or breaks an export, the
//     packages of the module that import it and are not part of the change are
//     type-checked at the head (sharing the hallucination dimension's loader) and each is
//     reported at its first error that names a broken symbol.
//
// Since a declaration can only disappear from, or move into, a file the change touches,
// comparing the changed files of each package is enough: no unchanged file is read.
// Packages named main are not an API; packages under internal/ are skipped unless
// include_internal is set. Types are judged as written (no type checking of the API
// itself): a field of a named type counts as comparable, and a type whose inferred type
// changes (var X = f()) is not seen. Files excluded by build constraints are compared as
// if they were not (the frontend reads every file).
package semantic
