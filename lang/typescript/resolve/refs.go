package resolve

import (
	"encoding/json"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/lang/typescript/npm"
	"github.com/agentverify/agentverify/lang/typescript/tsconfig"
)

// Project references (`references` in tsconfig.json, built by `tsc -b`): a project
// imports what another builds, through the other's declaration outputs. Those are
// rarely there where the gate runs (a fresh clone, a change not built yet), and the
// compiler in project mode then sees nothing of the other project (its imports are
// unresolved, every use `any`: a silent pass). The generated configuration therefore
// checks against the referenced projects' sources, as the language server and tsc -b's
// redirects do: a referenced package's name (its package.json name, as workspaces link
// it into node_modules) is mapped through paths to the source its declared entry is
// built from (outDir/declarationDir → rootDir), relative imports reach the sources
// themselves, and rootDir is the repository (one program holds every project's
// sources; nothing is emitted). Errors in a referenced project's own files are left to
// that project's check. In diff mode, a changed project's dependents (the projects
// that reference it, found from the solution configurations above it) are checked too,
// so that a change in one breaks the other's callers visibly.

// referenced returns the projects c references, transitively, in a stable order.
func referenced(fsys fs.FS, c *tsconfig.Config, cache map[string]*tsconfig.Config) []*tsconfig.Config {
	var out []*tsconfig.Config
	seen := map[string]bool{c.Path: true}
	var walk func(*tsconfig.Config)
	walk = func(x *tsconfig.Config) {
		for _, r := range x.References {
			if seen[r] {
				continue
			}
			seen[r] = true
			rc, err := loadCached(fsys, r, cache)
			if err != nil || rc == nil {
				continue // a reference that does not read: the compiler says so
			}
			out = append(out, rc)
			walk(rc)
		}
	}
	walk(c)
	return out
}

func loadCached(fsys fs.FS, p string, cache map[string]*tsconfig.Config) (*tsconfig.Config, error) {
	if c, ok := cache[p]; ok {
		return c, nil
	}
	if st, err := fs.Stat(fsys, p); err != nil || st.IsDir() {
		return nil, err
	}
	c, err := tsconfig.Load(fsys, p)
	if err == nil {
		cache[p] = c
	}
	return c, err
}

// refPaths maps the package name of each referenced project to the source of its
// entry (slash paths in the tree): name → [source], name/* → [rootDir/*].
func refPaths(fsys fs.FS, refs []*tsconfig.Config) map[string][]string {
	out := map[string][]string{}
	for _, r := range refs {
		data, err := fs.ReadFile(fsys, path.Join(r.Dir, "package.json"))
		if err != nil {
			continue
		}
		m, err := npm.ParseManifest(path.Join(r.Dir, "package.json"), data)
		if err != nil || m.Name == "" {
			continue
		}
		root := sourceRoot(fsys, r)
		for _, e := range npm.Entries(m) {
			if src := sourceOf(fsys, r, root, e); src != "" {
				out[m.Name] = []string{src}
				out[m.Name+"/*"] = []string{root + "/*"}
				break
			}
		}
	}
	return out
}

// sourceRoot is the referenced project's rootDir (slash path in the tree): as set, else
// its src directory when it has one, else its directory.
func sourceRoot(fsys fs.FS, r *tsconfig.Config) string {
	if s, ok := r.Set["rootdir"]; ok {
		var dir string
		if json.Unmarshal(s.Raw, &dir) == nil {
			return path.Join(s.Dir, dir)
		}
	}
	if st, err := fs.Stat(fsys, path.Join(r.Dir, "src")); err == nil && st.IsDir() {
		return path.Join(r.Dir, "src")
	}
	return r.Dir
}

// sourceOf is the source file the output entry e (relative to the project) is built
// from, "" when none is there.
func sourceOf(fsys fs.FS, r *tsconfig.Config, root, e string) string {
	if e == "" {
		return ""
	}
	p := path.Join(r.Dir, e)
	for _, key := range []string{"declarationdir", "outdir"} {
		s, ok := r.Set[key]
		var dir string
		if !ok || json.Unmarshal(s.Raw, &dir) != nil {
			continue
		}
		if rel, ok := strings.CutPrefix(p, path.Join(s.Dir, dir)+"/"); ok {
			p = path.Join(root, rel)
			break
		}
	}
	for _, ext := range []string{".d.ts", ".d.mts", ".d.cts", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"} {
		if base, ok := strings.CutSuffix(p, ext); ok {
			p = base
			break
		}
	}
	for _, ext := range []string{".ts", ".tsx", ".mts", ".cts"} {
		if st, err := fs.Stat(fsys, p+ext); err == nil && !st.IsDir() {
			return p + ext
		}
	}
	return ""
}

// dependents returns the projects that reference c (transitively), found from the
// configurations in c's directory and above and what they reference: a solution
// configuration lists its projects there.
func dependents(fsys fs.FS, c *tsconfig.Config, cache map[string]*tsconfig.Config) []*tsconfig.Config {
	var all []*tsconfig.Config
	seen := map[string]bool{}
	for dir := c.Dir; ; dir = path.Dir(dir) {
		for _, name := range tsconfig.Names {
			top, err := loadCached(fsys, path.Join(dir, name), cache)
			if err != nil || top == nil || seen[top.Path] {
				continue
			}
			seen[top.Path] = true
			all = append(all, top)
			for _, r := range referenced(fsys, top, cache) {
				if !seen[r.Path] {
					seen[r.Path] = true
					all = append(all, r)
				}
			}
		}
		if dir == "." || dir == "/" {
			break
		}
	}
	var out []*tsconfig.Config
	for _, x := range all {
		if x.Path == c.Path || x.Solution() {
			continue
		}
		if slices.ContainsFunc(referenced(fsys, x, cache), func(r *tsconfig.Config) bool { return r.Path == c.Path }) {
			out = append(out, x)
		}
	}
	return out
}

// withReferences sets, in the generated configuration's options, what checking against
// the referenced projects' sources takes (rootDir is the whole tree already): paths from
// their package names to their sources beside the project's own (already trusted)
// aliases.
func withReferences(opts map[string]any, dir string, paths, refs map[string][]string) {
	merged := map[string][]string{}
	for k, v := range paths {
		merged[k] = v
	}
	for k, v := range refs {
		if _, ok := merged[k]; !ok {
			merged[k] = v
		}
	}
	if len(merged) > 0 {
		opts["paths"] = absPaths(dir, merged)
	}
}

// inReferenced reports whether the file at p (slash, in the tree) belongs to one of
// the referenced projects: its errors are that project's check.
func inReferenced(refs []*tsconfig.Config, p string) bool {
	return slices.ContainsFunc(refs, func(r *tsconfig.Config) bool { return !r.Solution() && r.Includes(p) })
}
