//go:build !cgo

package syntax

import "errors"

// ErrNoCgo says why a build without cgo cannot parse TypeScript: the grammars are C. A
// TypeScript or JavaScript file then fails to verify instead of passing unchecked.
var ErrNoCgo = errors.New("this agentverify was built without cgo (CGO_ENABLED=0) and cannot parse TypeScript or JavaScript; rebuild it with a C compiler and CGO_ENABLED=1")

// Parse fails: there is no grammar without cgo.
func Parse(Dialect, []byte) (*Tree, error) { return nil, ErrNoCgo }
