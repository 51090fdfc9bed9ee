// Package checktest runs a dimension over txtar test cases and checks its findings against
// "// want" expectations written in the cases, in the manner of
// golang.org/x/tools/go/analysis/analysistest. It is the one harness every dimension's
// testdata goes through.
//
// A case is a txtar archive. Its comment holds directives, one per line:
//
//	mode: diff | all | check    (default diff; check means no base)
//	want: PATH:LINE "re" ...    (expectations for files that cannot hold comments)
//	python-module: NAME         (skip unless the project's Python interpreter imports NAME)
//	published: MODULE@VERSION AGO  (a proxy/ module's publication time: AGO before now, "48h")
//
// Its files are:
//
//	-- policy --        the policy YAML (default: the built-in policy)
//	-- base/PATH --     PATH as it was at the base only
//	-- head/PATH --     PATH as it is at the head only
//	-- PATH --          PATH unchanged, the same on both sides
//	-- proxy/MODULE@VERSION/PATH --  a file of a module version the case's module proxy serves
//
// Go modules are fetched as on a machine that has never downloaded anything: with proxy/
// files, from a module proxy and checksum database serving those modules
// (internal/testkit/modproxy) into an empty module cache, and "{{gosum MODULE@VERSION}}"
// in any file stands for the module's go.sum lines; without, GOPROXY=off (nothing is
// fetched, so no case depends on the network).
//
// A file with base/ and head/ sections is modified; head/ only is created; base/ only is
// deleted. In any file, a comment "// want "re" ..." (";; want" for Lisp, "# want" for
// Python) expects one finding per regexp on that line; each regexp is matched against
// "RULE: MESSAGE [suggestion: SUGGESTION]". Every finding must be expected and every
// expectation met. Findings go through the engine's base settling (engine.ConfirmAtBase:
// a finding off the changed lines counts only when the base does not have it) and its
// diff filter (Pass.Keep) first.
package checktest

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/engine"
	"github.com/agentverify/agentverify/internal/testkit/modproxy"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/lazyregexp"
	"github.com/agentverify/agentverify/policy"
)

// Case is a parsed test case, materialised on disk.
type Case struct {
	Name    string
	Mode    check.Mode
	Policy  *policy.Policy
	Changes *change.Set
	// BaseDir and HeadDir hold the two trees on disk (BaseDir empty in check mode).
	BaseDir, HeadDir string
	want             map[key][]*expectation
	// proxy holds the modules of proxy/ files, published their publication times.
	proxy     map[string]*modproxy.Module
	published map[string]time.Duration
}

type key struct {
	file string
	line int
}

type expectation struct {
	re      *regexp.Regexp
	matched bool
}

// Run runs dim on every *.txtar case in dir (each as a subtest) and checks expectations.
// parsePolicy turns a "-- policy --" section into a policy; pass nil to use policy.Parse
// semantics via the caller's own function (tests of packages that policy imports).
func Run(t *testing.T, dir string, dim *check.Dimension, langs lang.Registry, opts ...Option) {
	t.Helper()
	if err := dim.Validate(); err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no *.txtar cases in %s (err %v)", dir, err)
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	for i, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txtar")
		t.Run(name, func(t *testing.T) {
			if !shorttest.Runs(i, o.shortEvery) {
				t.Skipf("slow: -short runs one case in %d of this suite; the full suite runs them all", o.shortEvery)
			}
			c := Load(t, p)
			got := RunDimension(t, c, dim, langs)
			c.Check(t, dim, got)
		})
	}
}

