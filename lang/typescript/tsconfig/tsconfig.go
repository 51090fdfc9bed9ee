// Package tsconfig reads the TypeScript project configuration files (tsconfig.json,
// jsconfig.json) as the compiler does: JSON with comments and trailing commas, `extends`
// followed (relative paths and packages in node_modules, arrays of them), and the
// files, include and exclude of each project, so that a changed file is checked under
// the project that owns it. It reads only what agentverify needs; the compiler reads the
// rest itself.
package tsconfig

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Config is one project's configuration with what it extends merged in.
type Config struct {
	// Path is the configuration file's slash path in the tree; Dir its directory.
	Path, Dir string
	// Files, Include and Exclude are as written (relative to the file that wrote them,
	// made relative to the tree's root here); nil when no file in the chain sets them.
	Files, Include, Exclude []string
	// References are the slash paths of the referenced projects' configuration files.
	References []string
	Options    Options
	// Set holds every compiler option the chain sets, by lower-case name, as written
	// (the last file to set it wins; null unsets): what Weakened compares.
	Set map[string]Setting
}

// Setting is one compiler option as a configuration file writes it.
type Setting struct {
	// Name is the option's name as written; Raw its JSON value; Dir the slash directory
	// of the file that set it (relative paths in it are relative to Dir).
	Name, Dir string
	Raw       json.RawMessage
}

// Options are the compiler options agentverify reads.
type Options struct {
	Target, Module, ModuleResolution, JSX string
	Lib, Types                            []string
	AllowJs, CheckJs, Strict              *bool
	// TypeRoots is set when the configuration names its type roots.
	TypeRoots bool
	BaseURL   string // slash path in the tree
	Paths     map[string][]string
	// PathsDir is the directory paths are relative to (BaseURL, else the directory of
	// the file that set paths).
	PathsDir string
}

type rawConfig struct {
	Extends         any                     `json:"extends"`
	Files           []string                `json:"files"`
	Include         []string                `json:"include"`
	Exclude         []string                `json:"exclude"`
	References      []struct{ Path string } `json:"references"`
	CompilerOptions struct {
		Target           string              `json:"target"`
		Module           string              `json:"module"`
		ModuleResolution string              `json:"moduleResolution"`
		JSX              string              `json:"jsx"`
		Lib              []string            `json:"lib"`
		Types            []string            `json:"types"`
		AllowJs          *bool               `json:"allowJs"`
		CheckJs          *bool               `json:"checkJs"`
		Strict           *bool               `json:"strict"`
		TypeRoots        []string            `json:"typeRoots"`
		BaseURL          string              `json:"baseUrl"`
		Paths            map[string][]string `json:"paths"`
	} `json:"compilerOptions"`
}

// Load reads the configuration at p (slash path) in fsys with everything it extends.
func Load(fsys fs.FS, p string) (*Config, error) {
	return load(fsys, p, 0)
}

func load(fsys fs.FS, p string, depth int) (*Config, error) {
	if depth > 16 {
		return nil, fmt.Errorf("%s: extends nests more than 16 deep", p)
	}
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, err
	}
	var raw rawConfig
	if err := DecodeJSONC(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	var set struct {
		CompilerOptions map[string]json.RawMessage `json:"compilerOptions"`
	}
	_ = DecodeJSONC(data, &set) // it decoded as rawConfig: an options object of another type is the compiler's to report
	c := &Config{Path: p, Dir: path.Dir(p), Set: map[string]Setting{}}
	for _, parent := range extendsOf(raw.Extends) {
		pp := resolveExtends(fsys, c.Dir, parent)
		if pp == "" {
			continue // a base configuration that is not installed: the compiler says so
		}
		base, err := load(fsys, pp, depth+1)
		if err != nil {
			return nil, err
		}
		c.merge(base)
	}
	c.own(&raw)
	for name, v := range set.CompilerOptions {
		if string(v) == "null" {
			delete(c.Set, strings.ToLower(name))
		} else {
			c.Set[strings.ToLower(name)] = Setting{Name: name, Dir: c.Dir, Raw: v}
		}
	}
	return c, nil
}

