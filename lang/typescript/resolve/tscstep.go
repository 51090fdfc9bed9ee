package resolve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
	"github.com/agentverify/agentverify/lang/typescript/tsc"
	"github.com/agentverify/agentverify/lang/typescript/tsconfig"
)

// group is the changed files one project owns.
type group struct {
	config  *tsconfig.Config // nil: files no configuration owns
	targets []*target
	// plain is set for JavaScript files the project does not type-check: the compiler
	// checks them only for what they take from modules (see plainJS).
	plain bool
	// trusted is the configuration that owned the files at the base, weak what config
	// loosens against it (trusted.go): those options are the base's in the check.
	trusted *tsconfig.Config
	weak    []tsconfig.Weakening
	// refs are the projects config references (refs.go); dependent is set for a
	// project that references a changed one and has no changed file of its own.
	refs      []*tsconfig.Config
	dependent bool
	// narrow is set when the change cannot reach the project's other files: the
	// compiler starts from the changed files and roots, the project's files that declare
	// globals, and only the changed files' errors count (narrow.go); with reached,
	// the unchanged files a change of exports reaches, whose errors count too
	// (importers.go).
	narrow  bool
	roots   []string
	reached []string
}

// tscStep checks the changed files with the compiler and reports its errors.
func tscStep(j *job) ([]lang.Problem, error) {
	groups, out := j.groups()
	if len(groups) == 0 {
		return out, nil
	}
	set := j.req.Changes
	tool, err := tsc.Find(set.Root)
	if err != nil {
		return nil, &lang.SetupError{Err: err}
	}
	content, vouched, err := j.content()
	if err != nil {
		return nil, err
	}
	for _, g := range groups {
		j.narrowing(g, content)
	}
	typed, plain := serverable(groups)
	var diags []located
	if j.r.Servers != nil && tool.Native() && set.OnDisk && set.Root != "" && len(typed) > 0 {
		diags, err = j.warm(tool, typed, content)
		typed = nil
	}
	if err != nil {
		return nil, err
	}
	if batch := append(typed, plain...); len(batch) > 0 {
		ds, err := j.batch(tool, batch, content)
		if err != nil {
			return nil, err
		}
		diags = append(diags, ds...)
	}
	ps := j.problems(diags, content)
	noteVouched(ps, vouched)
	return append(out, ps...), nil
}

// serverable splits the groups into those the language server can check and the
// others: it reads the head's configuration, and it checks open files.
func serverable(groups []*group) (typed, plain []*group) {
	for _, g := range groups {
		if g.plain || len(g.weak) > 0 || g.dependent {
			plain = append(plain, g)
		} else {
			typed = append(typed, g)
		}
	}
	return typed, plain
}

// located is a diagnostic whose file is repository-relative ("" for the project as a
// whole).
type located struct {
	tsc.Diagnostic
	file string
	// plain is set for the diagnostics of a plain JavaScript check.
	plain bool
	// narrow is set for a file's diagnostics in a narrowed check: only the changed
	// files' count.
	narrow bool
}

