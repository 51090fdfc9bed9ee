package tsconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
)

// A change may edit the configuration that decides how its own code is checked: turn
// strict off, add noCheck, raise lib so that a newer API passes, add a paths entry that
// sends a package's name to a local stub, exclude the file it breaks. The compiler's
// options then come from the trusted side of the change (the configuration that owns
// the file at the base), and what the change's configuration loosens is reported
// (Weakened); a change that only tightens its configuration is checked under it.

// Weakening is one way a configuration checks less than the trusted one.
type Weakening struct {
	// Option is the option's name ("strict", "paths"), or include, exclude or files.
	Option string
	// What says what the change does ("turns off strict"), for the report.
	What string
	// Trusted is the trusted configuration's setting (nil: it does not set the option).
	Trusted *Setting
}

// strictFamily are the checks strict turns on unless each is set itself.
var strictFamily = []string{"noImplicitAny", "strictNullChecks", "strictFunctionTypes", "strictBindCallApply",
	"strictPropertyInitialization", "strictBuiltinIteratorReturn", "noImplicitThis", "useUnknownInCatchVariables", "alwaysStrict"}

// tightening are options that, true, make the compiler report more (off by default).
var tightening = []string{"checkJs", "noImplicitReturns", "noFallthroughCasesInSwitch", "noUncheckedIndexedAccess",
	"exactOptionalPropertyTypes", "noImplicitOverride", "noPropertyAccessFromIndexSignature", "noUnusedLocals", "noUnusedParameters"}

// loosening are options that, true, make the compiler report less.
var loosening = []string{"noCheck", "noResolve", "allowUnreachableCode", "allowUnusedLabels", "suppressImplicitAnyIndexErrors",
	"suppressExcessPropertyErrors", "noStrictGenericChecks", "keyofStringsOnly", "allowUmdGlobalAccess", "allowArbitraryExtensions"}

// pinned are options any change to which may hide an error: the library and target an
// API is checked against, how module names resolve to files.
var pinned = []string{"lib", "target", "module", "moduleResolution", "baseUrl", "typeRoots", "rootDirs", "moduleSuffixes", "customConditions"}

// pathValued are the pinned options whose values are paths relative to Setting.Dir.
var pathValued = map[string]bool{"baseurl": true, "typeroots": true, "rootdirs": true}

// Weakened lists what head (the configuration that owns a file in the change's head)
// loosens against trusted (the one that owns it at the base; nil when none did, which
// is the compiler's defaults), in a stable order. Nil head checks under agentverify's
// defaults and loosens nothing.
func Weakened(trusted, head *Config) []Weakening {
	if head == nil {
		return nil
	}
	none := trusted == nil
	if none {
		trusted = &Config{Dir: head.Dir, Set: map[string]Setting{}}
	}
	w := &weakenings{trusted: trusted, head: head}
	w.flags(none)
	if !none { // the defaults of a file no project owns are the widest already
		w.pinned()
	}
	if ks := redirected(trusted, head); len(ks) > 0 {
		w.add("paths", fmt.Sprintf("sends %s elsewhere through paths", strings.Join(ks, ", ")))
	}
	if !none {
		w.out = append(w.out, membership(trusted, head)...)
	}
	return w.out
}

// weakenings collects what head loosens against trusted.
type weakenings struct {
	trusted, head *Config
	out           []Weakening
}

func (w *weakenings) add(opt, what string) {
	w.out = append(w.out, Weakening{Option: opt, What: what, Trusted: w.trusted.setting(opt)})
}

// flags compares the boolean options: strict and its checks, the tightening and the
// loosening ones.
func (w *weakenings) flags(none bool) {
	head, trusted := w.head, w.trusted
	for _, o := range append([]string{"strict"}, strictFamily...) {
		// A check that follows strict on both sides goes with strict.
		follows := o != "strict" && head.flag(o) == "" && trusted.flag(o) == ""
		if !none && !follows && strictRank(head, o) < strictRank(trusted, o) {
			w.add(o, "turns off "+o)
		}
	}
	for _, o := range tightening {
		if head.flag(o) != "true" && trusted.flag(o) == "true" {
			w.add(o, "turns off "+o)
		}
	}
	for _, o := range loosening {
		if head.flag(o) == "true" && trusted.flag(o) != "true" {
			w.add(o, "turns on "+o)
		}
	}
}

// pinned compares the options any change to which may hide an error.
func (w *weakenings) pinned() {
	for _, o := range pinned {
		if h, t := w.head.value(o), w.trusted.value(o); h != t {
			w.add(o, fmt.Sprintf("changes %s from %s to %s", o, shown(t), shown(h)))
		}
	}
}

// setting returns the configuration's setting of the option named name, nil if unset.
func (c *Config) setting(name string) *Setting {
	if s, ok := c.Set[strings.ToLower(name)]; ok {
		return &s
	}
	return nil
}

// flag is a boolean option's JSON value ("true", "false"), "" when unset.
func (c *Config) flag(name string) string {
	if s := c.setting(name); s != nil {
		return strings.TrimSpace(string(s.Raw))
	}
	return ""
}

// strictRank orders a strict-family option's effective value: 2 on, 1 unset (on or
// off by the compiler's version), 0 off.
func strictRank(c *Config, name string) int {
	v := c.flag(name)
	if v == "" && name != "strict" {
		v = c.flag("strict")
	}
	switch v {
	case "true":
		return 2
	case "":
		return 1
	}
	return 0
}

