package resolve

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/modfetch"
	"github.com/agentverify/agentverify/lang/suggest"
)

// moduleFindings reports, at the changed go.mod of u, the modules only the change
// requires that no module proxy has (unknown-module) and those whose first release is
// younger than the policy allows (young-package).
func moduleFindings(u *unit, st *modState) []lang.Problem {
	if u.goMod == nil || st == nil {
		return nil
	}
	hf, err := modfile.Parse(u.goMod.Path, u.goMod.Head, nil)
	if err != nil {
		return nil
	}
	used := usedModules(st.trusted)
	var out []lang.Problem
	for _, m := range st.added.NotFound {
		p := lang.Problem{Kind: lang.UnknownModule, Location: requireAt(u.goMod.Path, hf, m.Path), Symbol: m.Path, Introduced: true}
		if in := st.infos[m.Path]; in.Exists {
			p.Message = fmt.Sprintf("module %s has no version %s on any module proxy: the version is invented", m.Path, m.Version)
			if in.First != "" {
				p.Suggestion = fmt.Sprintf("use a version the module has (its first release is %s; `go list -m -versions %s` lists them)", in.First, m.Path)
			}
		} else {
			p.Message = fmt.Sprintf("module %s is known to no module proxy: the module path is invented or mistyped, and a name an assistant invents is a name someone can register", m.Path)
			p.Suggestion = didYouMean("", quoted(closestModules(m.Path, used)))
		}
		out = append(out, p)
	}
	paths := make([]string, 0, len(st.infos))
	for p := range st.infos {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, path := range paths {
		if young, ok := youngModule(path, st.infos[path], st.youngAge); ok {
			young.Location = requireAt(u.goMod.Path, hf, path)
			out = append(out, young)
		}
	}
	return out
}

// youngModule returns the young-package finding for a module whose first release is
// younger than age (position unset).
func youngModule(path string, in modfetch.Info, age time.Duration) (lang.Problem, bool) {
	if !in.Exists || in.Published.IsZero() || time.Since(in.Published) >= age {
		return lang.Problem{}, false
	}
	days := int(time.Since(in.Published).Hours() / 24)
	return lang.Problem{
		Kind: lang.YoungPackage, Symbol: path, Introduced: true,
		Message: fmt.Sprintf("module %s was first released %s (%s, %d days ago), less than the policy's %d days: a name an assistant invents is a name someone can register",
			path, in.First, in.Published.UTC().Format("2006-01-02"), days, int(age.Hours()/24)),
		Suggestion: "check that it is the module you meant (its owner, its history) before you depend on it",
	}, true
}

// usedModules returns the module paths the repository already uses: the trusted go.mod's
// module and requirements.
func usedModules(trusted *modfile.File) []string {
	if trusted == nil {
		return nil
	}
	var out []string
	if trusted.Module != nil {
		out = append(out, trusted.Module.Mod.Path)
	}
	for _, r := range trusted.Require {
		out = append(out, r.Mod.Path)
	}
	return out
}

// closestModules returns the module paths among used closest to path: on the same host,
// by the rest of the path (example.com/libb → example.com/lib, not example.com/app).
func closestModules(path string, used []string) []string {
	host, rest, _ := strings.Cut(path, "/")
	var rests []string
	for _, u := range used {
		if h, r, ok := strings.Cut(u, "/"); ok && h == host && u != path {
			rests = append(rests, r)
		}
	}
	near := closest(rest, rests)
	var out []string
	for _, r := range near {
		// Only the closest: a module path is long, and many are a few edits apart.
		if suggest.Distance(rest, r) == suggest.Distance(rest, near[0]) {
			out = append(out, host+"/"+r)
		}
	}
	return out
}

func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// requireAt returns the place of the go.mod line that brings in module path: its
// requirement, else the replacement that names it, else line 1.
func requireAt(file string, hf *modfile.File, path string) lang.Location {
	at := func(l *modfile.Line) lang.Location {
		return lang.Location{File: file, Line: l.Start.Line, Column: l.Start.LineRune, EndLine: l.End.Line, EndColumn: l.End.LineRune}
	}
	for _, r := range hf.Require {
		if r.Mod.Path == path && r.Syntax != nil {
			return at(r.Syntax)
		}
	}
	for _, r := range hf.Replace {
		if r.New.Path == path && r.Syntax != nil {
			return at(r.Syntax)
		}
	}
	return lang.Location{File: file, Line: 1}
}

// moduleCandidates returns the module paths an import path could belong to, longest
// first: its prefixes that are valid module paths, at least three elements on the hosts
// whose module paths have three (github.com/owner/repo), at least two elsewhere.
func moduleCandidates(ipath string) []string {
	elems := strings.Split(ipath, "/")
	least := 2
	if guessModule(ipath) != "" {
		least = 3
	}
	var out []string
	for n := len(elems); n >= least && len(out) < 4; n-- {
		if p := strings.Join(elems[:n], "/"); module.CheckPath(p) == nil {
			out = append(out, p)
		}
	}
	return out
}

// lookupImport asks the module proxies which module an import that no requirement
// provides would come from. known is false when they could not say (offline, a private
// path, a proxy error): then nothing is claimed. A module that exists makes the import
// an undeclared dependency, and young-package when it is new; no module at all makes it
// unknown-module.
func (c *converter) lookupImport(ipath string) (rule lang.Kind, msg, suggestion string, young *lang.Problem, known bool) {
	if c.unit.fetch == nil {
		return "", "", "", nil, false
	}
	cands := moduleCandidates(ipath)
	infos, err := c.unit.fetch.Lookup(c.pass.Context, cands)
	if err != nil || len(cands) == 0 {
		return "", "", "", nil, false
	}
	all := true
	for _, m := range cands {
		in := infos[m]
		all = all && in.Known
		if in.Exists {
			msg = fmt.Sprintf("import %q belongs to module %s, which go.mod does not require (do not add unreviewed dependencies)", ipath, m)
			if y, ok := youngModule(m, in, c.youngAge()); ok {
				young = &y
			}
			return lang.UndeclaredDependency, msg, "", young, true
		}
	}
	if !all {
		return "", "", "", nil, false
	}
	msg = fmt.Sprintf("import %q belongs to no module: no module proxy knows %s; the path is invented or mistyped, and a name an assistant invents is a name someone can register", ipath, strings.Join(cands, " or "))
	var used []string
	if info := c.modInfo(); info != nil {
		for _, r := range append([]requirement{info.self}, info.requires...) {
			used = append(used, r.path)
		}
	}
	return lang.UnknownModule, msg, didYouMean("", quoted(closestModules(cands[len(cands)-1], used))), nil, true
}

// youngAge is the policy's young-package threshold.
func (c *converter) youngAge() time.Duration {
	return c.pass.Policy.Hallucination.YoungPackageAge()
}
