// Package gitchange builds change sets from git repositories with go-git: the working tree
// against a base revision (untracked, non-ignored files included), the index against HEAD,
// and plain paths with no base. It never uses go-git's Worktree.Status, which walks ignored
// directories: it walks the working tree itself, pruning ignored directories, and trusts
// the index's stat data (size and mtime) the way git does, hashing only files whose stat
// changed. Base content is read only for the files that changed.
package gitchange