// value is a pinned option's value in a comparable form: lower case, paths resolved
// against the directory of the file that set it; "" when unset.
func (c *Config) value(name string) string {
	s := c.setting(name)
	if s == nil {
		return ""
	}
	if !pathValued[strings.ToLower(name)] {
		var v any
		if json.Unmarshal(s.Raw, &v) != nil {
			return string(s.Raw)
		}
		b, _ := json.Marshal(v)
		return strings.ToLower(string(b))
	}
	var one string
	var many []string
	if json.Unmarshal(s.Raw, &one) == nil {
		return path.Join(s.Dir, one)
	}
	_ = json.Unmarshal(s.Raw, &many)
	for i, p := range many {
		many[i] = path.Join(s.Dir, p)
	}
	return strings.Join(many, ",")
}

func shown(v string) string {
	if v == "" {
		return "unset"
	}
	return v
}

// redirected returns the paths patterns of head that name a package (not an alias
// such as "@/*" or "~/*" that no package can have) and that trusted does not have with
// the same targets: an import of the package would resolve to a file of the change's
// choosing while Node loads the package itself.
func redirected(trusted, head *Config) []string {
	var out []string
	for k, v := range head.Options.Paths {
		t, ok := trusted.Options.Paths[k]
		if packageLike(k) && (!ok || !slices.Equal(resolved(head, v), resolved(trusted, t))) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// packageLike reports whether a paths pattern can match a bare package specifier ("*"
// matches them all).
func packageLike(pattern string) bool {
	prefix, _, _ := strings.Cut(pattern, "*")
	if prefix == "" || prefix == "@" {
		return true // every package, every scoped one
	}
	p := strings.TrimSuffix(prefix, "/")
	if p == "" || p == "@" || strings.ContainsAny(p[:1], "./~#$") || strings.HasPrefix(p, "@/") {
		return false
	}
	return !strings.Contains(strings.SplitN(p, "/", 2)[0], ":")
}

// TrustedPaths returns the paths mapping to check head's files with, targets as slash
// paths in the tree: head's, except that a package-like pattern head adds or changes
// (redirected) has trusted's targets, or none.
func TrustedPaths(trusted, head *Config) map[string][]string {
	if head == nil {
		return nil
	}
	if trusted == nil {
		trusted = &Config{}
	}
	out := map[string][]string{}
	for k, v := range head.Options.Paths {
		out[k] = resolved(head, v)
	}
	for _, k := range redirected(trusted, head) {
		if t, ok := trusted.Options.Paths[k]; ok {
			out[k] = resolved(trusted, t)
		} else {
			delete(out, k)
		}
	}
	return out
}

func resolved(c *Config, targets []string) []string {
	out := make([]string, len(targets))
	for i, t := range targets {
		out[i] = path.Join(c.Options.PathsDir, t)
	}
	return out
}

// membership reports the files head's project leaves out that trusted's holds: an
// include pattern dropped, an exclude pattern added, a listed file removed.
func membership(trusted, head *Config) []Weakening {
	var out []Weakening
	if missing := lacking(trusted.includes(), head.includes()); missing != "" {
		out = append(out, Weakening{Option: "include", What: "drops " + missing + " from include"})
	}
	if added := lacking(head.excludes(), trusted.excludes()); added != "" {
		out = append(out, Weakening{Option: "exclude", What: "adds " + added + " to exclude"})
	}
	if missing := lacking(trusted.Files, head.Files); missing != "" {
		out = append(out, Weakening{Option: "files", What: "drops " + missing + " from files"})
	}
	return out
}

// lacking returns the first of want that have does not hold, "" when none.
func lacking(want, have []string) string {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return w
		}
	}
	return ""
}

// includes is the include list in force: everything under the configuration's
// directory when it sets neither files nor include.
func (c *Config) includes() []string {
	if c.Include == nil && c.Files == nil {
		return []string{c.Dir}
	}
	return c.Include
}

// excludes is the exclude list in force: by default the package directories and the
// output directory, as the compiler has it.
func (c *Config) excludes() []string {
	if c.Exclude != nil {
		return c.Exclude
	}
	out := []string{path.Join(c.Dir, "node_modules"), path.Join(c.Dir, "bower_components"), path.Join(c.Dir, "jspm_packages")}
	if s, ok := c.Set["outdir"]; ok {
		var dir string
		if json.Unmarshal(s.Raw, &dir) == nil && dir != "" {
			out = append(out, path.Join(s.Dir, dir))
		}
	}
	return out
}

// IncludeList returns the include list in force (slash paths in the tree).
func (c *Config) IncludeList() []string { return c.includes() }

// ExcludeList returns the exclude list in force (slash paths in the tree).
func (c *Config) ExcludeList() []string { return c.excludes() }

// Describe joins what ws say, for one message.
func Describe(ws []Weakening) string {
	var b bytes.Buffer
	for i, w := range ws {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(w.What)
	}
	return b.String()
}

// Tightening reports whether the option named name makes the compiler report more when
// on: strict, the checks it implies, checkJs and the like.
func Tightening(name string) bool {
	return name == "strict" || slices.Contains(strictFamily, name) || slices.Contains(tightening, name)
}

// PathValued reports whether the option named name holds paths.
func PathValued(name string) bool { return pathValued[strings.ToLower(name)] }

// IsConfig reports whether the file at p with the given contents (either may be nil) is
// a configuration the compiler may read: tsconfig*.json, jsconfig*.json, or JSON with
// compiler options (a file another configuration extends).
func IsConfig(p string, contents ...[]byte) bool {
	base := path.Base(p)
	if path.Ext(base) != ".json" {
		return false
	}
	if strings.HasPrefix(base, "tsconfig") || strings.HasPrefix(base, "jsconfig") {
		return true
	}
	for _, c := range contents {
		if bytes.Contains(c, []byte(`"compilerOptions"`)) {
			return true
		}
	}
	return false
}
