package resolve

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/tsconfig"
)

// The compiler's options come from the trusted side of the change (tsconfig/weaken.go):
// each changed file is checked under the configuration that owns it in the head, with
// every option that configuration loosens against the one that owned the file at the
// base set back to the base's value, the base's include and exclude in force, and the
// project's paths aliases minus those that send a package's name elsewhere. The
// loosening itself is reported by the scope dimension (scope/gate-config-changed,
// through Weakenings), unless the base policy allows changes to the gate's
// configuration, in which case the head's configuration is trusted as it is.

// trustedFS is the tree the trusted configurations are read from: the base, with
// node_modules read from the environment (a configuration extended from a package is
// installed, not committed). Nil when the head is trusted: check mode, a base-view pass,
// no base tree, or a base policy that allows changes to the gate's configuration.
func trustedFS(req *lang.Request, env fs.FS) fs.FS {
	set := req.Changes
	if set.NoBase || req.Focus != nil || set.BaseFS == nil || env == nil {
		return nil
	}
	if p := req.Policy; p != nil && p.Scope != nil && p.Scope.AllowGateConfigChanges {
		return nil
	}
	return envFS{tree: set.BaseFS, env: env}
}

// trustedOrHead is the trusted tree, or the head when the head is trusted.
func (j *job) trustedOrHead() fs.FS {
	if t := trustedFS(j.req, j.envOf()); t != nil {
		return t
	}
	return j.headFS()
}

// envFS is a tree whose node_modules come from another file system.
type envFS struct{ tree, env fs.FS }

func (e envFS) Open(name string) (fs.File, error) {
	if name == "node_modules" || strings.HasPrefix(name, "node_modules/") || strings.Contains(name, "/node_modules/") {
		return e.env.Open(name)
	}
	return e.tree.Open(name)
}

// envOf is the file system node_modules are read from: the disk at the root, else the
// head tree.
func (j *job) envOf() fs.FS {
	if j.req.Changes.Root != "" {
		return os.DirFS(j.req.Changes.Root)
	}
	return j.headFS()
}

// trustedOwner returns the configuration that owns the file at p on the trusted side
// and what head (its owner in the head) loosens against it; nil, nil when the head is
// trusted.
func trustedOwner(tfs fs.FS, p string, head *tsconfig.Config, cache map[string]*tsconfig.Config) (*tsconfig.Config, []tsconfig.Weakening) {
	if tfs == nil {
		return nil, nil
	}
	b, err := tsconfig.Owner(tfs, p, cache)
	if err != nil {
		b = nil // a base configuration that does not read: the head's is all there is
	}
	if head == nil && b != nil {
		// The change removes the configuration: its options still count.
		empty := &tsconfig.Config{Dir: b.Dir, Set: map[string]tsconfig.Setting{}, Include: b.Include, Exclude: b.Exclude, Files: b.Files}
		return b, tsconfig.Weakened(b, empty)
	}
	return b, tsconfig.Weakened(b, head)
}

// pin sets, in the wrapper configuration w (its compilerOptions opts), the trusted
// value of every option g's configuration loosens; dir is where the compiler reads the
// tree.
func pin(w, opts map[string]any, dir string, g *group) {
	for _, wk := range g.weak {
		switch {
		case wk.Option == "paths": // with the references' (wrapper)
		case wk.Option == "include" && w["include"] == nil:
			w["include"] = absAll(dir, g.trusted.IncludeList())
		case wk.Option == "exclude":
			w["exclude"] = absAll(dir, g.trusted.ExcludeList())
		case wk.Option == "files":
			files, _ := w["files"].([]string)
			w["files"] = append(files, absAll(dir, g.trusted.Files)...)
		case wk.Option == "include":
		case g.plain && tsconfig.Tightening(wk.Option):
			// a plain JavaScript check is loose by design; only modules count there
		default:
			opts[wk.Option] = trustedValue(dir, wk)
		}
	}
	if v, ok := opts["typeRoots"]; ok && v == nil {
		opts["typeRoots"] = typeRoots(dir, g.dir()) // back to the project's own @types
	}
}

