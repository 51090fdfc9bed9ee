// Package python is the Python language frontend: it parses one Python file with
// tree-sitter's Python grammar (package syntax: tree-sitter-python through the
// official Go bindings, cgo) and extracts what the language-agnostic dimensions need
// (lang.File). It accepts Python 3.8 to 3.13 syntax (match, except*, PEP 695 generics
// and type aliases, the walrus operator, f-strings) and recovers from syntax errors: every
// ERROR and MISSING node tree-sitter produces is a lang.SyntaxError at its position. The
// grammar also accepts Python 2 and some orders CPython's parser rejects; those are
// syntax errors too: print and exec statements, '<>', 10L, 0777, backquotes, the ur
// prefix and other invalid string prefixes, "raise E, msg", "except E, e", tuple
// parameters, a parameter without a default after one with a default, a positional
// argument after a keyword argument and *iterable after **mapping. What CPython checks only when it
// compiles (return or yield outside a function, nonlocal at module level, a duplicate
// parameter) is not checked. Only .py and .pyi files are handled. The tree is copied
// out of C once per parse; every analysis below runs on the Go copy.
//
// # Declarations
//
// Module-level functions, classes and assignments are declarations, and so are those in
// the blocks of module-level if, try and with statements (TYPE_CHECKING, version checks,
// optional imports). In a class body, functions are methods named "Class.method", nested
// classes "Outer.Inner", and assigned or annotated names fields "Class.name". Functions
// nested in functions are not declarations; they count toward their function's metrics.
// Only the first binding of a name in a scope declares it. A module-level name is a
// Const when it is UPPER_CASE, else a Var; "type X = ..." declares a Type. @overload
// stubs are left out: the implementation declares the function.
//
// Exported: in a module with a literal __all__ (lists or tuples of strings, assigned or
// +=), the module-level names in it; otherwise names without a leading underscore. A
// class member is exported when its class is and its name has no leading underscore or
// is a special name (__init__). Nothing in a test module (test_*.py, *_test.py) or in
// conftest.py is exported: they are nobody's API.
//
// Documented: a function or class whose body starts with a string (its docstring); a
// special method (it implements a protocol the language documents) and a property's
// setter or deleter (its getter carries the docstring); a module-level name or field
// with a comment on the line above or trailing its line, or followed by a string
// statement (an attribute docstring, PEP 257).
//
// Test: as pytest collects by default — functions named test* in test modules (not in
// conftest.py) and methods named test* of Test* classes in test modules — and methods
// named test* of classes whose base is a TestCase (unittest.TestCase,
// IsolatedAsyncioTestCase, django.test.TestCase) in any file.
//
// Signature of a function: "def(a, b=..., /, c, *args, d, e=..., **kwargs)" with "async"
// and the @staticmethod, @classmethod and @property decorators before it; annotations
// and default values are left out. A class: "class(Base, metaclass=M)". A module-level
// name: its annotation. A type alias: "= value".
//
// # Metrics
//
// Metrics are computed for every function and method declaration; nested functions,
// classes and lambdas count toward the function that contains them.
//
//   - Lines: the lines after the header's ':' up to the end of the body that hold a
//     token other than a comment, the docstring's lines excluded (it is the function's
//     documentation, as a Go doc comment is outside the body). A line inside a
//     multi-line string counts. A body on the header's line has 0 lines.
//   - Nesting: the largest number of nesting structures — if, for, while, try, with,
//     match, nested def and lambda — on a path from the body to a node, counting each
//     once. The clauses of an if (elif, else), of a try (except, else, finally) and of a
//     match (case) are at their statement's level, so an elif chain is one level. Class
//     bodies and comprehensions add no level.
//   - Cyclomatic: mccabe 0.7.0's number, the one flake8's and ruff's C901 report: 1, plus
//     1 for each if, elif, for, while (async too) and nested def, plus 1 + the number of
//     except clauses for each try, over the statements mccabe walks: it never walks a
//     finally block, expressions (so and, or, comprehensions, conditional expressions
//     and lambdas add nothing), nor the bodies of match and try/except* statements,
//     which it treats as simple statements. The tests compare it with mccabe on every
//     function of the standard library's top-level modules.
//   - Cognitive: an approximation of SonarSource's cognitive complexity: +1 plus the
//     nesting level for if, for, while, match, except and conditional expressions; +1
//     for elif and else; +1 for each boolean operator that does not continue a run of
//     the same operator in its parent; +1 for a direct recursive call by name; bodies of
//     those structures, nested functions and lambdas raise the nesting level.
//
// # Identifiers
//
// Idents are the names the file binds, each at its first binding in its scope (module,
// class body, function): functions (IdentFunc), methods (IdentMethod), classes
// (IdentType), parameters (IdentParam), and names bound by assignment, for targets,
// with/except/case "as" targets, comprehensions and the walrus operator. A bound name is
// an IdentConst when it is UPPER_CASE, an IdentType when it is CapWords (type aliases,
// TypeVars, class factories' results), an IdentField in a class body, else an IdentVar:
// so style's "pep8" convention checks PEP 8. Names declared global or nonlocal
// are bound elsewhere; imports are the imported module's names. Left out: "_", special
// names (__init__, __all__), names an API dictates — unittest's hooks (setUp, ...),
// visit_Name/leave_Name/depart_Name visitor methods, http.server's do_GET — and methods
// decorated with @override. Naming reports "pep8".
//
// # Resolution
//
// The frontend is a lang.Resolver: Resolve runs its steps over the change's Python
// files — the syntax errors above; pyright (lang/python/pyright), in batch mode over the
// head tree (mirrored to a temporary directory when the disk does not hold it) or through
// a warm language server (NewWarm); APIs newer than requires-python (typeshed's
// stdlib/VERSIONS and a table of CPython facts); keywords json.dump(s)/load(s) forward to
// their encoder and decoder — and drops the unknown imports the code guards itself (try
// with an ImportError handler, version and platform branches). Only pyright's errors that
// mean a reference to something that does not exist are reported; suggestions come from
// the modules' source (typeshed stubs, the head tree, the interpreter's sys.path), which
// is read, never imported. Without pyright, resolving Python code is an error saying how
// to install it. See design.md §4 and §9.
//
// # Comments
//
// Comments are the grammar's comment tokens, so a noqa marker inside a string is none;
// Text includes the '#'.
//
// # Layout
//
// By stage (design.md §4.3, §4.4); imports run downward only:
//
//   - Parsing: package syntax (the tree-sitter tree with positions, import statements,
//     module statements, pytest's file roles).
//   - Signatures: package signature writes the normalised signature of a definition
//     (Of, Class), reads it back (Parse), compares two (Incompatibilities) and binds a
//     call to one (Bind).
//   - Extraction: package extract (File: declarations, identifiers, comments, syntax
//     errors, code lines, metrics, skips).
//   - Dependencies: package pydeps reads declarations and environments; DepChecker
//     (depchecker.go, importverdict.go, localpackages.go, preexistingdeps.go,
//     addedrequirements.go) judges imports against them. It stays in this package: it is
//     part of the package's API (NewDepChecker).
//   - Resolution: package resolve (resolve.Resolver) runs the steps over a job: pyright
//     (package pyright, driven by pyrightstep.go) and each check beyond it in a file
//     named for what it models; its cache (resolve.Cache) keeps trees and what is derived
//     from them by content, for every stage.
//   - API: package api (Compare, BrokenUses).
//   - This package is the lang contract over them (frontend.go): Parse, Resolve,
//     CompareAPI, BrokenUses, Kinds.
package python
