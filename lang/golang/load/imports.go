package load

import (
	"context"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
)

// Imports returns every package that the packages containing req.Files import, directly
// or not, by import path, with the module. It takes them from the module's last load when
// that is still valid for req (the same go.mod and go.sum, the same files in the
// packages' directories, unchanged dependencies of the module), without re-checking the
// packages; otherwise it checks req. Callers that type-check the packages themselves (the
// semantics dimension compares both sides of a change) so skip a second check. The
// packages of the last load import what they imported then: a caller whose code imports
// something new does not find it here and should Check.
func (l *Loader) Imports(ctx context.Context, req Request) (map[string]*types.Package, Module, error) {
	if imps, mod, ok := l.cachedImports(req); ok {
		return imps, mod, nil
	}
	if imps, mod, handled, err := l.streamImports(ctx, req); handled {
		return imps, mod, err
	}
	res, err := l.Check(ctx, req)
	if err != nil {
		return nil, Module{}, err
	}
	imps := map[string]*types.Package{}
	for _, p := range res.Packages {
		for _, im := range p.Imports {
			addImports(imps, im.Types)
		}
	}
	return imps, res.Module, nil
}

// cachedImports answers Imports from one of the module's snapshots, when one is valid
// for req.
func (l *Loader) cachedImports(req Request) (map[string]*types.Package, Module, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.mods[req.cacheKey()] {
		if imps, mod, ok := s.imports(req); ok {
			return imps, mod, true
		}
	}
	return nil, Module{}, false
}

// imports answers Imports from s, when it is valid for req.
func (s *snapshot) imports(req Request) (map[string]*types.Package, Module, bool) {
	if len(req.Files) == 0 || modHash(req.Dir, req.Overlay) != s.modHash {
		return nil, Module{}, false
	}
	targets := map[string]bool{}
	var states []*pkgState
	for _, f := range req.Files {
		dir := filepath.Dir(f)
		if !targets[dir] {
			targets[dir] = true
			states = append(states, s.byDir[dir]...)
		}
	}
	if len(states) == 0 {
		return nil, Module{}, false
	}
	imps := map[string]*types.Package{}
	for _, st := range states {
		if listing(st.dir, req.Overlay) != st.listing || !st.depsUnchanged(targets, req.Overlay) {
			return nil, Module{}, false
		}
		for _, im := range st.imports {
			addImports(imps, im.Types)
		}
	}
	return imps, s.module, true
}

// addImports adds p and everything it imports, directly or not, to imps.
func addImports(imps map[string]*types.Package, p *types.Package) {
	if p == nil || imps[p.Path()] != nil {
		return
	}
	imps[p.Path()] = p
	for _, ip := range p.Imports() {
		addImports(imps, ip)
	}
}

// streamImports answers Imports by streaming the module, declarations only, when the
// packages of req span more than one directory and the stream costs less than Check
// (Cost.StreamCheaper): a change spread over a module, whose packages Check would have
// go list compile. handled is false when it did not.
func (l *Loader) streamImports(ctx context.Context, req Request) (map[string]*types.Package, Module, bool, error) {
	if !spread(req) {
		return nil, Module{}, false, nil
	}
	req.Choose, req.declOnly = Cost.StreamCheaper, true
	byID := map[string]map[string]*Import{} // the packages come as they are done
	var mod Module
	handled, err := l.CheckEach(ctx, req, func(r *Result) error {
		mod = r.Module
		for _, p := range r.Packages {
			byID[p.ID] = p.Imports
		}
		return nil
	})
	imps := map[string]*types.Package{}
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		for _, path := range slices.Sorted(maps.Keys(byID[id])) {
			addImports(imps, byID[id][path].Types)
		}
	}
	return imps, mod, handled, err
}
