// Package cltable holds the 978 external symbols of the COMMON-LISP package with their
// kinds (function, macro, special operator, variable, constant, type, class,
// declaration, lambda-list keyword) and the lambda list of every function and macro.
//
// The table is generated once from a real implementation: `go generate` runs gen.lisp
// under Debian's SBCL (`sbcl --script`), which walks DO-EXTERNAL-SYMBOLS of :CL and asks
// SBCL for each symbol's bindings, and for lambda lists sb-introspect's
// FUNCTION-LAMBDA-LIST. The generated table_gen.go is committed, so nothing needs SBCL
// at run time; a test regenerates it when sbcl is on PATH and fails when it differs.
package cltable