// groups sorts the changed files the compiler checks by the project that owns them; a
// configuration that does not read is a problem of its own.
func (j *job) groups() ([]*group, []lang.Problem) {
	fsys := j.headFS()
	tfs := trustedFS(j.req, j.envOf())
	cache, trustedCache := map[string]*tsconfig.Config{}, map[string]*tsconfig.Config{}
	byConfig := map[string]*group{}
	var out []lang.Problem
	for _, t := range j.targets {
		c, err := tsconfig.Owner(fsys, t.f.Path, cache)
		if err != nil {
			out = append(out, configProblem(err))
			continue
		}
		b, weak := trustedOwner(tfs, t.f.Path, c, trustedCache)
		plain := !checked(t, c) && !hasOption(weak, "checkJs")
		key := ""
		if c != nil {
			key = c.Path
		}
		if b != nil && len(weak) > 0 {
			key += "\x00trusted " + b.Path
		}
		if plain {
			key = "\x00plain " + key
		}
		g := byConfig[key]
		if g == nil {
			g = &group{config: c, plain: plain, trusted: b, weak: weak}
			byConfig[key] = g
		}
		g.targets = append(g.targets, t)
	}
	j.addDependents(fsys, tfs, byConfig, cache, trustedCache)
	keys := make([]string, 0, len(byConfig))
	for k := range byConfig {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	groups := make([]*group, len(keys))
	for i, k := range keys {
		groups[i] = byConfig[k]
	}
	return groups, out
}

// addDependents gives each typed project its references and, in diff mode, adds the
// projects that reference a changed one (refs.go).
func (j *job) addDependents(fsys, tfs fs.FS, byConfig map[string]*group, cache, trustedCache map[string]*tsconfig.Config) {
	var dependent []*tsconfig.Config
	for _, g := range byConfig {
		if g.config == nil || g.plain {
			continue
		}
		g.refs = referenced(fsys, g.config, cache)
		if !j.req.Changes.NoBase {
			dependent = append(dependent, dependents(fsys, g.config, cache)...)
		}
	}
	for _, d := range dependent {
		if _, ok := byConfig[d.Path]; ok {
			continue
		}
		b, weak := trustedOwner(tfs, path.Join(d.Dir, "agentverify-probe.ts"), d, trustedCache)
		byConfig[d.Path] = &group{config: d, trusted: b, weak: weak, refs: referenced(fsys, d, cache), dependent: true}
	}
}

// dir is where the group's project is: its configuration's directory, else its first
// file's.
func (g *group) dir() string {
	if g.config != nil {
		return g.config.Dir
	}
	return path.Dir(g.targets[0].f.Path)
}

// configProblem reports a configuration file that does not read.
func configProblem(err error) lang.Problem {
	file, msg, _ := strings.Cut(err.Error(), ": ")
	return lang.Problem{Kind: lang.SyntaxErrorKind, Location: lang.Location{File: file, Line: 1}, Message: msg, Symbol: file}
}

// checked reports whether the compiler checks the file: TypeScript always; JavaScript
// when its project checks JavaScript (checkJs) or the file asks for it (// @ts-check).
func checked(t *target, c *tsconfig.Config) bool {
	if !syntax.IsJS(t.f.Path) {
		return true
	}
	if bytes.Contains(t.src, []byte("@ts-check")) {
		return true
	}
	return c != nil && c.Options.CheckJs != nil && *c.Options.CheckJs
}

// headFS is the head tree to read configurations from.
func (j *job) headFS() fs.FS {
	set := j.req.Changes
	if set.HeadFS != nil {
		return set.HeadFS
	}
	return os.DirFS(set.Root)
}

// batch runs the compiler once per project, in place or over a mirror of the head.
func (j *job) batch(tool *tsc.Tool, groups []*group, content map[string][]byte) ([]located, error) {
	dir, cleanup, mirror := j.req.Changes.Root, func() {}, !j.inPlace(content)
	if mirror {
		var err error
		if dir, cleanup, err = j.mirror(content); err != nil {
			return nil, err
		}
	} else if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	defer cleanup()
	var out []located
	for _, g := range groups {
		ds, err := j.checkGroup(tool, tree{dir, mirror}, g)
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
	}
	return out, nil
}

// checkGroup checks one project under a configuration that extends it, falling back to
// an older compiler when TypeScript 7 refuses the project's configuration.
func (j *job) checkGroup(tool *tsc.Tool, dir tree, g *group) ([]located, error) {
	ds, err := j.runGroup(tool, dir, g)
	if err != nil || !tool.Native() || !refused(ds) {
		return ds, err
	}
	older := tsc.FindOlder(j.req.Changes.Root)
	if older == nil {
		var opts []string
		for _, d := range ds {
			if tsc.Removed(d.Diagnostic) {
				opts = append(opts, d.Message)
			}
		}
		return nil, &lang.SetupError{Err: fmt.Errorf("TypeScript %s refuses %s: %s; install the TypeScript the project is written for (`npm install -D typescript@5` in the project, or set %s_FALLBACK to its tsc)",
			tool.Version, configName(g), strings.Join(opts, "; "), tsc.EnvVar)}
	}
	return j.runGroup(older, dir, g)
}

func refused(ds []located) bool {
	for _, d := range ds {
		if tsc.Removed(d.Diagnostic) {
			return true
		}
	}
	return false
}

func configName(g *group) string {
	if g.config == nil {
		return "the default configuration"
	}
	return g.config.Path
}

// tree is where the compiler reads the head: the repository, or a mirror of it.
type tree struct {
	dir    string
	mirror bool
}

// runGroup writes the configuration for g and runs the compiler with it, incrementally
// (buildinfo.go).
func (j *job) runGroup(tool *tsc.Tool, t tree, g *group) ([]located, error) {
	dir := t.dir
	wrap, err := os.MkdirTemp("", "agentverify-tsconfig-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(wrap)
	cfg := filepath.Join(wrap, "tsconfig.json")
	w := j.wrapper(tool, dir, g)
	bi := j.incremental(tool, dir, t.mirror, w, g)
	data, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		return nil, err
	}
	ds, err := tool.Check(j.req.Context, tsc.Options{Config: cfg, Dir: dir})
	bi.keep(err == nil)
	if err != nil {
		return nil, err
	}
	out := make([]located, 0, len(ds))
	for _, d := range ds {
		l := located{Diagnostic: d, plain: g.plain}
		if d.File != "" {
			l.file = slash(dir, filepath.FromSlash(d.File))
			l.narrow = g.narrow && !slices.Contains(g.reached, l.file)
			if inReferenced(g.refs, l.file) {
				continue // the referenced project's own check reports its errors
			}
		} else if d.Category == "error" {
			// An error of the program as a whole (a type library not found): the
			// check did not happen as configured, which is never passed in silence.
			l.file, l.Line, l.Column = configName(g), 1, 1
			if g.config == nil {
				l.file = g.targets[0].f.Path
			}
		}
		out = append(out, l)
	}
	return out, nil
}

// wrapper is the configuration the compiler runs with: the project's, extended, with
// nothing emitted and the changed files added to what it includes (in check mode, only
// them and what they import); a file no project owns is checked under defaults that
// accept what bundlers and Node accept.
func (j *job) wrapper(tool *tsc.Tool, dir string, g *group) map[string]any {
	opts := map[string]any{"noEmit": true, "incremental": false, "composite": false, "declaration": false,
		"declarationMap": false, "emitDeclarationOnly": false, "skipLibCheck": true}
	// rootDir is the tree: nothing is emitted, and TypeScript 7 would take the generated
	// configuration's directory for it (outDir set) and reject every file.
	opts["rootDir"] = dir
	w := map[string]any{"compilerOptions": opts}
	var files []string
	for _, t := range g.targets {
		files = append(files, filepath.Join(dir, filepath.FromSlash(t.f.Path)))
	}
	if g.config != nil {
		w["extends"] = filepath.Join(dir, filepath.FromSlash(g.config.Path))
	}
	switch {
	case g.plain:
		plainJS(opts, g.config)
	case g.config == nil:
		for k, v := range defaults {
			opts[k] = v
		}
	default:
		for _, f := range slices.Concat(g.config.Files, g.roots, g.reached) {
			files = append(files, filepath.Join(dir, filepath.FromSlash(f)))
		}
		if tool.Native() && j.olderProject(g.config) {
			compat(opts, g.config)
		}
	}
	j.scope(w, dir, g)
	if g.config == nil || !g.config.Options.TypeRoots {
		// The compiler looks for @types beside the configuration it runs, which is
		// ours: name the project's type roots.
		opts["typeRoots"] = typeRoots(dir, g.dir())
	}
	w["files"] = files
	if len(g.weak) > 0 {
		pin(w, opts, dir, g)
	}
	j.pathsOf(opts, dir, g)
	files = w["files"].([]string)
	sort.Strings(files)
	w["files"] = slices.Compact(files)
	return w
}

// scope sets which files the check holds besides the changed ones: none in check mode,
// for a plain JavaScript check, without a project and in a narrowed check (its roots
// are files); the project's include otherwise.
func (j *job) scope(w map[string]any, dir string, g *group) {
	switch {
	case j.req.Changes.NoBase || g.config == nil || g.plain || g.narrow:
		w["include"] = []string{}
	case g.config.Include == nil && g.config.Files == nil:
		// The project includes everything under it by default, which a files list of
		// our own would turn off: say so, with the default exclusions, in its directory.
		w["include"], w["exclude"] = absAll(dir, g.config.IncludeList()), absAll(dir, g.config.ExcludeList())
	}
}

// pathsOf sets the paths the check resolves with when they are not the project's own:
// without the redirects the change adds (trusted.go), with the referenced projects'
// sources (refs.go).
func (j *job) pathsOf(opts map[string]any, dir string, g *group) {
	redirected := hasOption(g.weak, "paths")
	if len(g.refs) == 0 && !redirected {
		return
	}
	paths := tsconfig.TrustedPaths(g.config, g.config)
	if redirected {
		paths = tsconfig.TrustedPaths(g.trusted, g.config)
	}
	if len(g.refs) > 0 {
		withReferences(opts, dir, paths, refPaths(j.headFS(), g.refs))
	} else {
		opts["paths"] = absPaths(dir, paths)
	}
}

// plainJS sets the options of a check of JavaScript files the project does not
// type-check: checked (checkJs), but loosely (no strict, implicit any allowed), under
// the project's module resolution, or the defaults' without a project. Only what the
// files take from modules counts (see problems): a named import or a member of a module
// that the module's declarations (its own .d.ts or @types) do not have, an object
// option a typed function does not take.
func plainJS(opts map[string]any, c *tsconfig.Config) {
	if c == nil {
		for k, v := range defaults {
			opts[k] = v
		}
	} else if c.Options.Types == nil {
		opts["types"] = []string{"*"}
	}
	opts["allowJs"], opts["checkJs"], opts["strict"], opts["noImplicitAny"] = true, true, false, false
}

// defaults are the options for files no configuration owns.
var defaults = map[string]any{
	"target": "esnext", "module": "preserve", "moduleResolution": "bundler", "lib": []string{"esnext", "dom", "dom.iterable"},
	"jsx": "preserve", "allowJs": true, "checkJs": false, "strict": false, "esModuleInterop": true,
	"resolveJsonModule": true, "allowImportingTsExtensions": true, "types": []string{"*"},
}

// compat restores, for a project written for TypeScript 5 and checked by 7, the
// defaults it was written against where its configuration leaves them unset: every
// installed @types package, and no strict mode.
func compat(opts map[string]any, c *tsconfig.Config) {
	if c.Options.Types == nil {
		opts["types"] = []string{"*"}
	}
	if c.Options.Strict == nil {
		opts["strict"] = false
	}
}

// olderProject reports whether the project around c is written for a TypeScript older
// than 6: the typescript it installs, or else declares, is. The declaration is read on
// the trusted side: a change that lowers it would otherwise turn strict off (compat).
func (j *job) olderProject(c *tsconfig.Config) bool {
	fsys := j.trustedOrHead()
	for d := c.Dir; ; d = path.Dir(d) {
		if data, err := fs.ReadFile(fsys, path.Join(d, "node_modules", "typescript", "package.json")); err == nil {
			var pkg struct{ Version string }
			if json.Unmarshal(data, &pkg) == nil && pkg.Version != "" {
				return pkg.Version < "6"
			}
		}
		if data, err := fs.ReadFile(fsys, path.Join(d, "package.json")); err == nil {
			var pkg struct {
				Dependencies, DevDependencies map[string]string
			}
			if json.Unmarshal(data, &pkg) == nil {
				for _, deps := range []map[string]string{pkg.DevDependencies, pkg.Dependencies} {
					if v, ok := deps["typescript"]; ok {
						v = strings.TrimLeft(v, "^~>=v ")
						return v != "" && v < "6"
					}
				}
			}
		}
		if d == "." || d == "/" {
			return true // no TypeScript of its own: written for the one most projects use
		}
	}
}

// warm checks the changed files through the language server of the repository.
func (j *job) warm(tool *tsc.Tool, groups []*group, content map[string][]byte) ([]located, error) {
	files := map[string][]byte{}
	for _, g := range groups {
		for _, t := range g.targets {
			files[t.f.Path] = content[t.f.Path]
		}
	}
	ds, err := j.r.Servers.Check(j.req.Context, tool, j.req.Changes.Root, files)
	if err != nil {
		return nil, err
	}
	if refused(wrap(ds)) {
		return j.batch(tool, groups, content) // the server cannot check this project
	}
	return wrap(ds), nil
}

func wrap(ds []tsc.Diagnostic) []located {
	out := make([]located, len(ds))
	for i, d := range ds {
		out[i] = located{Diagnostic: d, file: d.File}
	}
	return out
}

// problems turns the compiler's errors into problems: errors in the repository's own
// files (node_modules and files outside it are the dependencies' business), in check
// mode only those of the checked files.
func (j *job) problems(ds []located, content map[string][]byte) []lang.Problem {
	set := j.req.Changes
	var out []lang.Problem
	seen := map[string]bool{}
	unparsed, kept := syntaxErrors(ds), j.resolutionKept()
	for _, d := range ds {
		if !j.counts(d, unparsed, kept) {
			continue
		}
		f := set.File(d.file)
		src, ok := content[d.file]
		if !ok {
			src = j.read(d.file)
		}
		p := classify(d.Diagnostic, d.file, src)
		if d.plain && (!plainKinds[p.Kind] || f == nil) {
			continue // untyped code: only what modules are known to export and take counts
		}
		key := fmt.Sprintf("%s:%d:%d:%s", p.Location.File, p.Location.Line, p.Location.Column, p.Message)
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	return dropCascades(out)
}

// counts reports whether the compiler's diagnostic d is a problem of the change: an
// error in the repository's own files; in check mode and in a narrowed check, in a
// changed file; in an unchanged file, not a module or name not found when the change
// keeps resolution (kept: resolutionKept); in a file tree-sitter cannot parse, only
// when the compiler can (unparsed: syntaxErrors), else tree-sitter's syntax errors stand
// for it.
func (j *job) counts(d located, unparsed map[string]bool, kept bool) bool {
	if d.Category != "error" || d.file == "" || strings.Contains("/"+d.file+"/", "/node_modules/") {
		return false
	}
	f := j.req.Changes.File(d.file)
	if f == nil {
		return !j.req.Changes.NoBase && !d.narrow && !(kept && unresolvedCodes[d.Code])
	}
	return !j.brokenFile(d.file) || !unparsed[d.file]
}

// plainKinds are the problems a plain JavaScript check reports: a name a module does
// not export, an option a typed function's parameter does not have.
var plainKinds = map[lang.Kind]bool{lang.UnknownSymbol: true, lang.UnknownKeyword: true}

// cascades are the errors that follow from another on the same line: a callback's
// parameter has no type because the method it is passed to does not exist.
var cascades = []string{"(TS7006)", "(TS7031)", "(TS7005)"}

// dropCascades removes the implicit-any errors on a line where something the code
// refers to does not exist: that one is the mistake.
func dropCascades(ps []lang.Problem) []lang.Problem {
	real := map[string]bool{}
	for _, p := range ps {
		if p.Kind != lang.TypeError && p.Kind != lang.SyntaxErrorKind {
			real[fmt.Sprintf("%s:%d", p.Location.File, p.Location.Line)] = true
		}
	}
	out := ps[:0]
	for _, p := range ps {
		cascade := false
		for _, c := range cascades {
			cascade = cascade || strings.HasSuffix(p.Message, c)
		}
		if cascade && real[fmt.Sprintf("%s:%d", p.Location.File, p.Location.Line)] {
			continue
		}
		out = append(out, p)
	}
	return out
}

// syntaxErrors are the files the compiler found syntax errors in (TS1xxx). A file
// tree-sitter cannot parse but the compiler can (a grammar gap: variance annotations,
// `in`/`out` on type parameters) is still checked: its type errors count.
func syntaxErrors(ds []located) map[string]bool {
	out := map[string]bool{}
	for _, d := range ds {
		if d.Code >= 1000 && d.Code < 2000 {
			out[d.file] = true
		}
	}
	return out
}

func (j *job) brokenFile(p string) bool {
	for _, t := range j.targets {
		if t.f.Path == p {
			return t.broken
		}
	}
	return false
}

// read returns the head content of a file of the repository the change did not touch.
func (j *job) read(p string) []byte {
	data, err := fs.ReadFile(j.headFS(), p)
	if err != nil {
		return nil
	}
	return data
}

// typeRoots lists the node_modules/@types directories in start (slash, relative to dir)
// and above it, as absolute paths: where the compiler looks for type packages.
func typeRoots(dir, start string) []string {
	out := []string{}
	for d := start; ; d = path.Dir(d) {
		p := filepath.Join(dir, filepath.FromSlash(d), "node_modules", "@types")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			out = append(out, p)
		}
		if d == "." || d == "/" {
			return out
		}
	}
}
