// Package treesitter parses with a tree-sitter grammar (through the official Go
// bindings, cgo) and copies the tree into a frontend's own Go nodes once per parse, so
// that its analyses run without a cgo call per question. It holds what the Python and
// TypeScript frontends' syntax packages share: the grammar's kind and field names in Go
// tables, the copy, byte offsets turned into 1-based lines and byte columns (lang.Pos),
// and tree-sitter's allocator pointed at libc.
//
// A build without cgo has none of it: the frontends' syntax packages then fail every
// parse, loudly.
package treesitter
