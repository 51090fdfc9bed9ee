// Package syntax parses TypeScript and JavaScript with tree-sitter's TypeScript and TSX
// grammars (github.com/tree-sitter/tree-sitter-typescript through the official Go
// bindings) and copies the tree into Go values (Node), so that the analyses run without
// a cgo call per question.
//
// The grammar follows the file's extension: .ts, .mts and .cts are TypeScript, where
// `<T>x` is a type assertion; .tsx and every JavaScript extension (.js, .jsx, .mjs, .cjs)
// are TSX, which reads JavaScript and JSX (plain JavaScript is a subset of it). Parsing is
// error-tolerant: every ERROR and MISSING node becomes a SyntaxError at its position, and
// the rest of the file is still there. Positions are 1-based lines and byte columns, as
// lang.Pos counts them.
//
// A build without cgo has no grammar: Parse fails, loudly, so a TypeScript file is never
// passed unverified.
package syntax
