package python

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/pydeps"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// verdict is what is wrong with one import.
type verdict int

const (
	fine                verdict = iota
	undeclaredInstalled         // installed, not declared
	undeclaredKnown             // a well-known real package, neither declared nor installed
	missing                     // declared, not installed
	unknown                     // neither: maybe a made-up name
)

// importFacts is what the project and the environment say about one import.
type importFacts struct {
	r         syntax.ImportRef
	dists     []*pydeps.Dist
	installed bool
	decl      *pydeps.Requirement
	// bound is set when the project must declare what the file imports at run time: a
	// source module (not a test module or conftest.py, whose tools are as often declared
	// in tox.ini, noxfile.py or CI configuration, which are not read), outside a guarded
	// or type-only import.
	bound bool
}

// judge decides about one import.
func (f importFacts) judge() verdict {
	known := pydeps.Known(syntax.TopLevel(f.r.Module))
	switch {
	case f.installed && f.decl == nil && len(f.dists) > 0 && f.bound:
		return undeclaredInstalled
	case f.installed:
		return fine // declared, or installed without metadata (a system module)
	case f.decl != nil && !f.decl.Conditional && !f.r.Guarded:
		return missing
	case f.decl == nil && known && f.bound:
		return undeclaredKnown
	case f.decl == nil && !known && !f.r.Guarded:
		return unknown
	}
	return fine
}

// classify decides about one import of a third-party module (not stdlib, not the
// project's): ok is false when there is nothing to report.
func classify(file string, r syntax.ImportRef, proj *pydeps.Project, env *pydeps.Env) (lang.Problem, bool) {
	f := importFacts{r: r, bound: !r.Guarded && !r.TypeOnly && syntax.RoleOf(file) == syntax.Source}
	f.dists, f.installed = env.Providers(r.Module)
	f.decl = declaration(r.Module, f.dists, proj)
	for _, d := range f.dists {
		if proj.Name != "" && d.Key == pydeps.Normalize(proj.Name) {
			return lang.Problem{}, false // the project itself, installed in editable mode
		}
	}
	loc := lang.Location{File: file, Line: r.Node.Pos.Line, Column: r.Node.Pos.Column, EndLine: r.Node.EndPos.Line, EndColumn: r.Node.EndPos.Column + 1}
	p := lang.Problem{Location: loc, Symbol: syntax.TopLevel(r.Module)}
	switch f.judge() {
	case undeclaredInstalled:
		p.Kind = lang.UndeclaredDependency
		p.Message = fmt.Sprintf("import of %s: the distribution %s is installed in %s but not declared in %s",
			r.Module, uniqueDistNames(f.dists), env.Where, declaredWhere(proj))
		p.Suggestion = fmt.Sprintf("declare %s in %s, or do not import it", f.dists[0].Name, declareIn(proj))
	case undeclaredKnown:
		p.Kind = lang.UndeclaredDependency
		p.Message = fmt.Sprintf("import of %s: the project does not declare %s (%s), and it is not installed in %s either",
			r.Module, pydeps.DistName(r.Module), declaredWhere(proj), env.Where)
		p.Suggestion = fmt.Sprintf("declare %s in %s and install it, or do not import it", pydeps.DistName(r.Module), declareIn(proj))
	case missing:
		p.Kind = lang.MissingDependency
		p.Message = fmt.Sprintf("import of %s: %s is declared (%s:%d) but not installed in %s", r.Module, f.decl.Name, f.decl.File, f.decl.Line, env.Where)
		p.Suggestion = "install the project's declared dependencies into its environment (for example pip install -e . in the virtual environment)"
		p.Related = []lang.Related{{Location: lang.Location{File: f.decl.File, Line: f.decl.Line}, Message: f.decl.Name + " is declared here"}}
	case unknown:
		p.Kind = lang.UnknownPackage
		p.Message = fmt.Sprintf("import of %s: no installed distribution provides %s and the project declares none; "+
			"the package may not exist: a made-up package name is a slopsquatting target (anyone can publish it, with malicious code)",
			r.Module, syntax.TopLevel(r.Module))
		p.Suggestion = fmt.Sprintf("do not install a package named after %s unless you have verified that it is the real, intended project; "+
			"use the standard library or a dependency the project already declares", syntax.TopLevel(r.Module))
	default:
		return p, false
	}
	return p, true
}

// declaration returns the project's requirement that provides mod: one of the installed
// distributions that provide it, or a distribution whose name pip users derive from it
// (including the well-known mismatches such as yaml → PyYAML).
func declaration(mod string, dists []*pydeps.Dist, proj *pydeps.Project) *pydeps.Requirement {
	for _, d := range dists {
		if r := proj.Declared(d.Key); r != nil {
			return r
		}
	}
	for _, k := range pydeps.Candidates(mod) {
		if r := proj.Declared(k); r != nil {
			return r
		}
	}
	return nil
}

// declaredWhere names the files that declare the project's dependencies.
func declaredWhere(proj *pydeps.Project) string {
	if len(proj.Sources) == 0 {
		return "the project (it has no pyproject.toml, requirements*.txt, setup.cfg or setup.py)"
	}
	return strings.Join(proj.Sources, ", ")
}

// declareIn says where a dependency goes.
func declareIn(proj *pydeps.Project) string {
	for _, s := range proj.Sources {
		if strings.HasSuffix(s, "pyproject.toml") {
			return s + " ([project] dependencies)"
		}
	}
	if len(proj.Sources) > 0 {
		return proj.Sources[0]
	}
	return "the project's pyproject.toml ([project] dependencies) or requirements.txt"
}
