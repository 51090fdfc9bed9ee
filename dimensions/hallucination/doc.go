// Package hallucination implements the hallucination dimension for Go: every import,
// package member, field, method, identifier and call of the changed files is resolved
// against the real APIs — the standard library of the installed toolchain, the modules
// go.mod requires, and the other packages of the module — by type-checking the packages
// that contain the changed files as they are at the head of the change (in-memory and
// staged content included, through an overlay). Each type error becomes one finding at
// the offending selector or identifier, classified by rule, with suggestions taken from
// the real API (the closest exported names, fields and methods, or identifiers in scope).
//
// Nothing the type checker says is dropped: what no specific rule covers is reported as
// hallucination/type-error, every syntax error the parser recovers from is reported, and
// go/types' continuation lines fold into their finding. go/types' own test data runs
// through this path in TestGoTypesSuite. A package used without its import is
// hallucination/missing-import, with the import line. api-too-new takes each
// standard-library symbol's release from the toolchain's API manifest and compares it
// with the go directive (never the toolchain line) or the file's //go:build version; as go
// vet's stdversion analyzer does, not in modules whose go line is older than 1.21.
//
// Changed files the host build excludes (x_windows.go, //go:build darwin, custom tags) are
// type-checked under a GOOS, GOARCH and tags that include them; a file no supported
// configuration builds (//go:build ignore) is hallucination/unverified-file, an error. Unknown imports are never answered with "go get": an agent
// that adds a dependency it imagined is how squatted modules get installed, so the finding
// names the module that would be needed and says it is not in go.mod. `go list` runs
// without network access.
//
// In diff mode only the packages containing changed Go files are checked and only findings
// on changed lines survive the engine's diff filter, except go.mod findings; breakage the
// change causes in unchanged packages is semantics/broken-dependent.
package hallucination
