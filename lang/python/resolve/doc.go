// Package resolve is the Python frontend's resolution stage (lang.Resolver, design.md
// §4.3): Resolver.Resolve runs its steps in order over one job (resolve.go) — syntax
// errors, pyright, APIs newer than requires-python, keywords forwarded through
// **kwargs, modules pyright cannot see into, deprecations — while the dependency checks
// (the frontend's DepChecker) run beside them, and then drops the unknown imports the code guards
// itself. Each check is a file named for what it models:
//
//   - pyright: pyrightstep.go runs it (package pyright) and maps its diagnostics;
//     pyrightinclude.go, the files the project's configuration has it judge;
//     typemismatch.go, its type disagreements; pyrightidioms.go, what idiomatic code
//     draws from it (design.md §4.3.1).
//   - Guards: fileindex.go indexes a file's definitions, imports and the code under
//     ImportError handlers, TYPE_CHECKING and version or platform branches;
//     versionguards.go, skip marks and version constants.
//   - Modules pyright cannot see into: blindmodules.go (the step), namespace.go and
//     nscollect.go (what a module binds), modulegetattr.go, getattrtables.go and
//     getattrsubmodules.go (a module __getattr__ and the tables it consults).
//   - Attributes set at run time: setattr.go; projectclasses.go (the project's classes:
//     mixins, class decorators); decoratorinit.go (the __init__ attrs generates).
//   - APIs newer than requires-python: toonew.go.
//   - **kwargs forwarding: kwargsforward.go, kwargstable.go.
//   - Deprecations: deprecations.go over staleapis.go (the standard library's table).
//   - Did-you-mean: moduledecls.go and members.go (what a module declares), closest.go
//     (ranking), didyoumean.go, keywordsuggest.go, siblingcalls.go (by signature).
//
// cache.go keeps, by content, the trees and what is derived from them that the
// frontend's stages share.
package resolve
