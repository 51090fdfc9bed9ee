package vet

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"runtime/debug"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/agentverify/agentverify/crash"
)

// Package is one type-checked package, as the analyzers see it.
type Package struct {
	Fset  *token.FileSet
	Files []*ast.File
	// OtherFiles are the package's non-Go files (assembly, C), IgnoredFiles the files its
	// build configuration excludes; both absolute, both read through ReadFile.
	OtherFiles, IgnoredFiles []string
	Types                    *types.Package
	Info                     *types.Info
	Sizes                    types.Sizes
	// Module is the enclosing module (path and go version), or nil.
	Module *analysis.Module
	// IllTyped is set when the package has errors that leave its type information
	// incomplete: only analyzers that declare RunDespiteErrors run on it.
	IllTyped bool
	// ReadFile reads a file of the package as the checked tree has it (the change's head,
	// not necessarily the disk).
	ReadFile func(filename string) ([]byte, error)
}

// Diagnostic is what one analyzer reported.
type Diagnostic struct {
	Analyzer *analysis.Analyzer
	analysis.Diagnostic
}

// Run applies analyzers (and those they require) to pkg, importing facts from and
// exporting facts to facts, and returns their diagnostics in the order of the analyzers
// (closure), each analyzer's in the order it reported them. As go vet's driver does, each
// analyzer runs once everything it requires has, side by side with the others. An
// analyzer's error or panic is returned: nothing fails silently.
func Run(pkg *Package, analyzers []*analysis.Analyzer, facts *Facts) ([]Diagnostic, error) {
	// An analyzer waits for those it requires: a cycle among them would wait forever.
	if err := analysis.Validate(analyzers); err != nil {
		return nil, fmt.Errorf("vet analyzers: %w", err)
	}
	order := closure(analyzers)
	r := &runner{pkg: pkg, facts: facts.local(pkg.Types), results: map[*analysis.Analyzer]any{}, done: map[*analysis.Analyzer]bool{}}
	finished := make(map[*analysis.Analyzer]chan struct{}, len(order))
	for _, a := range order {
		finished[a] = make(chan struct{})
	}
	diags := make([][]Diagnostic, len(order))
	errs := make([]error, len(order))
	var g crash.Group
	for i, a := range order {
		g.Go(func() {
			defer close(finished[a])
			for _, req := range a.Requires {
				<-finished[req]
			}
			diags[i], errs[i] = r.run(a, slices.Contains(analyzers, a))
		})
	}
	if err := errors.Join(append(errs, g.Wait())...); err != nil {
		return nil, err
	}
	return slices.Concat(diags...), nil
}

// runner applies analyzers to one package.
type runner struct {
	pkg   *Package
	facts *localFacts // one set for all the analyzers of the package
	// results holds each analyzer's result; done marks those that ran (a skipped
	// analyzer is not done, and neither is anything requiring it). mu guards both.
	mu      sync.Mutex
	results map[*analysis.Analyzer]any
	done    map[*analysis.Analyzer]bool
}

// run applies a to the package once its requirements have run and returns its
// diagnostics; report says whether they are wanted (a requirement's are not).
func (r *runner) run(a *analysis.Analyzer, report bool) (diags []Diagnostic, err error) {
	if r.pkg.IllTyped && !a.RunDespiteErrors {
		return nil, nil
	}
	inputs := map[*analysis.Analyzer]any{}
	r.mu.Lock()
	for _, req := range a.Requires {
		if !r.done[req] {
			r.mu.Unlock()
			return nil, nil // a requirement was skipped
		}
		inputs[req] = r.results[req]
	}
	r.mu.Unlock()
	local := r.facts
	factTypes := map[reflect.Type]bool{}
	for _, f := range a.FactTypes {
		factTypes[reflect.TypeOf(f)] = true
	}
	pass := &analysis.Pass{
		Analyzer:          a,
		Fset:              r.pkg.Fset,
		Files:             r.pkg.Files,
		OtherFiles:        r.pkg.OtherFiles,
		IgnoredFiles:      r.pkg.IgnoredFiles,
		Pkg:               r.pkg.Types,
		TypesInfo:         r.pkg.Info,
		TypesSizes:        r.pkg.Sizes,
		Module:            r.pkg.Module,
		ResultOf:          inputs,
		ReadFile:          r.readFile,
		ImportObjectFact:  local.importObject,
		ExportObjectFact:  local.exportObject,
		ImportPackageFact: local.importPackage,
		ExportPackageFact: local.exportPackage,
		AllObjectFacts:    func() []analysis.ObjectFact { return local.allObjects(factTypes) },
		AllPackageFacts:   func() []analysis.PackageFact { return local.allPackages(factTypes) },
	}
	if pass.Module == nil {
		pass.Module = &analysis.Module{}
	}
	pass.Report = func(d analysis.Diagnostic) {
		if report {
			diags = append(diags, Diagnostic{Analyzer: a, Diagnostic: d})
		}
	}
	defer func() {
		if p := recover(); p != nil {
			diags, err = nil, fmt.Errorf("vet analyzer %s panicked on package %s: %v\n%s", a.Name, r.pkg.Types.Path(), p, debug.Stack())
		}
	}()
	res, err := a.Run(pass)
	if err != nil {
		return nil, fmt.Errorf("vet analyzer %s on package %s: %w", a.Name, r.pkg.Types.Path(), err)
	}
	if got := reflect.TypeOf(res); got != a.ResultType {
		return nil, fmt.Errorf("vet analyzer %s returned a %v, not its declared %v", a.Name, got, a.ResultType)
	}
	r.mu.Lock()
	r.results[a], r.done[a] = res, true
	r.mu.Unlock()
	return diags, nil
}

// readFile reads one of the package's own files, and no other (the contract of
// analysis.Pass.ReadFile).
func (r *runner) readFile(name string) ([]byte, error) {
	ok := slices.Contains(r.pkg.OtherFiles, name) || slices.Contains(r.pkg.IgnoredFiles, name)
	for _, f := range r.pkg.Files {
		ok = ok || r.pkg.Fset.File(f.FileStart).Name() == name
	}
	if !ok {
		return nil, fmt.Errorf("%s is not a file of package %s", name, r.pkg.Types.Path())
	}
	return r.pkg.ReadFile(name)
}

// closure returns as and everything they require, each after its requirements, in a
// deterministic order.
func closure(as []*analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, req := range a.Requires {
			visit(req)
		}
		out = append(out, a)
	}
	for _, a := range as {
		visit(a)
	}
	return out
}
