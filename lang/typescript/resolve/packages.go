package resolve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/npm"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
	"github.com/agentverify/agentverify/lang/typescript/tsconfig"
	"github.com/agentverify/agentverify/policy"
)

// youngAge is the age under which a dependency is too new to trust: the trusted
// policy's hallucination.young_package_days, as for Go modules (30 days by default).
func youngAge(p *policy.Policy) time.Duration {
	if p == nil {
		return (*policy.HallucinationOptions)(nil).YoungPackageAge()
	}
	return p.Hallucination.YoungPackageAge()
}

// deps is what the package checks read, once per verification.
type deps struct {
	manifests *npm.Manifests
	disk      fs.FS // the repository on disk: node_modules is the environment's
	registry  *npm.Registry
	configs   map[string]*tsconfig.Config
	// trusted is the tree the trusted configurations are read from (nil: the head is
	// trusted), trustedConfigs their cache.
	trusted        fs.FS
	trustedConfigs map[string]*tsconfig.Config
	baseManifests  *npm.Manifests  // package.json files on the trusted side, once read
	pnp            bool            // Yarn Plug'n'Play: no node_modules, the lock file says
	locked         map[string]bool // packages the lock files pin (for Plug'n'Play)
}

// use is one bare import of a changed file.
type use struct {
	t    *target
	imp  syntax.Import
	name string // the package
}

// parse gives the target its syntax tree when the frontend's parse did not (Resolve
// takes the one lang.File.Syntax keeps).
func (t *target) parse() error {
	if t.tree != nil {
		return nil
	}
	tree, err := syntax.Parse(syntax.DialectOf(t.f.Path), t.src)
	t.tree = tree
	return err
}

// packagesStep checks every package a changed file imports against the nearest
// package.json and what is installed, asks the registry about the ones that are
// neither, and checks the dependencies a changed package.json adds.
func packagesStep(j *job) ([]lang.Problem, error) {
	d := j.deps()
	var out []lang.Problem
	var unknown []use
	for _, t := range j.targets {
		if t.broken {
			continue
		}
		if err := t.parse(); err != nil {
			return nil, err
		}
		for _, imp := range syntax.Imports(t.tree) {
			name := npm.PackageName(imp.Spec)
			if imp.Guarded || name == "" || npm.Builtin(imp.Spec) || d.alias(t.f.Path, imp.Spec) {
				continue
			}
			p, ask, err := d.check(use{t, imp, name})
			if err != nil {
				return nil, err
			}
			switch {
			case ask:
				unknown = append(unknown, use{t, imp, name})
			case p == nil && d.pnp:
				j.handled(t.f.Path, imp.Spec) // the compiler cannot see into Plug'n'Play's archives
			case p != nil:
				out = append(out, *p)
				j.handled(t.f.Path, imp.Spec)
			}
		}
	}
	out = append(out, j.askRegistry(d, unknown)...)
	added, err := j.addedDependencies(d)
	if err != nil {
		return nil, err
	}
	return append(out, added...), nil
}

// deps returns the verification's package readers, made once.
func (j *job) deps() *deps {
	if j.pkgs == nil {
		j.pkgs = j.readers()
	}
	return j.pkgs
}

func (j *job) readers() *deps {
	set := j.req.Changes
	d := &deps{manifests: npm.NewManifests(j.headFS()), registry: j.r.Registry, configs: map[string]*tsconfig.Config{}}
	d.disk = j.headFS()
	if set.Root != "" {
		d.disk = os.DirFS(set.Root)
	}
	d.trusted, d.trustedConfigs = trustedFS(j.req, d.disk), map[string]*tsconfig.Config{}
	if d.registry == nil {
		// The project's .npmrc is the trusted side's: a change's own would send the
		// lookup to a registry that says its made-up package exists (npmrc.go).
		project := d.trusted
		if project == nil {
			project = d.disk
		}
		d.registry = npm.NewRegistryFrom(project)
	}
	for _, name := range []string{".pnp.cjs", ".pnp.js"} {
		if _, err := fs.Stat(d.disk, name); err == nil {
			d.pnp = true
			d.locked = npm.Locked(j.headFS(), "yarn.lock")
		}
	}
	return d
}