// Load parses and materialises the case at path.
func Load(t testing.TB, path string) *Case {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := &Case{Name: filepath.Base(path), Mode: check.Diff, Policy: policy.Default(), want: map[key][]*expectation{},
		proxy: map[string]*modproxy.Module{}, published: map[string]time.Duration{}}
	c.directives(t, path, string(ar.Comment))
	base, head := c.sides(t, path, ar)
	c.modules(t, base, head)
	root := t.TempDir()
	c.HeadDir = filepath.Join(root, "head")
	write(t, c.HeadDir, head)
	c.Changes = &change.Set{Root: c.HeadDir, HeadFS: os.DirFS(c.HeadDir), OnDisk: true}
	if c.Mode == check.Check {
		c.Changes.NoBase = true
		for p, data := range head {
			c.Changes.Files = append(c.Changes.Files, change.NewFile(p, "", nil, data))
		}
	} else {
		c.BaseDir = filepath.Join(root, "base")
		write(t, c.BaseDir, base)
		c.Changes.BaseFS, c.Changes.BaseRev = os.DirFS(c.BaseDir), "base"
		c.Changes.Files = diffFiles(base, head)
	}
	c.Changes.Sort()
	for p, data := range head {
		c.scanWants(t, path, p, data)
	}
	for p, data := range base {
		if h, ok := head[p]; !ok || string(h) != string(data) {
			c.scanWants(t, path, p, data)
		}
	}
	return c
}

// directives reads the archive comment: its "mode:", "want:", "python-module:" and
// "published:" lines.
func (c *Case) directives(t testing.TB, path, comment string) {
	t.Helper()
	modes := map[string]check.Mode{"diff": check.Diff, "all": check.All, "check": check.Check}
	for _, line := range strings.Split(comment, "\n") {
		line = strings.TrimSpace(line)
		if m, ok := strings.CutPrefix(line, "mode:"); ok {
			mode, known := modes[strings.TrimSpace(m)]
			if !known {
				t.Fatalf("%s: unknown mode %q", path, strings.TrimSpace(m))
			}
			c.Mode = mode
		}
		if m, ok := strings.CutPrefix(line, "python-module:"); ok {
			needPythonModule(t, strings.TrimSpace(m))
		}
		if rest, ok := strings.CutPrefix(line, "published:"); ok {
			mod, ago, _ := strings.Cut(strings.TrimSpace(rest), " ")
			d, err := time.ParseDuration(strings.TrimSpace(ago))
			if err != nil {
				t.Fatalf("%s: bad published directive %q", path, line)
			}
			c.published[mod] = d
		}
		if rest, ok := strings.CutPrefix(line, "want:"); ok {
			loc, pats, _ := strings.Cut(strings.TrimSpace(rest), " ")
			file, ln, ok := strings.Cut(loc, ":")
			n, err := strconv.Atoi(ln)
			if !ok || err != nil {
				t.Fatalf("%s: bad want directive %q", path, line)
			}
			c.addWants(t, path, key{file, n}, pats)
		}
	}
}

// needPythonModule skips the test unless the Python interpreter a project without a virtual
// environment is checked with (python3 on PATH) can import module: a case whose code imports
// an installed distribution expects it to be there.
func needPythonModule(t testing.TB, module string) {
	t.Helper()
	py := pyright.Interpreter(t.TempDir())
	if py == "" {
		t.Skip("no python3 on PATH; install Python 3 (Debian: apt-get install python3)")
	}
	if err := exec.Command(py, "-c", "import "+module).Run(); err != nil {
		t.Skipf("%s cannot import %s; install it (Debian: apt-get install python3-%s)", py, module, module)
	}
}

// sides sorts the archive's files into the base and head trees, and reads its policy.
func (c *Case) sides(t testing.TB, path string, ar *txtar.Archive) (base, head map[string][]byte) {
	t.Helper()
	base, head = map[string][]byte{}, map[string][]byte{}
	for _, f := range ar.Files {
		switch {
		case f.Name == "policy":
			pol, err := policy.Parse(c.Name+":policy", f.Data)
			if err != nil {
				t.Fatalf("%s: policy: %v", path, err)
			}
			c.Policy = pol
		case strings.HasPrefix(f.Name, "proxy/"):
			c.proxyFile(t, path, strings.TrimPrefix(f.Name, "proxy/"), f.Data)
		case strings.HasPrefix(f.Name, "base/"):
			base[strings.TrimPrefix(f.Name, "base/")] = f.Data
		case strings.HasPrefix(f.Name, "head/"):
			head[strings.TrimPrefix(f.Name, "head/")] = f.Data
		default:
			base[f.Name], head[f.Name] = f.Data, f.Data
		}
	}
	return base, head
}

