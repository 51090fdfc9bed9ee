package resolve

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/agentverify/agentverify/lang/typescript/tsconfig"
)

// A narrowed check of a change that alters what a module exports must hold every file
// that imports it, whichever way the file names it. Module resolution is the
// compiler's; reaching over-approximates it from the specifier alone: a relative
// specifier, a `paths` or baseUrl one, the package's own name (its exports, read as
// the compiler reads them) and a package linked into the repository each lead to a
// file stem (any extension, .d.ts included) or to a directory (any file under it).
// Where a specifier may lead outside the scanned project, the check does not narrow.

// reach is where a specifier may lead: the stems (tree paths without extension) of
// the files, and directories any file under which it may be.
type reach struct {
	stems, dirs []string
	// outside is set when it may lead to a file outside the scanned directory.
	outside bool
}

// leads reports whether r may lead to the file at p.
func (r reach) leads(p string) bool {
	s := stem(p)
	for _, t := range r.stems {
		if t == s || t == p {
			return true
		}
	}
	for _, d := range r.dirs {
		if d == "." || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// stem is p without its TypeScript or JavaScript extension (.d.ts and the like
// whole).
func stem(p string) string {
	for _, ext := range []string{".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json"} {
		if s, ok := strings.CutSuffix(p, ext); ok {
			if i := strings.LastIndex(s, ".d."); ext == ".ts" && i >= 0 && i > strings.LastIndex(s, "/") {
				s = s[:i] // a.d.json.ts, a.d.css.ts: declarations for other files
			}
			return s
		}
	}
	return p
}

// reacher resolves specifiers the way reach says, for one project.
type reacher struct {
	fsys  fs.FS
	root  string // the repository on disk ("" when it is not)
	cfg   *tsconfig.Config
	paths map[string][]string
	conds map[string]bool // the export conditions the compiler may use
	cache map[string]reach
}

func newReacher(fsys fs.FS, root string, cfg *tsconfig.Config) *reacher {
	r := &reacher{fsys: fsys, root: root, cfg: cfg, paths: tsconfig.TrustedPaths(cfg, cfg), cache: map[string]reach{},
		conds: map[string]bool{"types": true, "default": true, "import": true, "require": true, "node": true, "node-addons": true, "module-sync": true}}
	if s, ok := cfg.Set["customconditions"]; ok {
		var cs []string
		_ = json.Unmarshal(s.Raw, &cs)
		for _, c := range cs {
			r.conds[c] = true
		}
	}
	return r
}

// of is where spec, written in the file at from, may lead.
func (r *reacher) of(from, spec string) reach {
	key := path.Dir(from) + "\x00" + spec
	if got, ok := r.cache[key]; ok {
		return got
	}
	var out reach
	switch {
	case strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == "..":
		r.add(&out, path.Join(path.Dir(from), spec))
	case strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "#"):
		// An absolute path, or a subpath import (package.json "imports"), which the
		// reach does not read: it may lead anywhere.
		out.outside = true
	default:
		r.bare(&out, from, spec)
	}
	r.cache[key] = out
	return out
}

// add makes the tree path t a place out may lead: the file t with any extension, or
// the directory t.
func (r *reacher) add(out *reach, t string) {
	out.stems = append(out.stems, stem(t))
	out.dirs = append(out.dirs, t)
	if !within(t, r.cfg.Dir) {
		out.outside = true
	}
}

// within reports whether the tree path p is dir or under it.
func within(p, dir string) bool {
	if dir == "." {
		return p != ".." && !strings.HasPrefix(p, "../") && !strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// bare reaches a bare specifier: through paths and baseUrl, the package's own name,
// and a package linked into the repository.
func (r *reacher) bare(out *reach, from, spec string) {
	for k, targets := range r.paths {
		star, ok := matchPattern(k, spec)
		if !ok {
			continue
		}
		for _, t := range targets {
			r.add(out, strings.Replace(t, "*", star, 1))
		}
	}
	if r.cfg.Options.BaseURL != "" {
		r.add(out, path.Join(r.cfg.Options.BaseURL, spec))
	}
	name, sub := packageOf(spec)
	for d := path.Dir(from); ; d = path.Dir(d) {
		r.self(out, d, name, sub)
		r.linked(out, path.Join(d, "node_modules", name))
		if d == "." || d == "/" {
			return
		}
	}
}

// matchPattern matches spec against a paths key with at most one *.
func matchPattern(k, spec string) (string, bool) {
	pre, suf, star := strings.Cut(k, "*")
	if !star {
		return "", k == spec
	}
	if len(spec) >= len(pre)+len(suf) && strings.HasPrefix(spec, pre) && strings.HasSuffix(spec, suf) {
		return spec[len(pre) : len(spec)-len(suf)], true
	}
	return "", false
}

// packageOf splits a bare specifier into its package name and subpath ("" or "a/b").
func packageOf(spec string) (name, sub string) {
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") && len(parts) > 1 {
		return parts[0] + "/" + parts[1], strings.Join(parts[2:], "/")
	}
	return parts[0], strings.Join(parts[1:], "/")
}

// self reaches a package's import of itself by name, through its package.json exports.
func (r *reacher) self(out *reach, dir, name, sub string) {
	data, err := fs.ReadFile(r.fsys, path.Join(dir, "package.json"))
	if err != nil {
		return
	}
	var pkg struct {
		Name    string
		Exports json.RawMessage
	}
	if json.Unmarshal(data, &pkg) != nil || pkg.Name != name || len(pkg.Exports) == 0 {
		return
	}
	if _, ok := r.cfg.Set["outdir"]; ok {
		// The compiler maps what lies in outDir back to the source it is built from.
		r.add(out, r.cfg.Dir)
		return
	}
	for _, t := range exportTargets(pkg.Exports, sub, r.conds, func(t string) bool { return isFile(r.fsys, path.Join(dir, t)) }) {
		r.add(out, path.Join(dir, t))
	}
}

func isFile(fsys fs.FS, p string) bool {
	st, err := fs.Stat(fsys, p)
	return err == nil && !st.IsDir()
}

// linked reaches a node_modules entry that links back into the repository (a
// workspace package): any file under where it leads.
func (r *reacher) linked(out *reach, p string) {
	if r.root == "" {
		return
	}
	abs := filepath.Join(r.root, filepath.FromSlash(p))
	if st, err := os.Lstat(abs); err != nil || st.Mode()&os.ModeSymlink == 0 {
		return
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return
	}
	rootReal, err := filepath.EvalSymlinks(r.root)
	if err != nil {
		out.outside = true
		return
	}
	rel, err := filepath.Rel(rootReal, real)
	if err != nil || strings.HasPrefix(rel, "..") {
		return // a package outside the repository: not the project's sources
	}
	rel = filepath.ToSlash(rel)
	if strings.Contains("/"+rel+"/", "/node_modules/") {
		return
	}
	out.dirs = append(out.dirs, rel)
	if !within(rel, r.cfg.Dir) {
		out.outside = true
	}
}

// exportTargets lists the targets a package.json exports value may give the subpath
// sub ("" for the package itself) under the conditions conds, keys read in order as
// the compiler reads them: every matching condition's up to the first of "types" or
// "default" whose target is a file (exists reports that).
func exportTargets(raw json.RawMessage, sub string, conds map[string]bool, exists func(string) bool) []string {
	v, err := decodeOrdered(json.NewDecoder(bytes.NewReader(raw)))
	if err != nil {
		return nil
	}
	want := "."
	if sub != "" {
		want = "./" + sub
	}
	if v.obj && len(v.keys) > 0 && strings.HasPrefix(v.keys[0], ".") {
		for i, k := range v.keys {
			if star, ok := matchPattern(k, want); ok {
				ts, _ := v.vals[i].targets(conds, exists)
				for j := range ts {
					ts[j] = strings.Replace(ts[j], "*", star, 1)
				}
				return ts
			}
		}
		return nil
	}
	if want != "." {
		return nil
	}
	ts, _ := v.targets(conds, exists)
	return ts
}

// ordered is a JSON value with its object keys in order.
type ordered struct {
	str        string
	isStr, obj bool
	keys       []string
	vals       []ordered // an object's values, or an array's
}

func decodeOrdered(d *json.Decoder) (ordered, error) {
	tok, err := d.Token()
	if err != nil {
		return ordered{}, err
	}
	switch t := tok.(type) {
	case string:
		return ordered{str: t, isStr: true}, nil
	case json.Delim:
		v := ordered{obj: t == '{'}
		for d.More() {
			if v.obj {
				k, err := d.Token()
				if err != nil {
					return v, err
				}
				s, _ := k.(string)
				v.keys = append(v.keys, s)
			}
			e, err := decodeOrdered(d)
			if err != nil {
				return v, err
			}
			v.vals = append(v.vals, e)
		}
		_, err := d.Token()
		return v, err
	}
	return ordered{}, nil // null, a number, a boolean: no target
}

// targets lists what a conditional value may give; definite is set when the compiler
// surely stops at it.
func (v ordered) targets(conds map[string]bool, exists func(string) bool) (out []string, definite bool) {
	switch {
	case v.isStr:
		return []string{v.str}, !strings.Contains(v.str, "*") && exists(v.str)
	case v.obj:
		for i, k := range v.keys {
			if !conds[k] && !strings.HasPrefix(k, "types@") {
				continue
			}
			ts, def := v.vals[i].targets(conds, exists)
			out = append(out, ts...)
			if def && (k == "types" || k == "default") {
				return out, true
			}
		}
	default:
		for _, e := range v.vals {
			ts, _ := e.targets(conds, exists)
			out = append(out, ts...)
		}
	}
	return out, false
}
