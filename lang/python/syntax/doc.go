// Package syntax parses one Python file with tree-sitter's Python grammar
// (github.com/tree-sitter/tree-sitter-python through the official Go bindings, cgo) and
// copies the tree into Go values (Node) once per parse, so that every analysis of the
// frontend runs without a cgo call per question. Positions are 1-based lines and byte
// columns, as lang.Pos counts them.
//
// The grammar covers Python 2 and 3 and accepts some orders CPython's parser rejects;
// Python3Error names what Python 3 rejects among them (print and exec statements, '<>',
// 10L, 0777, backquotes, invalid string prefixes, "raise E, msg", "except E, e", tuple
// parameters, parameter and argument orders), so the frontend reports it as a syntax
// error where tree-sitter recovered.
//
// On the tree, Imports lists what a file's import statements load (guarded by an
// ImportError handler or by TYPE_CHECKING, or not); RoleOf says what pytest's file
// naming makes of a file (source, test module, conftest.py); ModuleStatements lists a
// module's statements with those of its module-level if, try and with blocks, as the
// declarations, guards and API comparison all read them.
//
// A build without cgo has no grammar: Parse fails, loudly, so a Python file is never
// passed unverified.
package syntax
