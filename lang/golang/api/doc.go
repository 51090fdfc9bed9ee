// Package api compares the public API of the Go packages a change touches, with
// golang.org/x/exp/apidiff as the judge, and finds the code outside the change that the
// incompatible changes break. It is the Go frontend's lang.APIComparer.
//
// Both sides of each changed package are type-checked from the change's trees (BaseFS
// and HeadFS) with go/types, file names repository-relative; the packages they import
// come from one load of the head through the shared load.Loader (export data, warm when
// the hallucination dimension loaded the same files), changed packages of the same module
// from the same side, and standard-library packages missing from the head's imports from
// the toolchain's export data. apidiff.Changes then compares each pair; its incompatible
// changes become lang.APIChanges, each placed at the declaration as it is at the head (a
// removed member at its type; a removed declaration at the package clause of the file it
// was in) with the declaration at the base as the related place. A package whose files
// are all gone is apidiff.ModuleChanges' "package P: removed"; a changed module path in
// go.mod is reported at its module line.
//
// A package whose files do not parse on either side is not compared (the hallucination
// dimension reports the syntax error), nor are main packages, nor changes that involve an
// invalid type (a type error at the head, reported by hallucination too).
package api
