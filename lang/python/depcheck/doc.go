// Package depcheck checks the imports of a change's Python files against what the
// project declares and what its environment installed (design.md §4.4, hallucination):
// unknown-package, missing-dependency, undeclared-dependency, and new-dependency for a
// requirement the change adds. Declarations and environments are read by package pydeps;
// the import statements come from package syntax. The standard library, relative
// imports and the project's own modules (regular and namespace packages) are never
// dependencies; an undeclared dependency the base already had project-wide is not
// reported again.
package depcheck
