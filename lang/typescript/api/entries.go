package api

import (
	"encoding/json"
	"io/fs"
	"path"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang/typescript/npm"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
	"github.com/agentverify/agentverify/lazyregexp"
)

// sourceExts are the extensions a module's source may have.
var sourceExts = []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

// entryPoints returns the public modules of the packages the change touches: their
// entry points at the base and what those re-export, transitively.
func entryPoints(set *change.Set) map[string]bool {
	fsys := readFS(set)
	public := map[string]bool{}
	if fsys == nil {
		return public
	}
	ms := npm.NewManifests(fsys)
	seen := map[string]bool{}
	var queue []string
	for _, f := range set.Files {
		chain, _ := ms.Chain(f.OldPath)
		if len(chain) == 0 || seen[chain[0].Path] {
			continue
		}
		seen[chain[0].Path] = true
		queue = append(queue, entries(fsys, chain[0])...)
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if public[p] {
			continue
		}
		public[p] = true
		queue = append(queue, reexported(fsys, p)...)
	}
	return public
}

// entries lists the source files of a package's entry points.
func entries(fsys fs.FS, m *npm.Manifest) []string {
	targets := []string{m.Main, m.Module, m.Types}
	targets = append(targets, exportTargets(m.Exports)...)
	targets = append(targets, "index", "src/index")
	var out []string
	for _, t := range targets {
		if t == "" || strings.Contains(t, "*") {
			continue
		}
		out = append(out, sources(fsys, path.Clean(path.Join(m.Dir, t)), m.Dir)...)
	}
	return out
}

// exportTargets collects the file paths of package.json's exports, every condition.
func exportTargets(raw json.RawMessage) []string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch e := x.(type) {
		case string:
			out = append(out, e)
		case []any:
			for _, y := range e {
				walk(y)
			}
		case map[string]any:
			for _, y := range e {
				walk(y)
			}
		}
	}
	walk(v)
	return out
}

var builtDir = lazyregexp.New(`^(dist|lib|build|out|esm|cjs|types)(/|$)`)

// sources maps an entry path to the source files it stands for: itself, with a source
// extension instead of its own (".d.ts", ".js" → ".ts"), and under src/ instead of a
// build directory.
func sources(fsys fs.FS, p, pkgDir string) []string {
	stem := p
	for _, ext := range []string{".d.ts", ".d.mts", ".d.cts", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".jsx"} {
		if strings.HasSuffix(stem, ext) {
			stem = strings.TrimSuffix(stem, ext)
			break
		}
	}
	stems := []string{stem, path.Join(stem, "index")}
	if rel := strings.TrimPrefix(strings.TrimPrefix(stem, pkgDir), "/"); builtDir.MatchString(rel) {
		src := path.Join(pkgDir, "src", builtDir.ReplaceAllString(rel, ""))
		stems = append(stems, src, path.Join(src, "index"))
	}
	var out []string
	for _, s := range stems {
		for _, ext := range sourceExts {
			if st, err := fs.Stat(fsys, s+ext); err == nil && st.Mode().IsRegular() {
				out = append(out, s+ext)
			}
		}
	}
	return out
}

// reexported lists the project modules the module at p re-exports.
func reexported(fsys fs.FS, p string) []string {
	src, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil
	}
	tree, err := syntax.Parse(syntax.DialectOf(p), src)
	if err != nil {
		return nil
	}
	var out []string
	for _, imp := range syntax.Imports(tree) {
		if !imp.Reexport || !strings.HasPrefix(imp.Spec, ".") {
			continue
		}
		out = append(out, sources(fsys, path.Clean(path.Join(path.Dir(p), imp.Spec)), "")...)
	}
	return out
}
