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
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lang/python"
)

// Dimensions returns the built-in dimensions in report order, each run starting cold.
func Dimensions() []*check.Dimension { return dimensions(nil) }

// dimensions builds the dimensions around a package loader (nil: a fresh one per run).
func dimensions(l *load.Loader) []*check.Dimension {
	return []*check.Dimension{
		scope.Dimension,
		hallucination.New(l),
		style.Dimension,
		semantic.New(l),
		complexity.Dimension,
	}
}

// NewChecker returns a Checker for long-lived processes (the MCP server, the hooks, the
// agent runner): its dimensions share one package loader, so type information of
// dependencies stays warm between checks.
func NewChecker() *Checker {
	return &Checker{Dimensions: dimensions(load.New(load.Options{}))}
}

// Languages returns the built-in frontends.
func Languages() lang.Registry { return lang.Registry{golang.New(), python.New(), commonlisp.New()} }
