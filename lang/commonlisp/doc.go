// Package commonlisp is the home of the Common Lisp frontend. Its subpackages hold the
// parts a frontend is built from, none of which needs a Lisp installed:
//
//   - reader: a Common Lisp reader that keeps the position of every form, symbol and
//     comment, evaluates #+/#- against a feature list and recovers after syntax errors;
//   - lambdalist: lambda lists parsed into required, &optional, &rest, &key and &aux
//     parts, with the arity they accept;
//   - cltable: the external symbols of the COMMON-LISP package with their kinds and
//     lambda lists, generated from SBCL;
//   - index: the definitions of read files: packages, in-package, functions, macros,
//     generic functions, structures, classes, conditions, types, variables and local
//     flet/labels/macrolet scopes;
//   - asdf: .asd system definitions and a locator for systems following the ASDF
//     source-registry conventions, with the packages and exports of found systems;
//   - resolve: the resolver (lang.Resolver): undefined functions, unknown packages and
//     symbols, argument counts and keywords, undeclared and missing dependencies.
//
// The package itself is the frontend of the lang contract (Frontend): declarations,
// identifiers as written, complexity on forms (metrics.go documents the counting),
// comments and syntax errors for the language-agnostic dimensions; tests of FiveAM, rove,
// RT and parachute as test declarations and the places that skip them (tests.go). Beyond
// one file, it reads the repository's Lisp files into a project index per side of a
// change (project.go, kept in the verification's Memo) for what one file cannot tell:
// exports declared in another file's defpackage (lang.Linker), the majority naming
// convention (lang.NamingDetector), the API comparison of :export lists and lambda lists
// (api.go) and the callers a change breaks (callers.go), both lang.APIComparer.
package commonlisp
