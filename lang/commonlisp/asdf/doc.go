// Package asdf reads ASDF system definitions (.asd files) and finds the systems a
// project depends on where Lisp tooling looks for them, without running Lisp.
//
// Parse returns each defsystem of an .asd file with its :depends-on (names normalised
// as ASDF's coerce-name does; (:version …), (:feature …) evaluated against the
// features, (:require …)), :defsystem-depends-on, :class and :components (modules,
// files and their paths, :pathname, :if-feature).
//
// A Locator searches a source registry — DefaultRoots builds ASDF 3's: CL_SOURCE_REGISTRY
// (either syntax), ~/common-lisp/, ~/.local/share/common-lisp/source/,
// /usr/share/common-lisp/source/ (Debian's cl-* packages) and the other XDG data
// directories, Quicklisp's local-projects and dists/*/software/ — for the .asd file of a
// system. Resolve reads the source files of each dependency found with the same reader
// and indexes them for their packages and exports. The systems SBCL and ASDF provide
// (asdf, uiop, the sb-* contribs) are known without sources. A dependency that cannot
// be found, or whose sources cannot be read cleanly, is returned as a Warning naming it:
// an unverifiable dependency is never a pass for whatever it might export.
package asdf
