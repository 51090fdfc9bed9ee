package agentverify

import (
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
// frontend one pyright language server per project, which exits with the process).
func NewChecker() *Checker {
	return &Checker{Languages: languages(load.New(load.Options{}), pyright.NewServers())}
}

// Languages returns the built-in frontends, each verification starting cold.
func Languages() lang.Registry { return languages(nil, nil) }

// languages builds the frontends around a Go package loader and pyright language servers
// (nil: fresh ones per verification).
func languages(l *load.Loader, s *pyright.Servers) lang.Registry {
	goFrontend, pyFrontend, lispFrontend := golang.New(), python.New(), commonlisp.New()
	if l != nil {
		goFrontend = golang.NewWarm(l)
		lispFrontend.Deps = resolve.NewDeps(nil, nil) // Lisp dependencies and files read once
	}
	if s != nil {
		pyFrontend = python.NewWarm(s)
	}
	return lang.Registry{goFrontend, pyFrontend, lispFrontend}
}
