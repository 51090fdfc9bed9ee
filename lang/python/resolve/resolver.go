package resolve

import (
	"fmt"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/extract"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// Resolver is the Python frontend's resolution stage (lang.Resolver): Resolve runs its
// steps over the change's Python files. It holds only immutable tables and caches safe
// for concurrent use, so one value serves any number of concurrent verifications.
type Resolver struct {
	g *syntax.Grammar
	// steps are the resolver's analyses (see Resolve).
	steps []step
	// servers, when set, keeps pyright running between verifications (NewWarm).
	servers *pyright.Servers
	// deps checks imports against the declared and installed distributions.
	deps Deps
	// cache keeps trees and what is derived from files, by content.
	cache *Cache
	// srcs keeps what is read of installed modules between verifications (NewWarm).
	srcs *srcCache
}

// Deps are the dependency checks, which Resolve runs beside its steps (the frontend's
// DepChecker).
type Deps interface {
	Problems(req *lang.Request) ([]lang.Problem, error)
}

// New returns the resolver of a frontend that runs pyright in batch mode; g and c are the
// frontend's grammar and cache, shared with its other stages.
func New(g *syntax.Grammar, c *Cache, deps Deps) Resolver {
	return Resolver{g: g, steps: defaultSteps(), deps: deps, cache: c}
}

// NewWarm returns the resolver of a long-lived process: pyright language servers that s
// keeps running check the edits, and what is read of installed modules is kept.
func NewWarm(g *syntax.Grammar, c *Cache, deps Deps, s *pyright.Servers) Resolver {
	return Resolver{g: g, steps: defaultSteps(), servers: s, deps: deps, cache: c, srcs: newSrcCache()}
}

// Match reports whether the resolver handles the file at p: Python sources and stubs.
func (Resolver) Match(p string) bool { return syntax.IsPython(p) }

// parseFile extracts the file at p as the frontend's Parse does, on the shared trees.
func (fe Resolver) parseFile(p string, src []byte) (*lang.File, error) {
	root, err := fe.parse(src)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", p, err)
	}
	return extract.File(p, src, root), nil
}
