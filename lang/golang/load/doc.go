// Package load type-checks the Go packages that contain given files, as they are at the
// head of a change: proposed in-memory edits and staged content are given as an overlay
// (packages.Config.Overlay), so what is checked is never the disk when the two differ.
//
// A Loader is meant to live as long as its process. The first check of a module runs
// `go list` through golang.org/x/tools/go/packages: the checked packages are type-checked
// from source, with every type error collected, and their dependencies come from export
// data (compiled once into the Go build cache). The Loader keeps the dependencies'
// *types.Package values; a later check of an edited package whose file list, imports,
// go.mod, go.sum and in-module dependencies are unchanged is re-type-checked with go/types
// alone against those cached dependencies (the warm path), without running `go list`
// again. Any of those changes invalidates the module's cache and the next check is cold.
//
// `go list` never touches the network: GOPROXY=off, GOTOOLCHAIN=local, and -mod=readonly
// (or -mod=vendor when the module vendors its dependencies).
package load