// alias reports whether spec is one of the project's own path aliases (tsconfig paths,
// "@/*" and the like) for the file at p. A paths entry the change adds for a package's
// name is none: the import would resolve to a stub of the change's while Node loads the
// package (tsconfig.TrustedPaths). Nor is a pattern that matches every package name
// ("*", "@*": a project's typings, or baseUrl-style imports of its own sources) unless
// it takes spec to a source file of the project: through it, a made-up name would pass
// for an alias.
func (d *deps) alias(p, spec string) bool {
	c, err := tsconfig.Owner(d.manifests.FS(), p, d.configs)
	if err != nil || c == nil {
		return false
	}
	paths := map[string][]string{}
	for pat, targets := range c.Options.Paths {
		paths[pat] = make([]string, len(targets))
		for i, t := range targets {
			paths[pat][i] = path.Join(c.Options.PathsDir, t) // a slash path in the tree
		}
	}
	if b, weak := trustedOwner(d.trusted, p, c, d.trustedConfigs); hasOption(weak, "paths") {
		paths = tsconfig.TrustedPaths(b, c)
	}
	for pat, targets := range paths {
		prefix, suffix, wild := strings.Cut(pat, "*")
		switch {
		case spec == pat:
			return true
		case !wild || !strings.HasPrefix(spec, prefix) || !strings.HasSuffix(spec[len(prefix):], suffix):
		case prefix != "" && prefix != "@":
			return true
		case d.source(targets, spec[len(prefix):len(spec)-len(suffix)]):
			return true
		}
	}
	return false
}

// sourceExts are the extensions the compiler tries for a module of the project.
var sourceExts = []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

// source reports whether one of a paths pattern's targets, its wildcard replaced by
// match, is a source file of the project in the head (not a declaration file, which
// types a package Node still loads from node_modules).
func (d *deps) source(targets []string, match string) bool {
	fsys := d.manifests.FS()
	for _, t := range targets {
		p := path.Clean(strings.Replace(t, "*", match, 1))
		if strings.HasPrefix(p, "../") || strings.Contains("/"+p+"/", "/node_modules/") {
			continue
		}
		for _, cand := range candidates(p) {
			if st, err := fs.Stat(fsys, cand); err == nil && st.Mode().IsRegular() && !syntax.IsDeclaration(cand) {
				return true
			}
		}
	}
	return false
}

// candidates are the files a module path may be: itself, with an extension, its index.
func candidates(p string) []string {
	out := []string{p}
	for _, ext := range sourceExts {
		out = append(out, p+ext, path.Join(p, "index"+ext))
	}
	return out
}

// check classifies one bare import: nil when it is declared and installed; ask when it
// is neither and only the registry can tell a made-up name from a real one.
func (d *deps) check(u use) (*lang.Problem, bool, error) {
	chain, err := d.manifests.Chain(u.t.f.Path)
	if err != nil {
		return nil, false, err
	}
	_, declared := npm.Declared(chain, u.name)
	if !declared && u.imp.TypeOnly {
		_, declared = npm.Declared(chain, typesPackage(u.name))
	}
	installed := d.installed(u.t.f.Path, u.name) || u.imp.TypeOnly && d.installed(u.t.f.Path, typesPackage(u.name))
	switch {
	case declared && installed:
		return nil, false, nil
	case declared:
		p := u.problem(lang.MissingDependency, fmt.Sprintf("package %s is declared in %s but not installed: what the code uses from it cannot be verified", u.name, manifestOf(chain, u.name)),
			"install the project's declared dependencies (npm ci, pnpm install, yarn install) where the verification runs")
		return &p, false, nil
	case installed && len(chain) > 0:
		p := u.problem(lang.UndeclaredDependency, fmt.Sprintf("package %s is installed but %s does not declare it: it is there as another package's dependency and can go away with it", u.name, chain[0].Path),
			fmt.Sprintf("declare %s in %s (dependencies, or devDependencies for tests and tooling) in a reviewed change, or use a package the project declares", u.name, chain[0].Path))
		return &p, false, nil
	case installed:
		return nil, false, nil
	}
	return nil, true, nil
}

// installed reports whether name is installed for the file at p.
func (d *deps) installed(p, name string) bool {
	if npm.Installed(d.disk, path.Dir(p), name) {
		return true
	}
	return d.pnp && d.locked[name]
}

func typesPackage(name string) string {
	if scope, rest, ok := strings.Cut(strings.TrimPrefix(name, "@"), "/"); ok && strings.HasPrefix(name, "@") {
		return "@types/" + scope + "__" + rest
	}
	return "@types/" + name
}

