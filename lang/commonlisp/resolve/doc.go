// Package resolve is the resolver of the Common Lisp frontend (lang.Resolver): it checks
// that what the changed Lisp files refer to exists, without running Lisp.
//
// # The world
//
// A changed file belongs to the system of the nearest directory at or above it that
// holds an .asd file; its world is every Lisp file below that directory (read from the
// head of the change), the packages and definitions the index package finds in them,
// the systems the .asd files declare in :depends-on and :defsystem-depends-on — read
// from the change when the repository defines them (a test system's main system, a
// sibling in a monorepo), else located in the ASDF source registry (asdf.DefaultRoots)
// and read the same way — and what SBCL
// and ASDF provide: COMMON-LISP from cltable, and the external symbols of UIOP, ASDF,
// SB-EXT, SB-ALIEN, SB-DEBUG, SB-GRAY, SB-PROFILE, SB-SYS, SB-THREAD, SB-MOP,
// SB-SEQUENCE, SB-UNIX and SB-INT with the lambda lists of their functions, generated
// by gen.lisp from SBCL (`go generate`). The other SB-*, UIOP/* and ASDF/* packages, and
// Quicklisp's QL, are known to exist; their symbols are not checked. A file with no .asd above it is a
// script: its world is the Lisp files of its directory. Files read in no package are in
// COMMON-LISP-USER, which uses what SBCL's does; .asd files are in ASDF-USER. A Deps
// loader keeps the dependencies read, per verification (in the request's Memo) or
// across verifications (Resolver.Deps).
//
// # What is reported
//
//   - syntax-error: every error the reader recovers from;
//   - undefined: a symbol in function position, or in #'name, that names no function or
//     macro: not a COMMON-LISP operator, not a local function (flet, labels, macrolet),
//     not defined by the project or a dependency in the package the symbol resolves to
//     (through :use, :import-from, :shadow and local nicknames). The suggestion names
//     the real option for names from other languages (string-split → uiop:split-string,
//     string-join → format's ~{~a~^,~}, …), the package that does define the name, or
//     the nearest COMMON-LISP, project and used-package names by edit distance;
//   - unknown-package: pkg:sym or a defpackage :use/:import-from/:local-nicknames of a
//     package nobody has, with the nearest package names;
//   - unknown-symbol: pkg:sym where sym is not external in pkg, with "use pkg::sym or
//     export it" when pkg defines it, else the nearest external symbols. Qualified
//     symbols are checked wherever they are read, in data too, as a Lisp reader fails on
//     them anywhere;
//   - wrong-arity: a call whose argument count the callee's lambda list does not accept
//     (an odd number of keyword arguments included), for COMMON-LISP's functions, the
//     listed SBCL and UIOP functions, and the project's and dependencies' functions when
//     all their definitions agree on one lambda list (macros are not checked);
//   - unknown-keyword: a literal keyword argument the callee's &key does not name, when
//     it has no &allow-other-keys and the call passes no :allow-other-keys;
//   - undeclared-dependency: a package provided by a system in the source registry (one
//     named like the package, with or without "cl-") that the .asd does not declare;
//   - deprecated: a use of an external symbol of SBCL or ASDF that they declare deprecated
//     (SBCL's deprecation declarations, ASDF's uiop:with-deprecation; generated into
//     builtin_gen.go by gen.lisp), with the replacements they name, and the rename as
//     fix when the one replacement is in the same package with the same lambda list;
//   - missing-dependency: a declared system that is not in the source registry, at its
//     place in the .asd, and once per file at the first use of a package it
//     presumably provides (named like it): the uses are then not reported one by one,
//     and never passed silently.
//
// # No false alarms
//
// Only evaluated code is checked. The special operators and the COMMON-LISP macros
// whose evaluated parts are known (let, flet, labels, macrolet, lambda, defun,
// defmethod, do, dolist, loop, cond, case, handler-case, restart-case, setf and the
// modify macros, with-open-file, …: special.go lists them) are walked by their
// evaluated positions, as are a few dependency macros (alexandria's when-let, if-let,
// with-gensyms; FiveAM's test, is, signals, finishes); quoted data, backquote templates (except their unquoted parts),
// declarations, lambda-list variables and specialisers, loop keywords and variable
// lists, and #+/#- branches not taken (the reader drops them) are not code. The
// arguments of every other macro — a COMMON-LISP macro without a handler, a project's
// or a dependency's — are not looked into: a macro may give them any meaning. A setf
// place's operator may be a setf function or expander. The arguments of an undefined
// operator are not looked into either (it may be a macro nobody defined).
//
// Names a macro may define are not reported: the first two arguments of a top-level
// form of a non-COMMON-LISP operator ((define-command greet …), a C name "strlen" as
// STRLEN), names made of those of def… and project macros and other words
// (WITH-RUN-STATE from (def-special-environment run-state …)), the :reader, :writer
// and :accessor options in such forms, the accessors of :include'd structure slots.
// Nor are names from a package whose exports are not known (a missing dependency's, an
// unlisted SB-* one, one made inside a macro), nor names of a package with code that
// did not read when no defining form for them is in the unread text, nor keyword
// arguments of generic functions (methods may add keys). Top-level use-package forms
// add to the package's use list. A file the .asd names but loads only on other Lisps
// (#+abcl (:file "impl-abcl"), :if-feature) is not checked. The reader's errors on
// valid code are not reported: dispatch macro characters the project defines
// (set-dispatch-macro-character, named-readtables), and #+#.(…) feature expressions,
// after which only the forms before are checked.
package resolve
