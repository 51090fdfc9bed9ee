package python

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/api"
	"github.com/agentverify/agentverify/lang/python/extract"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/lang/python/resolve"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// frontend is the Python frontend: the lang contract over the stages below it
// (extract, resolve, api, the dependency checks). It holds only immutable tables and
// caches safe for concurrent use: each Parse uses its own tree-sitter parser, so one
// value serves any number of concurrent parses.
type frontend struct {
	g *syntax.Grammar
	// cache keeps trees and what is derived from files, by content; every stage shares it.
	cache *resolve.Cache
	// resolver runs pyright and the checks beyond it (package resolve).
	resolver resolve.Resolver
}

// New returns the Python frontend; each verification runs pyright in batch mode.
func New() lang.Frontend {
	g, c := syntax.NewGrammar(), resolve.NewCache()
	deps := NewDepChecker()
	deps.parse = func(src []byte) (*syntax.Node, error) { return c.Parse(g, src) }
	return frontend{g: g, cache: c, resolver: resolve.New(g, c, deps)}
}

// NewWarm returns the Python frontend for a long-lived process: edits to a working tree
// are checked by pyright language servers that s keeps running, one per project.
func NewWarm(s *pyright.Servers) lang.Frontend {
	g, c := syntax.NewGrammar(), resolve.NewCache()
	deps := NewWarmDepChecker()
	deps.parse = func(src []byte) (*syntax.Node, error) { return c.Parse(g, src) }
	return frontend{g: g, cache: c, resolver: resolve.NewWarm(g, c, deps, s)}
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
	root, err := fe.tree(src)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", p, err)
	}
	return extract.File(p, src, root), nil
}

// CompareAPI reports the incompatible changes the change makes to the public API of the
// Python modules it touches (package api), on the trees the cache shares.
func (fe frontend) CompareAPI(req *lang.Request) ([]lang.APIChange, error) {
	return api.Compare(req, fe.tree)
}

// BrokenUses finds the files the change does not touch that use what it removed or
// changed incompatibly (package api). Their trees are read once, so they are parsed
// outside the cache.
func (fe frontend) BrokenUses(req *lang.Request, changes []lang.APIChange) ([]lang.BrokenUse, error) {
	return api.BrokenUses(req, changes, fe.g.Parse)
}

// Resolve reports every reference of the change's Python files that does not resolve
// (lang.Resolver; package resolve).
func (fe frontend) Resolve(req *lang.Request) ([]lang.Problem, error) {
	return fe.resolver.Resolve(req)
}

// Kinds lists the kinds the resolver reports outside the hallucination dimension
// (lang.KindLister).
func (fe frontend) Kinds() []lang.Kind { return fe.resolver.Kinds() }

// tree returns src's syntax tree, from the cache the stages share.
func (fe frontend) tree(src []byte) (*syntax.Node, error) { return fe.cache.Parse(fe.g, src) }
