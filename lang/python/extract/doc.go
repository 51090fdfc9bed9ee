// Package extract is the Python frontend's extraction stage: File reads from one parsed
// file what the language-agnostic dimensions need (lang.File) — declarations (decls.go,
// assigndecls.go for assignments, __all__ and type aliases), identifiers (idents.go),
// comments, syntax errors and code lines (scan.go), each function's metrics
// (metrics.go, mccabe.go, cognitive.go) and the tests a skip mark disables (skips.go).
// The rules each follows are in the documentation of package python.
package extract