func manifestOf(chain []*npm.Manifest, name string) string {
	if m, ok := npm.Declared(chain, name); ok {
		return m.Path
	}
	return "package.json"
}

// problem is a problem at the import's specifier.
func (u use) problem(kind lang.Kind, msg, suggestion string) lang.Problem {
	n := u.imp.Node
	return lang.Problem{Kind: kind, Location: lang.Location{File: u.t.f.Path, Line: n.Pos.Line, Column: n.Pos.Column},
		Message: msg, Suggestion: suggestion, Symbol: u.name}
}

// askRegistry asks the registry about the imports that are neither declared nor
// installed, a few at a time: unknown to it is unknown-package (a made-up name that an
// attacker may register: never to be installed), known is undeclared-dependency.
func (j *job) askRegistry(d *deps, uses []use) []lang.Problem {
	type answer struct {
		info *npm.Info
		err  error
	}
	answers := map[string]*answer{}
	for _, u := range uses {
		answers[u.name] = &answer{}
	}
	var g crash.Group
	sem := make(chan struct{}, 4)
	for name, a := range answers {
		g.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			a.info, a.err = d.registry.Lookup(j.req.Context, name, false)
		})
	}
	if err := g.Wait(); err != nil {
		panic(err)
	}
	var out []lang.Problem
	for _, u := range uses {
		a := answers[u.name]
		chain, _ := d.manifests.Chain(u.t.f.Path)
		where := "package.json"
		if len(chain) > 0 {
			where = chain[0].Path
		}
		switch {
		case errors.Is(a.err, npm.ErrNotFound):
			out = append(out, u.problem(lang.UnknownPackage,
				fmt.Sprintf("package %s is not declared, not installed, and the npm registry (%s) has no package of that name: a made-up name, which anyone can register with malicious code (slopsquatting)", u.name, d.registry.URL(u.name)),
				strings.TrimSpace(didYouMean(nearest(u.name, d.knownPackages(chain, u.t.f.Path)))+" use a package the project already has; never install a package because an import names it")))
		case a.err != nil:
			out = append(out, u.problem(lang.UndeclaredDependency,
				fmt.Sprintf("package %s is not declared in %s and not installed, and the registry could not be asked about it (%v)", u.name, where, a.err),
				"use a package the project declares, or declare this one in a reviewed change once you know it is the package you mean"))
		default:
			out = append(out, u.problem(lang.UndeclaredDependency,
				fmt.Sprintf("package %s is not declared in %s and not installed (the npm registry has it)", u.name, where),
				fmt.Sprintf("use a package the project declares, or declare %s in a reviewed change after checking it is the package you mean", u.name)))
		}
		j.handled(u.t.f.Path, u.imp.Spec)
	}
	return out
}

// knownPackages are the names a misspelt package may have meant: the declared ones
// and the installed ones.
func (d *deps) knownPackages(chain []*npm.Manifest, p string) []string {
	names := npm.Names(chain)
	for dir := path.Dir(p); ; dir = path.Dir(dir) {
		entries, _ := fs.ReadDir(d.disk, path.Join(dir, "node_modules"))
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "@") {
				sub, _ := fs.ReadDir(d.disk, path.Join(dir, "node_modules", e.Name()))
				for _, s := range sub {
					names = append(names, e.Name()+"/"+s.Name())
				}
			} else if !strings.HasPrefix(e.Name(), ".") {
				names = append(names, e.Name())
			}
		}
		if dir == "." || dir == "/" {
			break
		}
	}
	sort.Strings(names)
	return names
}

// addedDependencies checks the dependencies a changed package.json declares that its
// base did not: each is new-dependency, for review; one the registry does not know is
// unknown-package, one first published less than the threshold ago young-package.
func (j *job) addedDependencies(d *deps) ([]lang.Problem, error) {
	var out []lang.Problem
	for _, f := range j.req.Changes.Files {
		if path.Base(f.Path) != "package.json" || !f.Analyzable() || f.Head == nil {
			continue
		}
		head, err := npm.ParseManifest(f.Path, f.Head)
		if err != nil {
			out = append(out, lang.Problem{Kind: lang.SyntaxErrorKind, Location: lang.Location{File: f.Path, Line: 1}, Message: err.Error(), Symbol: f.Path})
			continue
		}
		base := &npm.Manifest{Deps: map[string]string{}}
		if f.Base != nil && !j.req.Changes.NoBase {
			if b, err := npm.ParseManifest(f.Path, f.Base); err == nil {
				base = b
			}
		} else if j.req.Changes.NoBase {
			continue // check mode: nothing is added
		}
		out = append(out, j.newDeps(d, f.Path, head, base)...)
		out = append(out, j.redirected(d, f.Path, f.Head, head, base)...)
	}
	return out, nil
}

