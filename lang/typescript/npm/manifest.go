// Package npm knows the npm side of a TypeScript or JavaScript project: package.json
// manifests (dependencies of every kind, workspaces, engines), what is installed
// (node_modules, and the lockfiles of npm, yarn and pnpm for layouts without one), the
// registry the user's npm is configured for (.npmrc, NPM_CONFIG_REGISTRY) and Node's
// built-in modules. It runs nothing: manifests and lockfiles are read, the registry is
// asked over HTTP.
package npm

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Manifest is what a package.json says.
type Manifest struct {
	// Path is the slash path of the package.json in the tree; Dir its directory.
	Path, Dir string
	Name      string
	// Deps holds every declared dependency by name with the field that declares it
	// ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies").
	Deps map[string]string
	// Workspaces are the workspace patterns (npm, yarn; pnpm's come from
	// pnpm-workspace.yaml).
	Workspaces []string
	// Engines is engines.node ("" when unset).
	Engines string
	// Types, Main, Module and Exports are the package's entry points.
	Types, Main, Module string
	Exports             json.RawMessage
	Imports             json.RawMessage
	// Type is "module" or "commonjs" ("" when unset).
	Type string
	// Lines holds the line of each dependency's declaration, for findings about it.
	Lines map[string]int
	// Ranges holds each declared dependency's version range as written (the first
	// field of DepFields that declares it).
	Ranges map[string]string
	// Redirects holds the package each alias ("npm:other@1") points a name at, by
	// where it is written: a dependency ("dependencies.lodash"), npm's overrides
	// ("overrides.a.b"), yarn's resolutions, pnpm.overrides. Installs fetch the target.
	Redirects map[string]string
}

// DepFields are the fields that declare dependencies.
var DepFields = []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies"}

