package vet

import (
	"go/types"
	"reflect"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// Facts carries the facts analyzers learn about packages to the packages analysed after
// them in one run. The zero value is not usable; a nil *Facts keeps every fact inside its
// package. It is safe for concurrent use.
type Facts struct {
	mu   sync.Mutex
	objs map[objKey]analysis.Fact
	pkgs map[pkgKey]analysis.Fact
}

// NewFacts returns an empty Facts.
func NewFacts() *Facts {
	return &Facts{objs: map[objKey]analysis.Fact{}, pkgs: map[pkgKey]analysis.Fact{}}
}

// objKey names an object across type-checks: its package path and object path.
type objKey struct {
	pkg  string
	path objectpath.Path
	typ  reflect.Type
}

type pkgKey struct {
	pkg string
	typ reflect.Type
}

// localFacts are the facts of one package's analysis: those of its own objects by
// identity (local functions have no object path), the rest through the shared Facts.
type localFacts struct {
	// mu guards objs, own and enc: the package's analyzers run side by side.
	mu     sync.Mutex
	shared *Facts
	pkg    *types.Package
	enc    objectpath.Encoder
	objs   map[localKey]analysis.Fact
	own    map[reflect.Type]analysis.Fact // package facts of pkg
}

type localKey struct {
	obj types.Object
	typ reflect.Type
}

func (f *Facts) local(pkg *types.Package) *localFacts {
	return &localFacts{shared: f, pkg: pkg, objs: map[localKey]analysis.Fact{}, own: map[reflect.Type]analysis.Fact{}}
}

func (l *localFacts) importObject(obj types.Object, ptr analysis.Fact) bool {
	typ := reflect.TypeOf(ptr)
	l.mu.Lock()
	v, ok := l.objs[localKey{obj, typ}]
	if ok || l.shared == nil || obj.Pkg() == nil || obj.Pkg() == l.pkg {
		l.mu.Unlock()
		return ok && set(ptr, v)
	}
	path, err := l.enc.For(obj)
	l.mu.Unlock()
	if err != nil {
		return false // not reachable from its package's API: no other package has a fact on it
	}
	l.shared.mu.Lock()
	v, ok = l.shared.objs[objKey{obj.Pkg().Path(), path, typ}]
	l.shared.mu.Unlock()
	return ok && set(ptr, v)
}

func (l *localFacts) exportObject(obj types.Object, fact analysis.Fact) {
	if obj.Pkg() != l.pkg {
		panic("vet: a fact exported about an object of another package") // as go/analysis/checker
	}
	typ := reflect.TypeOf(fact)
	l.mu.Lock()
	l.objs[localKey{obj, typ}] = fact
	var path objectpath.Path
	var err error
	if l.shared != nil {
		path, err = l.enc.For(obj)
	}
	l.mu.Unlock()
	if l.shared != nil && err == nil {
		l.shared.mu.Lock()
		l.shared.objs[objKey{l.pkg.Path(), path, typ}] = fact
		l.shared.mu.Unlock()
	}
}

func (l *localFacts) importPackage(pkg *types.Package, ptr analysis.Fact) bool {
	typ := reflect.TypeOf(ptr)
	if pkg == l.pkg {
		l.mu.Lock()
		v, ok := l.own[typ]
		l.mu.Unlock()
		return ok && set(ptr, v)
	}
	if l.shared == nil {
		return false
	}
	l.shared.mu.Lock()
	v, ok := l.shared.pkgs[pkgKey{pkg.Path(), typ}]
	l.shared.mu.Unlock()
	return ok && set(ptr, v)
}

func (l *localFacts) exportPackage(fact analysis.Fact) {
	typ := reflect.TypeOf(fact)
	l.mu.Lock()
	l.own[typ] = fact
	l.mu.Unlock()
	if l.shared != nil {
		l.shared.mu.Lock()
		l.shared.pkgs[pkgKey{l.pkg.Path(), typ}] = fact
		l.shared.mu.Unlock()
	}
}

// allObjects returns the object facts of the types in want (an analyzer's FactTypes, as
// analysis.Pass.AllObjectFacts promises: no other analyzer's, which may still be in the
// making) of the package and of the packages it imports, directly or not, that resolve
// to objects they declare.
func (l *localFacts) allObjects(want map[reflect.Type]bool) []analysis.ObjectFact {
	var out []analysis.ObjectFact
	l.mu.Lock()
	for k, v := range l.objs {
		if want[k.typ] {
			out = append(out, analysis.ObjectFact{Object: k.obj, Fact: v})
		}
	}
	l.mu.Unlock()
	if l.shared != nil {
		deps := imported(l.pkg)
		l.shared.mu.Lock()
		for k, v := range l.shared.objs {
			if p := deps[k.pkg]; p != nil && want[k.typ] {
				if obj, err := objectpath.Object(p, k.path); err == nil {
					out = append(out, analysis.ObjectFact{Object: obj, Fact: v})
				}
			}
		}
		l.shared.mu.Unlock()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Object.Pos() < out[j].Object.Pos() })
	return out
}

// allPackages returns the package facts of the types in want, of the package and of
// those it imports.
func (l *localFacts) allPackages(want map[reflect.Type]bool) []analysis.PackageFact {
	var out []analysis.PackageFact
	l.mu.Lock()
	for typ, v := range l.own {
		if want[typ] {
			out = append(out, analysis.PackageFact{Package: l.pkg, Fact: v})
		}
	}
	l.mu.Unlock()
	if l.shared != nil {
		deps := imported(l.pkg)
		l.shared.mu.Lock()
		for k, v := range l.shared.pkgs {
			if p := deps[k.pkg]; p != nil && want[k.typ] {
				out = append(out, analysis.PackageFact{Package: p, Fact: v})
			}
		}
		l.shared.mu.Unlock()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Package.Path() < out[j].Package.Path() })
	return out
}

// imported returns the packages pkg imports, directly or not, by path.
func imported(pkg *types.Package) map[string]*types.Package {
	out := map[string]*types.Package{}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		for _, ip := range p.Imports() {
			if out[ip.Path()] == nil {
				out[ip.Path()] = ip
				walk(ip)
			}
		}
	}
	walk(pkg)
	return out
}

// set copies the fact v into ptr, of the same type.
func set(ptr, v analysis.Fact) bool {
	reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(v).Elem())
	return true
}