// redirected vets the packages a changed package.json newly points a name at through an
// alias ("npm:evil-lodash@1") in a dependency, npm's overrides, yarn's resolutions or
// pnpm.overrides: an install fetches the target, which is judged like a dependency the
// change adds (the overrides themselves are scope/gate-config-changed, npmrc.go).
func (j *job) redirected(d *deps, file string, data []byte, head, base *npm.Manifest) []lang.Problem {
	keys := slices.Sorted(maps.Keys(head.Redirects))
	var out []lang.Problem
	for _, k := range keys {
		target := head.Redirects[k]
		if base.Redirects[k] == target || overrides(k, target) {
			continue
		}
		at := lang.Location{File: file, Line: lineWith(data, "npm:"+target)}
		out = append(out, lang.Problem{Kind: lang.NewDependency, Location: at, Symbol: target,
			Message:    fmt.Sprintf("the change points %s at package %s (an npm alias): installs fetch %s in its place", k, target, target),
			Suggestion: "check that it is the package you mean (not a look-alike), maintained and needed"})
		if p := j.vet(d, target, at); p != nil {
			out = append(out, *p)
		}
	}
	return out
}

// overrides reports whether the redirect written at key points a name at itself
// ("resolutions.zod": "npm:zod@3.22.0", a pin).
func overrides(key, target string) bool {
	return strings.HasSuffix(key, "."+target) || strings.HasSuffix(key, "/"+target) || strings.Contains(key, "."+target+"@")
}

// lineWith is the line of the first occurrence of s in data (1 when there is none).
func lineWith(data []byte, s string) int {
	i := bytes.Index(data, []byte(s))
	if i < 0 {
		return 1
	}
	return bytes.Count(data[:i], []byte("\n")) + 1
}

// newDeps reports the dependencies head declares and base does not.
func (j *job) newDeps(d *deps, file string, head, base *npm.Manifest) []lang.Problem {
	var names []string
	for name := range head.Deps {
		if _, ok := base.Deps[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var out []lang.Problem
	for _, name := range names {
		at := lang.Location{File: file, Line: max(head.Lines[name], 1)}
		out = append(out, lang.Problem{Kind: lang.NewDependency, Location: at, Symbol: name,
			Message:    fmt.Sprintf("the change adds %s %s to %s", head.Deps[name], name, file),
			Suggestion: "check that it is the package you mean (not a look-alike), maintained and needed"})
		if p := j.vet(d, name, at); p != nil {
			out = append(out, *p)
		}
	}
	return out
}

// vet asks the registry about a newly declared dependency.
func (j *job) vet(d *deps, name string, at lang.Location) *lang.Problem {
	ctx, cancel := context.WithTimeout(j.req.Context, 30*time.Second)
	defer cancel()
	info, err := d.registry.Lookup(ctx, name, true)
	switch {
	case errors.Is(err, npm.ErrNotFound):
		return &lang.Problem{Kind: lang.UnknownPackage, Location: at, Symbol: name,
			Message:    fmt.Sprintf("dependency %s: the npm registry (%s) has no package of that name: a made-up name, which anyone can register with malicious code (slopsquatting)", name, d.registry.URL(name)),
			Suggestion: "remove it; use a package that exists and that you mean"}
	case err != nil || info.Created.IsZero():
		return nil // the new-dependency finding asks for the review
	}
	age := time.Since(info.Created)
	if limit := youngAge(j.req.Policy); age < limit {
		return &lang.Problem{Kind: lang.YoungPackage, Location: at, Symbol: name,
			Message: fmt.Sprintf("dependency %s was first published %s (%d days ago), less than %d days ago: brand-new packages with plausible names are how slopsquatting works",
				name, info.Created.Format("2006-01-02"), int(age.Hours()/24), int(limit.Hours()/24)),
			Suggestion: "check that it is the package you mean before you accept it"}
	}
	return nil
}
