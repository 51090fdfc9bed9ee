// Package golang is the Go language frontend: it parses one Go file with go/parser and
// extracts what the language-agnostic dimensions need (lang.File): declarations with
// spans, exported flag, doc comments, normalised signatures and complexity metrics,
// every declared identifier, comments and syntax errors. It never type-checks; the
// type-checked view lives in the load subpackage.
//
// # Declarations
//
// Functions are named by their identifier, methods "T.Name" with the receiver's type
// name (no '*', no type parameters). Struct fields are listed, as "T.Field", for the
// struct types of exported type declarations only. A declaration is Exported when its
// name is exported and, for methods and fields, its type's name is exported too: a
// method on an unexported type is not part of the package's API. Documented is set when
// the declaration has a doc comment, or — for a spec of a parenthesised var, const or
// type group — the group has one; a field also counts as documented by a trailing line
// comment. Test is set for functions of _test.go files named Test*, Fuzz*, Benchmark*
// or Example* (the rune after the prefix not lower case, as `go test` decides) with the
// signatures `go test` accepts: func(*testing.T), func(*testing.F), func(*testing.B)
// and func() respectively, no receiver, no type parameters, no results.
//
// Signatures are go/printer output on one line with parameter names dropped:
// "func(int, ...string) (bool, error)" for functions, "(*T) func(int) error" for
// methods (the receiver type first), "[P any] struct{A int; b string}" or "= X" (an
// alias) for types, the declared type (empty when inferred) for vars, the declared type
// and "= value" for consts with an explicit value ("int = 2", "= 1"; iota continuation
// lines have the type alone), and the field type for fields.
//
// # Metrics
//
// Metrics are computed for every function and method with a body; function literals
// count toward the function that contains them.
//
//   - Lines: lines strictly between the line of the body's '{' and the line of its '}'
//     that hold at least one token that is not a comment (a line inside a multi-line raw
//     string counts). A body written on one line therefore has 0 lines.
//   - Nesting: the largest number of nesting structures — if, for, range, switch, type
//     switch, select and function literal — on a path from the function's body to a
//     statement, counting each structure once. The if of an "else if" continues its
//     chain and does not add depth, so a chain of any length is depth 1 and its
//     branches' bodies are all one level deeper than the chain. A function with no such
//     structure has depth 0; case and comm clauses add nothing beyond their switch or
//     select. Structures in an if's init or condition sit inside that if.
//   - Cyclomatic: gocyclo's number: 1 + if + for + range + non-default case clause +
//     non-default comm clause + && + ||, over the whole declaration.
//   - Cognitive: gocognit's number (github.com/uudashr/gocognit, single-declaration
//     mode): +1 plus nesting for if, switch, type switch, select, for and range; +1 for
//     else and else if; +1 for goto, labelled break and labelled continue; +1 for each
//     run of the same binary logical operator in a chain of && and ||; +1 when the
//     function calls itself directly; function literals, and the bodies of the
//     structures above, raise the nesting level.
//
// The tests check the last two against gocyclo and gocognit on every function of a
// corpus of standard-library packages.
package golang
