// Package vet runs the analyzers `go vet` runs by default (cmd/vet of the Go release the
// module requires: printf, copylocks, lostcancel, stdversion, …) over packages that
// lang/golang/load has already type-checked, without loading anything again: the
// analyzers get the loader's syntax and types.Info through an analysis.Pass this
// package builds, as golang.org/x/tools/go/analysis/checker would, and their
// diagnostics come back with the analyzer that reported them.
//
// # Facts
//
// Two analyzers of the suite learn facts about functions and use them in the packages
// that import them: printf (a function forwards its arguments to a print function: calls
// to it are checked too) and ctrlflow (a function never returns, for lostcancel). A Facts
// value carries them from one package to the packages analysed after it, keyed by
// package path and object path (golang.org/x/tools/go/types/objectpath), so a fact found
// on the package type-checked from source serves importers that see it through another
// *types.Package (a test variant, another build configuration). Callers analyse packages
// in dependency order, one Facts per run. Packages read from export data contribute no
// facts: for the standard library the analyzers know the functions that matter (printf
// lists fmt, log and testing; ctrlflow knows os.Exit's and runtime.Goexit's callees),
// exactly as `go vet` behaves with a compiler that does not analyse the standard
// library; the packages of other modules are not analysed (a printf wrapper of a
// dependency module is not known as one).
//
// # Errors
//
// A package marked IllTyped gets only the analyzers that declare RunDespiteErrors, as
// with go/analysis/checker. A panic of an analyzer is returned as an error, never
// swallowed.
package vet
