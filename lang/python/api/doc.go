// Package api is the Python frontend's API stage (design.md §4.4): Compare lists the
// incompatible changes a change makes to the public API of the modules it touches (a
// public name the head no longer binds, a signature that rejects calls the old one
// accepted, judged by package signature), and BrokenUses finds the files of the head
// tree the change does not touch that use what it removed or changed: imports of what
// is gone, attributes of changed modules, calls the new signature rejects.
package api

import "github.com/agentverify/agentverify/lang/python/syntax"

// Parse returns the syntax tree of a Python source. The frontend passes its cache's, so
// the comparison shares the trees the other stages parse.
type Parse func(src []byte) (*syntax.Node, error)