func extendsOf(v any) []string {
	switch e := v.(type) {
	case string:
		return []string{e}
	case []any:
		var out []string
		for _, x := range e {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// resolveExtends finds the file an `extends` names: a path relative to dir (".json"
// added when missing), or a package's file in the node_modules above dir.
func resolveExtends(fsys fs.FS, dir, ext string) string {
	if strings.HasPrefix(ext, "./") || strings.HasPrefix(ext, "../") || strings.HasPrefix(ext, "/") {
		p := path.Clean(path.Join(dir, ext))
		for _, c := range []string{p, p + ".json", path.Join(p, "tsconfig.json")} {
			if isFile(fsys, c) {
				return c
			}
		}
		return ""
	}
	for d := dir; ; d = path.Dir(d) {
		base := path.Join(d, "node_modules", ext)
		for _, c := range []string{base, base + ".json", path.Join(base, "tsconfig.json")} {
			if isFile(fsys, c) {
				return c
			}
		}
		if d == "." || d == "/" {
			return ""
		}
	}
}

func isFile(fsys fs.FS, p string) bool {
	st, err := fs.Stat(fsys, p)
	return err == nil && st.Mode().IsRegular()
}

// merge takes what base sets (paths already relative to the tree).
func (c *Config) merge(base *Config) {
	if base.Files != nil {
		c.Files = base.Files
	}
	if base.Include != nil {
		c.Include = base.Include
	}
	if base.Exclude != nil {
		c.Exclude = base.Exclude
	}
	maps.Copy(c.Set, base.Set)
	o, b := &c.Options, base.Options
	for _, s := range []struct {
		dst *string
		v   string
	}{{&o.Target, b.Target}, {&o.Module, b.Module},
		{&o.ModuleResolution, b.ModuleResolution}, {&o.JSX, b.JSX}, {&o.BaseURL, b.BaseURL}, {&o.PathsDir, b.PathsDir}} {
		if s.v != "" {
			*s.dst = s.v
		}
	}
	if b.Lib != nil {
		o.Lib = b.Lib
	}
	if b.Types != nil {
		o.Types = b.Types
	}
	if b.AllowJs != nil {
		o.AllowJs = b.AllowJs
	}
	if b.CheckJs != nil {
		o.CheckJs = b.CheckJs
	}
	if b.Strict != nil {
		o.Strict = b.Strict
	}
	o.TypeRoots = o.TypeRoots || b.TypeRoots
	if b.Paths != nil {
		o.Paths = b.Paths
	}
}

// own applies the file's own settings over what it extends.
func (c *Config) own(raw *rawConfig) {
	rel := func(ps []string) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = path.Clean(path.Join(c.Dir, p))
		}
		return out
	}
	if raw.Files != nil {
		c.Files = rel(raw.Files)
	}
	if raw.Include != nil {
		c.Include = rel(raw.Include)
	}
	if raw.Exclude != nil {
		c.Exclude = rel(raw.Exclude)
	}
	for _, r := range raw.References {
		p := path.Clean(path.Join(c.Dir, r.Path))
		if !strings.HasSuffix(p, ".json") {
			p = path.Join(p, "tsconfig.json")
		}
		c.References = append(c.References, p)
	}
	c.ownOptions(raw)
}

// ownOptions applies the file's own compiler options.
func (c *Config) ownOptions(raw *rawConfig) {
	co, o := raw.CompilerOptions, &c.Options
	for _, s := range []struct {
		dst *string
		v   string
	}{{&o.Target, co.Target}, {&o.Module, co.Module},
		{&o.ModuleResolution, co.ModuleResolution}, {&o.JSX, co.JSX}} {
		if s.v != "" {
			*s.dst = strings.ToLower(s.v)
		}
	}
	if co.Lib != nil {
		o.Lib = co.Lib
	}
	if co.Types != nil {
		o.Types = co.Types
	}
	o.AllowJs, o.CheckJs, o.Strict = either(co.AllowJs, o.AllowJs), either(co.CheckJs, o.CheckJs), either(co.Strict, o.Strict)
	o.TypeRoots = o.TypeRoots || co.TypeRoots != nil
	if co.BaseURL != "" {
		o.BaseURL = path.Clean(path.Join(c.Dir, co.BaseURL))
		o.PathsDir = o.BaseURL
	}
	if co.Paths != nil {
		o.Paths = co.Paths
		if co.BaseURL == "" {
			o.PathsDir = c.Dir
		}
	}
}

// Solution reports whether the configuration only references other projects (files
// empty, references set): a file belongs to one of those.
func (c *Config) Solution() bool {
	return len(c.References) > 0 && c.Files != nil && len(c.Files) == 0 && (c.Include == nil || len(c.Include) == 0)
}

// Includes reports whether the project holds the file at p (slash path in the tree) as
// its files, include and exclude say (include defaults to everything under the
// configuration's directory; exclude to node_modules and the like).
func (c *Config) Includes(p string) bool {
	if slices.Contains(c.Files, p) {
		return true
	}
	include := c.Include
	if include == nil {
		if c.Files != nil {
			return false
		}
		include = []string{c.Dir}
	}
	if !matchAny(include, p) {
		return false
	}
	exclude := c.Exclude
	if exclude == nil {
		exclude = []string{path.Join(c.Dir, "node_modules"), path.Join(c.Dir, "bower_components"), path.Join(c.Dir, "jspm_packages")}
	}
	return !matchAny(exclude, p)
}

// matchAny matches p against tsconfig patterns: a pattern without wildcards names a
// file or everything under a directory; '*', '?' and '**/' are globs.
func matchAny(patterns []string, p string) bool {
	for _, pat := range patterns {
		pat = strings.TrimPrefix(pat, "./")
		if pat == "." || pat == p || strings.HasPrefix(p, strings.TrimSuffix(pat, "/")+"/") {
			return true
		}
		if !strings.ContainsAny(pat, "*?") {
			continue
		}
		if ok, _ := doublestar.Match(pat, p); ok {
			return true
		}
		if ok, _ := doublestar.Match(strings.TrimSuffix(pat, "/")+"/**", p); ok && !strings.Contains(path.Base(pat), ".") {
			return true
		}
	}
	return false
}

// either is v when set, else dflt.
func either(v, dflt *bool) *bool {
	if v != nil {
		return v
	}
	return dflt
}