// trustedValue is the trusted side's setting of the option, paths made absolute; nil
// (JSON null: the compiler's default) when the trusted side does not set it.
func trustedValue(dir string, wk tsconfig.Weakening) any {
	s := wk.Trusted
	if s == nil {
		return nil
	}
	if !tsconfig.PathValued(wk.Option) {
		return json.RawMessage(s.Raw)
	}
	var one string
	if json.Unmarshal(s.Raw, &one) == nil {
		return filepath.Join(dir, filepath.FromSlash(path.Join(s.Dir, one)))
	}
	var many []string
	_ = json.Unmarshal(s.Raw, &many)
	for i, p := range many {
		many[i] = filepath.Join(dir, filepath.FromSlash(path.Join(s.Dir, p)))
	}
	return many
}

func absAll(dir string, ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = filepath.Join(dir, filepath.FromSlash(p))
	}
	return out
}

func absPaths(dir string, m map[string][]string) map[string][]string {
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = absAll(dir, v)
	}
	return out
}

func hasOption(ws []tsconfig.Weakening, name string) bool {
	return slices.ContainsFunc(ws, func(w tsconfig.Weakening) bool { return w.Option == name })
}

// Weakenings reports, for each configuration file the change touches, what it loosens
// against the trusted side (lang.ConfigGuard): the configuration itself when the base
// has one at the same path, else the one that owned the directory at the base (a new,
// nearer configuration, or the base's defaults); and each file that steers installs
// whose settings it changes (.npmrc's registries, .yarnrc, .yarnrc.yml, .pnpmfile.cjs,
// pnpm-workspace.yaml: npmrc.go). Nothing when the head is trusted.
func Weakenings(req *lang.Request) []lang.Problem {
	set := req.Changes
	env := set.HeadFS
	if set.Root != "" {
		env = os.DirFS(set.Root)
	}
	tfs := trustedFS(req, env)
	if tfs == nil {
		return nil
	}
	headFS := set.HeadFS
	if headFS == nil {
		headFS = env
	}
	out := installChanges(set.Files)
	cache := map[string]*tsconfig.Config{}
	for _, f := range set.Files {
		if f.TooLarge || f.Binary || !tsconfig.IsConfig(f.Path, f.Base, f.Head) {
			continue
		}
		head, err := headConfig(envFS{tree: headFS, env: env}, f.Path, f.Head != nil)
		if err != nil {
			continue // a configuration that does not read is the resolver's syntax error
		}
		trusted := baseConfig(tfs, f.Path, f.OldPath, cache)
		if head == nil && trusted == nil {
			continue
		}
		if head == nil {
			head = &tsconfig.Config{Dir: trusted.Dir, Set: map[string]tsconfig.Setting{}, Include: trusted.Include, Exclude: trusted.Exclude, Files: trusted.Files}
		}
		what := "the change's " + f.Path
		if f.Head == nil {
			what = "deleting " + f.Path
		}
		if ws := tsconfig.Weakened(trusted, head); len(ws) > 0 {
			out = append(out, lang.Problem{Kind: lang.GateConfigChanged, Location: lang.Location{File: f.Path, Line: 1}, Symbol: f.Path,
				Message:    what + " " + tsconfig.Describe(ws) + ": the TypeScript and JavaScript it configures were checked with the base's options instead",
				Suggestion: "revert the loosening; a change to how the compiler checks the project needs a human (or scope.allow_gate_config_changes in the base policy)"})
		}
	}
	return out
}

// headConfig is the changed configuration file at p as the head has it, or, when the
// change deletes it, the configuration that owns its directory in the head instead.
func headConfig(fsys fs.FS, p string, exists bool) (*tsconfig.Config, error) {
	if exists {
		return tsconfig.Load(fsys, p)
	}
	return tsconfig.Owner(fsys, path.Join(path.Dir(p), "agentverify-probe.ts"), map[string]*tsconfig.Config{})
}

// baseConfig is the trusted configuration a changed configuration file is compared
// with: the base's at the same (or former) path, else the one that owned its directory.
func baseConfig(tfs fs.FS, p, old string, cache map[string]*tsconfig.Config) *tsconfig.Config {
	for _, cp := range []string{p, old} {
		if cp == "" {
			continue
		}
		if c, err := tsconfig.Load(tfs, cp); err == nil {
			return c
		}
	}
	c, err := tsconfig.Owner(tfs, path.Join(path.Dir(p), "agentverify-probe.ts"), cache)
	if err != nil {
		return nil
	}
	return c
}
