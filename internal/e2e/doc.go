// Package e2e holds the end-to-end suites of the frontends: each testdata/*.txtar script
// is a small project (a tree, or a base commit and a change to it) verified through
// agentverify.Check exactly as the front doors call it, with the report's violations it
// must produce; adding a case is adding a file. The suites over real projects (Debian's
// alexandria, golang.org/x/exp/apidiff's cases, real commit shapes) sit beside them as Go
// tests. The package holds tests only.
package e2e
