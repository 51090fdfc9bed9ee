//go:build !cgo

package syntax

import "errors"

// Grammar stands in for tree-sitter's grammar in a build without cgo.
type Grammar struct{}

// NewGrammar returns the stand-in, whose Parse always fails.
func NewGrammar() *Grammar { return &Grammar{} }

// errNoCgo says why a build without cgo cannot parse Python: the grammar is C. A
// Python file then fails to verify, loudly, instead of passing unchecked.
var errNoCgo = errors.New("this agentverify was built without cgo (CGO_ENABLED=0) and cannot parse Python; rebuild it with a C compiler and CGO_ENABLED=1")

// Parse fails: a build without cgo cannot parse Python.
func (*Grammar) Parse([]byte) (*Node, error) { return nil, errNoCgo }

// ParseDecls fails: a build without cgo cannot parse Python.
func (*Grammar) ParseDecls([]byte) (*Node, error) { return nil, errNoCgo }
