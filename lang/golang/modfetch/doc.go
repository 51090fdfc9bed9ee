// Package modfetch brings the modules a Go check needs into the module cache the way the
// go command fetches them, limited to what is trusted (design.md §4.5):
//
//   - What the trusted go.mod and go.sum require (the base commit's; the disk's in check
//     mode) is downloaded with the user's own settings — GOPROXY, GOPRIVATE, GONOSUMDB,
//     GOFLAGS, GOAUTH, .netrc — and checked against that go.sum, as `go mod download`
//     does (Fetcher.Trusted).
//   - Modules only the change requires are fetched through the module proxies alone,
//     never with version-control commands, and checked against the checksum database
//     whatever GONOSUMDB, GOPRIVATE, GOINSECURE or the change's own go.sum say
//     (Fetcher.Added).
//   - Module paths are looked up the same way, to tell a path no proxy knows from a
//     module that exists, and when that module was first published (Fetcher.Lookup).
//
// Everything goes through the go command, in a scratch copy of the module's files, so
// the user's go.mod and go.sum are never written and downloads land in the user's module
// cache, shared with every other go command and agentverify process under the go
// command's own locks.
package modfetch
