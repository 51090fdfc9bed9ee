// Package semantic is the dimension that checks that a change keeps the public API, the
// code that uses it and the test suite.
//
//   - semantics/removed-export (P13) and semantics/incompatible-change (P14, P15): each
//     language frontend's lang.APIComparer compares the API of every package the change
//     touches at the base and at the head; for Go that is golang.org/x/exp/apidiff over
//     both sides type-checked (lang/golang/api). Each incompatible change is one finding
//     with apidiff's own words ("package P: T.M: changed from func() to func(int)"), at
//     the declaration as it is at the head; a removal is at the package clause of the
//     file the declaration was in, with where it was at the base as related place. A
//     deleted package is one removal; a changed module path in go.mod is an incompatible
//     change at its module line. Compatible changes (additions, widened types, renamed
//     unexported types, aliases to the same type) are not reported. For Common Lisp the
//     API is the defpackage :export lists and the lambda lists of the exported functions,
//     read from the whole repository (lang/commonlisp/api.go).
//   - semantics/broken-dependent: for the changes kept, the comparer type-checks at the
//     head the packages outside the change that import a changed package (for Go, with
//     the loader shared with the hallucination dimension) and every error that names
//     what changed is a finding at the broken call site, naming the caller's package by
//     its import path, with the change as related place.
//   - semantics/removed-test: a test (a frontend's Decl.Test: Go's Test, Fuzz, Benchmark
//     and Example functions, Lisp's FiveAM, rove, RT and parachute tests) is gone;
//     reported at the package clause of its file at the head (a renamed file under its
//     new name), in a language without one (Lisp, Python) at the head line now where the
//     test was (change.HeadLine), in a deleted file at its first line, with its base
//     place related. A test whose file moves to another package where it still runs is
//     not removed; where it runs is the frontend's to say (lang.TestReach: Go's module).
//   - semantics/test-skipped: the change adds a place that skips a test (a frontend's
//     File.Skips: t.Skip, b.Skip, SkipNow or Skipf; Lisp's (skip …), :skip, #+(or)).
//   - semantics/type-mismatch: the problems of kind lang.TypeMismatch that the frontends'
//     resolvers report (those that list it, lang.KindLister), from the one resolver run
//     the hallucination dimension shares (check.Pass.Resolved): for Python, pyright's
//     argument types and attributes of a declared type narrower than the object. A warning
//     by default, in every mode, settled at the base like any finding not marked
//     Introduced.
//
// Packages named main are not an API; packages under internal/ are skipped unless
// include_internal is set. The policy for a package (preserve_exports,
// preserve_signatures) decides which changes count, and only those are followed to
// their dependents. A package that does not parse on either side is not compared: the
// hallucination dimension reports the syntax error.
package semantic
