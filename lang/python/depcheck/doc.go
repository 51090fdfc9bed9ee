// Package depcheck is the Python frontend's dependency stage: Checker judges each
// third-party import of a change's Python files against what the project declares and
// what its environment installs (both read by package pydeps) and reports
// unknown-package, missing-dependency and undeclared-dependency (importverdict.go). The
// project's own packages, namespace packages included, are never dependencies
// (localpackages.go); an undeclared dependency the base already had project-wide is not
// the change's doing (preexistingdeps.go); a changed declaration file is checked for
// what it adds (addedrequirements.go).
package depcheck
