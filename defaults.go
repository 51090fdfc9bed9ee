package agentverify

import (
	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/dimensions/complexity"
	"github.com/agentverify/agentverify/dimensions/hallucination"
	"github.com/agentverify/agentverify/dimensions/scope"
	"github.com/agentverify/agentverify/dimensions/semantic"
	"github.com/agentverify/agentverify/dimensions/style"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp"
	"github.com/agentverify/agentverify/lang/commonlisp/resolve"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lang/python"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/lang/typescript"
	"github.com/agentverify/agentverify/lang/typescript/tsc"
	"github.com/agentverify/agentverify/resultcache"
)

// Dimensions returns the built-in dimensions in report order.
func Dimensions() []*check.Dimension {
	return []*check.Dimension{
		scope.Dimension,
		hallucination.Dimension,
		style.Dimension,
		semantic.Dimension,
		complexity.Dimension,
	}
}

// NewChecker returns a Checker for long-lived processes (the MCP server, the hooks, the
// agent runner): its frontends keep their state warm between checks (the Go frontend one
// package loader, so type information of dependencies is loaded once; the Python
// frontend one pyright language server per project and the TypeScript frontend one
// TypeScript 7 language server per repository, which exit with the process).
func NewChecker() *Checker {
	return &Checker{Languages: languages(load.New(load.Options{}), pyright.NewServers()), Trees: &gitchange.Trees{}}
}

// NewCheckerWithStore returns a Checker as NewChecker does whose Go frontend also keeps
// the package loads it makes in c, and starts from those that earlier processes kept
// there when they are still valid: for a process that checks one edit and exits (hook
// claude), whose cold start is mostly go list (load.Store, design.md §9).
func NewCheckerWithStore(c *resultcache.Cache) *Checker {
	return &Checker{Languages: languages(load.New(load.Options{Store: load.NewStore(c)}), pyright.NewServers())}
}

// Languages returns the built-in frontends, each verification starting cold.
func Languages() lang.Registry { return languages(nil, nil) }

// languages builds the frontends around a Go package loader and pyright language servers
// (nil: fresh ones per verification).
func languages(l *load.Loader, s *pyright.Servers) lang.Registry {
	goFrontend, pyFrontend, lispFrontend, tsFrontend := golang.New(), python.New(), commonlisp.New(), typescript.New()
	if l != nil {
		goFrontend = golang.NewWarm(l)
		lispFrontend.Deps = resolve.NewDeps(nil, nil) // Lisp dependencies and files read once
	}
	if s != nil {
		pyFrontend = python.NewWarm(s)
		tsFrontend = typescript.NewWarm(tsc.NewServers()) // TypeScript 7 language servers, one per repository
	}
	return lang.Registry{goFrontend, pyFrontend, lispFrontend, tsFrontend}
}