type rawManifest struct {
	Name                 string            `json:"name"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	Workspaces           json.RawMessage   `json:"workspaces"`
	Engines              map[string]string `json:"engines"`
	Types                string            `json:"types"`
	Typings              string            `json:"typings"`
	Main                 string            `json:"main"`
	Module               string            `json:"module"`
	Exports              json.RawMessage   `json:"exports"`
	Imports              json.RawMessage   `json:"imports"`
	Type                 string            `json:"type"`
	Overrides            any               `json:"overrides"`
	Resolutions          any               `json:"resolutions"`
	Pnpm                 json.RawMessage   `json:"pnpm"` // read leniently: a tool's own field
}

// ParseManifest reads a package.json; p is its slash path (for errors and Dir).
func ParseManifest(p string, data []byte) (*Manifest, error) {
	var raw rawManifest
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	m := &Manifest{Path: p, Dir: path.Dir(p), Name: raw.Name, Deps: map[string]string{}, Ranges: map[string]string{}, Engines: raw.Engines["node"],
		Types: raw.Types, Main: raw.Main, Module: raw.Module, Exports: raw.Exports, Imports: raw.Imports, Type: raw.Type}
	if m.Types == "" {
		m.Types = raw.Typings
	}
	for i, deps := range []map[string]string{raw.Dependencies, raw.DevDependencies, raw.PeerDependencies, raw.OptionalDependencies} {
		for name, rng := range deps {
			if _, ok := m.Deps[name]; !ok {
				m.Deps[name], m.Ranges[name] = DepFields[i], rng
			}
		}
	}
	if len(raw.Workspaces) > 0 {
		var list []string
		var obj struct{ Packages []string }
		if json.Unmarshal(raw.Workspaces, &list) == nil {
			m.Workspaces = list
		} else if json.Unmarshal(raw.Workspaces, &obj) == nil {
			m.Workspaces = obj.Packages
		}
	}
	m.Lines = depLines(data, m.Deps)
	m.Redirects = redirects(&raw)
	return m, nil
}

// redirects lists the aliases of a manifest's dependencies and overrides by where they
// are written.
func redirects(raw *rawManifest) map[string]string {
	out := map[string]string{}
	for i, deps := range []map[string]string{raw.Dependencies, raw.DevDependencies, raw.PeerDependencies, raw.OptionalDependencies} {
		for name, spec := range deps {
			if t := AliasTarget(spec); t != "" {
				out[DepFields[i]+"."+name] = t
			}
		}
	}
	aliases(out, "overrides", raw.Overrides)
	aliases(out, "resolutions", raw.Resolutions)
	var pnpm struct {
		Overrides any `json:"overrides"`
	}
	if json.Unmarshal(raw.Pnpm, &pnpm) == nil {
		aliases(out, "pnpm.overrides", pnpm.Overrides)
	}
	return out
}

// aliases adds the alias targets among v's leaves (nested objects, as npm's overrides
// nest) under the dotted key prefix.
func aliases(out map[string]string, prefix string, v any) {
	switch v := v.(type) {
	case string:
		if t := AliasTarget(v); t != "" {
			out[prefix] = t
		}
	case map[string]any:
		for k, e := range v {
			aliases(out, prefix+"."+k, e)
		}
	}
}

// AliasTarget is the package an npm alias spec installs ("npm:evil-lodash@1" →
// "evil-lodash", "npm:@acme/x" → "@acme/x"), "" for any other spec.
func AliasTarget(spec string) string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(spec), "npm:")
	if !ok {
		return ""
	}
	if i := strings.LastIndex(rest, "@"); i > 0 {
		rest = rest[:i]
	}
	if PackageName(rest) != rest {
		return ""
	}
	return rest
}

// depLines finds the line of each dependency's key in the manifest's text.
func depLines(data []byte, deps map[string]string) map[string]int {
	out := map[string]int{}
	lines := strings.Split(string(data), "\n")
	for name := range deps {
		key := `"` + name + `"`
		for i, l := range lines {
			if strings.Contains(l, key+":") || strings.Contains(l, key+" :") {
				out[name] = i + 1
				break
			}
		}
	}
	return out
}

// Manifests reads package.json files of a tree once each.
type Manifests struct {
	fsys  fs.FS
	cache map[string]*Manifest
	errs  map[string]error
}

// NewManifests reads manifests from fsys.
func NewManifests(fsys fs.FS) *Manifests {
	return &Manifests{fsys: fsys, cache: map[string]*Manifest{}, errs: map[string]error{}}
}

// FS is the tree the manifests are read from.
func (ms *Manifests) FS() fs.FS { return ms.fsys }

// At returns the manifest at p, nil when there is none.
func (ms *Manifests) At(p string) (*Manifest, error) {
	if m, ok := ms.cache[p]; ok {
		return m, ms.errs[p]
	}
	data, err := fs.ReadFile(ms.fsys, p)
	if err != nil {
		ms.cache[p] = nil
		return nil, nil
	}
	m, err := ParseManifest(p, data)
	ms.cache[p], ms.errs[p] = m, err
	return m, err
}

// Chain returns the manifests in the directory of file p and above, nearest first; one
// that does not read is left out (its error is the package.json check's finding).
func (ms *Manifests) Chain(p string) ([]*Manifest, error) {
	var out []*Manifest
	for dir := path.Dir(p); ; dir = path.Dir(dir) {
		m, err := ms.At(path.Join(dir, "package.json"))
		if err == nil && m != nil {
			out = append(out, m)
		}
		if dir == "." || dir == "/" {
			return out, nil
		}
	}
}

// Declared reports which manifest of chain declares the package name: the nearest, or
// one above it (a workspace root's dependencies are its packages' too). It also
// counts a package as declared when it is the package itself or a workspace sibling.
func Declared(chain []*Manifest, name string) (*Manifest, bool) {
	for _, m := range chain {
		if _, ok := m.Deps[name]; ok || m.Name == name {
			return m, true
		}
	}
	return nil, false
}

// Names returns the declared dependency names of chain, sorted.
func Names(chain []*Manifest) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range chain {
		for n := range m.Deps {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}