// proxyFile adds the file MODULE@VERSION/PATH to its proxy module.
func (c *Case) proxyFile(t testing.TB, path, name string, data []byte) {
	mod, file, ok := strings.Cut(name, "/")
	for ok && !strings.Contains(mod, "@") {
		var more string
		more, file, ok = strings.Cut(file, "/")
		mod += "/" + more
	}
	modPath, version, _ := strings.Cut(mod, "@")
	if !ok || modPath == "" || version == "" || file == "" {
		t.Fatalf("%s: proxy file %q is not proxy/MODULE@VERSION/PATH", path, name)
	}
	m := c.proxy[mod]
	if m == nil {
		m = &modproxy.Module{Path: modPath, Version: version, Files: map[string]string{}}
		c.proxy[mod] = m
	}
	m.Files[file] = string(data)
}

// modules sets up how the case's Go modules are fetched: from its own module proxy and
// checksum database into an empty module cache when it has proxy/ files (their
// {{gosum M@V}} placeholders filled in), else not at all (GOPROXY=off).
func (c *Case) modules(t testing.TB, sides ...map[string][]byte) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(c.published)) {
		if c.proxy[name] == nil { // a typo would leave the module published in 2020, old
			t.Fatalf("%s: published: no proxy/%s/ file serves %s", c.Name, name, name)
		}
	}
	if len(c.proxy) == 0 {
		t.Setenv("GOPROXY", "off")
		return
	}
	var mods []modproxy.Module
	for name, m := range c.proxy {
		if ago, ok := c.published[name]; ok {
			m.Time = time.Now().Add(-ago)
		}
		mods = append(mods, *m)
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path+mods[i].Version < mods[j].Path+mods[j].Version })
	p := modproxy.New(t, mods...)
	for _, kv := range append(modproxy.FreshEnv(t), "GOPROXY="+p.URL, "GOSUMDB="+p.SumDB) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	for _, files := range sides {
		for name, data := range files {
			files[name] = gosumPlaceholder.ReplaceAllFunc(data, func(m []byte) []byte {
				return []byte(p.GoSum(string(gosumPlaceholder.FindSubmatch(m)[1])))
			})
		}
	}
}

var gosumPlaceholder = lazyregexp.New(`\{\{gosum (\S+)\}\}\n?`)

// diffFiles returns the changed files between the two trees.
func diffFiles(base, head map[string][]byte) []*change.File {
	var files []*change.File
	for p, data := range head {
		old, ok := base[p]
		switch {
		case ok && string(old) == string(data):
		case ok:
			files = append(files, change.NewFile(p, p, old, data))
		default:
			files = append(files, change.NewFile(p, p, nil, data))
		}
	}
	for p, data := range base {
		if _, ok := head[p]; !ok {
			files = append(files, change.NewFile(p, p, data, nil))
		}
	}
	return files
}

