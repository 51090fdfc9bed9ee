package python

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/api"
	"github.com/agentverify/agentverify/lang/python/extract"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// frontend is the Python frontend. It holds only immutable tables: each Parse uses its
// own tree-sitter parser, so one value serves any number of concurrent parses.
type frontend struct {
	g *syntax.Grammar
	// steps are the resolver's analyses (see Resolve).
	steps []step
	// servers, when set, keeps pyright running between verifications (NewWarm).
	servers *pyright.Servers
	// deps checks imports against the declared and installed distributions.
	deps *DepChecker
	// cache keeps trees and what is derived from files, by content.
	cache *cache
	// srcs keeps what is read of installed modules between verifications (NewWarm).
	srcs *srcCache
}

// New returns the Python frontend; each verification runs pyright in batch mode.
func New() lang.Frontend {
	c := newCache()
	deps := NewDepChecker()
	deps.cache = c
	return frontend{g: syntax.NewGrammar(), steps: defaultSteps(), deps: deps, cache: c}
}

// NewWarm returns the Python frontend for a long-lived process: edits to a working tree
// are checked by pyright language servers that s keeps running, one per project.
func NewWarm(s *pyright.Servers) lang.Frontend {
	c := newCache()
	deps := NewWarmDepChecker()
	deps.cache = c
	return frontend{g: syntax.NewGrammar(), steps: defaultSteps(), servers: s, deps: deps, cache: c, srcs: newSrcCache()}
}

func (frontend) Name() string { return "python" }

// Naming is PEP 8's convention, which style calls "pep8": functions, methods, arguments
// and variables snake_case, classes CapWords, constants UPPER_CASE.
func (frontend) Naming() string { return "pep8" }

// Match handles Python sources and stubs.
func (frontend) Match(p string) bool {
	return strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")
}

// Parse parses src as the Python file at p. Syntax errors go to File.SyntaxErrors, all
// of them, with whatever tree-sitter recovered around them; Parse never panics.
func (fe frontend) Parse(p string, src []byte) (*lang.File, error) {
	root, err := fe.parse(src)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", p, err)
	}
	return extract.File(p, src, root), nil
}

// CompareAPI reports the incompatible changes the change makes to the public API of the
// Python modules it touches (package api), on the trees the cache shares.
func (fe frontend) CompareAPI(req *lang.Request) ([]lang.APIChange, error) {
	return api.Compare(req, fe.parse)
}

// BrokenUses finds the files the change does not touch that use what it removed or
// changed incompatibly (package api). Their trees are read once, so they are parsed
// outside the cache.
func (fe frontend) BrokenUses(req *lang.Request, changes []lang.APIChange) ([]lang.BrokenUse, error) {
	return api.BrokenUses(req, changes, fe.g.Parse)
}
