package resolve

import (
	"fmt"
	"path"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/npm"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// nodeStep reports the exports of Node's built-in modules a changed file uses that are
// newer than the Node the project supports: its engines.node (the lowest version the
// range admits, read on the trusted side like the compiler's options), or else the
// major of the @types/node it declares. When the added version comes from is the
// installed @types/node's JSDoc (`@since v20.12.0`); the compiler cannot tell, as the
// types describe the newest Node of their line. Without @types/node installed or a
// version to compare with, nothing is reported.
func nodeStep(j *job) ([]lang.Problem, error) {
	d := j.deps()
	var out []lang.Problem
	apis := map[string]*npm.NodeAPIs{}
	floors := map[string]*floor{}
	j.eachImport(func(t *target, imp syntax.Import) {
		if imp.TypeOnly || !npm.Builtin(imp.Spec) {
			return
		}
		fl, ok := floors[t.f.Path]
		if !ok {
			fl = d.nodeFloor(t.f.Path)
			floors[t.f.Path] = fl
		}
		if a := d.nodeAPIs(t.f.Path, apis); !fl.none && a != nil {
			out = append(out, fl.check(t, imp, a)...)
		}
	})
	return out, nil
}

// floor is the Node a file's project supports.
type floor struct {
	v         npm.Version
	majorOnly bool   // only the major is known (@types/node's)
	from      string // what says so, for the message
	none      bool
}

// nodeFloor reads the floor for the file at p from the nearest package.json that says:
// engines.node, else the @types/node it declares.
func (d *deps) nodeFloor(p string) *floor {
	ms := d.manifests
	if d.trusted != nil {
		ms = d.trustedManifests()
	}
	chain, _ := ms.Chain(p)
	for _, m := range chain {
		if m.Engines != "" {
			if v, ok := npm.MinVersion(m.Engines); ok {
				return &floor{v: v, from: fmt.Sprintf("engines.node %q in %s", m.Engines, m.Path)}
			}
			return &floor{none: true}
		}
	}
	for _, m := range chain {
		if rng, ok := m.Ranges["@types/node"]; ok {
			if v, ok := npm.MinVersion(rng); ok {
				return &floor{v: v, majorOnly: true, from: fmt.Sprintf("@types/node %q in %s", rng, m.Path)}
			}
		}
	}
	return &floor{none: true}
}

// trustedManifests reads package.json files on the trusted side.
func (d *deps) trustedManifests() *npm.Manifests {
	if d.baseManifests == nil {
		d.baseManifests = npm.NewManifests(d.trusted)
	}
	return d.baseManifests
}

// nodeAPIs returns the index of the @types/node installed for the file at p, nil when
// none is.
func (d *deps) nodeAPIs(p string, cache map[string]*npm.NodeAPIs) *npm.NodeAPIs {
	dir := npm.InstalledDir(d.disk, path.Dir(p), "@types/node")
	if dir == "" {
		return nil
	}
	if a, ok := cache[dir]; ok {
		return a
	}
	a := npm.NewNodeAPIs(d.disk, dir)
	cache[dir] = a
	return a
}

// check reports the names one import of a built-in module takes, and the members of
// its module object the file uses, that are newer than the floor.
func (fl *floor) check(t *target, imp syntax.Import, a *npm.NodeAPIs) []lang.Problem {
	mod := strings.TrimPrefix(imp.Spec, "node:")
	src := t.tree.Src
	var out []lang.Problem
	report := func(n *syntax.Node, name string) {
		sinces := a.Since(mod, name)
		if npm.Available(sinces, fl.v, fl.majorOnly) {
			return
		}
		added := make([]string, len(sinces))
		for i, s := range sinces {
			added[i] = s.String()
		}
		target := "Node " + fl.v.String()
		if fl.majorOnly {
			target = fmt.Sprintf("Node %d", fl.v[0])
		}
		out = append(out, lang.Problem{Kind: lang.APITooNew, Symbol: mod + "." + name,
			Location: lang.Location{File: t.f.Path, Line: n.Pos.Line, Column: n.Pos.Column},
			Message: fmt.Sprintf("%s of node:%s was added in Node %s; the project supports %s (%s)",
				name, mod, strings.Join(added, ", "), target, fl.from),
			Suggestion: fmt.Sprintf("use an API %s has, or raise the supported Node version deliberately", target)})
	}
	for _, n := range append(imp.Names, requiredNames(src, imp.Node)...) {
		if n.Name != "*" && n.Name != "default" {
			report(n.Node, n.Name)
		}
	}
	for _, local := range moduleObjects(src, imp) {
		for _, m := range members(t.tree, local) {
			report(m, m.Text(src))
		}
	}
	return out
}