func write(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var wantComment = lazyregexp.New(`(?://|;;|#)\s*want\s+(".*)$`)

func (c *Case) scanWants(t testing.TB, casePath, file string, data []byte) {
	for i, line := range strings.Split(string(data), "\n") {
		if m := wantComment.FindStringSubmatch(line); m != nil {
			c.addWants(t, casePath, key{file, i + 1}, m[1])
		}
	}
}

func (c *Case) addWants(t testing.TB, casePath string, k key, pats string) {
	t.Helper()
	pats = strings.TrimSpace(pats)
	for pats != "" {
		q, err := strconv.QuotedPrefix(pats)
		if err != nil {
			t.Fatalf("%s: %s:%d: bad want pattern %q: %v", casePath, k.file, k.line, pats, err)
		}
		s, _ := strconv.Unquote(q)
		re, err := regexp.Compile(s)
		if err != nil {
			t.Fatalf("%s: %s:%d: bad regexp %q: %v", casePath, k.file, k.line, s, err)
		}
		c.want[k] = append(c.want[k], &expectation{re: re})
		pats = strings.TrimSpace(pats[len(q):])
	}
}

// Pass returns the pass a dimension gets for the case.
func (c *Case) Pass(langs lang.Registry) *check.Pass {
	return &check.Pass{
		Context:    context.Background(),
		Changes:    c.Changes,
		Policy:     c.Policy,
		PolicyPath: policy.DefaultFile,
		Trust:      c.trust(),
		Mode:       c.Mode,
		Languages:  langs,
		Files:      check.NewFiles(langs),
		Memo:       check.NewMemo(),
	}
}

// trust is what a diff case protects, as the gate sets it up for a base policy at the
// repository root; nil in check mode.
func (c *Case) trust() *check.Trust {
	if c.Mode == check.Check || c.Changes.NoBase {
		return nil
	}
	return &check.Trust{PolicyFiles: []string{policy.DefaultFile, ".agentverify.yml"}}
}

// RunDimension runs dim on the case and returns the findings that survive the diff filter.
func RunDimension(t testing.TB, c *Case, dim *check.Dimension, langs lang.Registry) []check.Finding {
	t.Helper()
	pass := c.Pass(langs)
	dims := []*check.Dimension{dim}
	out := engine.Run(pass.Context, pass, dims, engine.Options{})
	if out[0].Err != nil {
		t.Fatalf("%s: %s.Run: %v", c.Name, dim.Name, out[0].Err)
	}
	rules := map[string]*check.Rule{}
	for _, r := range dim.Rules {
		rules[r.ID] = r
	}
	out = engine.ConfirmAtBase(pass.Context, pass, dims, out, engine.Options{}, rules)
	var kept []check.Finding
	for _, f := range out[0].Findings {
		if pass.Keep(f) {
			kept = append(kept, f)
		}
	}
	return kept
}

// checkTraceable fails on a finding of a rule its dimension does not declare, or one not
// traceable to its source: no file, no message, or no line (P20).
func checkTraceable(t testing.TB, f check.Finding, known map[string]bool) {
	t.Helper()
	if !known[f.Rule] {
		t.Errorf("%s:%d: finding of undeclared rule %q: %s", f.Location.File, f.Location.Line, f.Rule, f.Message)
	}
	if f.Location.Line < 1 {
		t.Errorf("%s: finding %s at line %d (must be ≥ 1)", f.Location.File, f.Rule, f.Location.Line)
	}
	if f.Location.File == "" || strings.TrimSpace(f.Message) == "" {
		t.Errorf("finding %s without a file or a message: %+v", f.Rule, f)
	}
}

// Check compares findings with the case's expectations.
func (c *Case) Check(t testing.TB, dim *check.Dimension, got []check.Finding) {
	t.Helper()
	known := map[string]bool{}
	for _, r := range dim.Rules {
		known[r.ID] = true
	}
	sort.SliceStable(got, func(i, j int) bool {
		a, b := got[i].Location, got[j].Location
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	for _, f := range got {
		checkTraceable(t, f, known)
		text := f.Rule + ": " + f.Message
		if f.Suggestion != "" {
			text += " [suggestion: " + f.Suggestion + "]"
		}
		matched := false
		for _, e := range c.want[key{f.Location.File, f.Location.Line}] {
			if !e.matched && e.re.MatchString(text) {
				e.matched, matched = true, true
				break
			}
		}
		if !matched {
			t.Errorf("%s:%d:%d: unexpected finding: %s", f.Location.File, f.Location.Line, f.Location.Column, text)
		}
	}
	var missing []string
	for k, es := range c.want {
		for _, e := range es {
			if !e.matched {
				missing = append(missing, fmt.Sprintf("%s:%d: no finding matched %q", k.file, k.line, e.re))
			}
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Error(m)
	}
}
