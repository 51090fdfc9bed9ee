package agentverify

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify/change/source"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/engine/cacheplan"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
	"github.com/agentverify/agentverify/policy"
	"github.com/agentverify/agentverify/report"
	"github.com/agentverify/agentverify/resultcache"
	"github.com/agentverify/agentverify/trust"
)

// cacheRepo is a module of three packages: b imports a, c stands alone, and each has a
// finding, so that replayed findings show in every output format.
var cacheRepo = map[string]string{
	"go.mod":    "module example.com/m\n\ngo 1.22\n",
	"notes.txt": "not code\n",
	"a/a.go":    "// Package a is a dependency.\npackage a\n\n// Foo returns one.\nfunc Foo() int { return 1 }\n",
	"b/b.go":    "// Package b uses a.\npackage b\n\nimport \"example.com/m/a\"\n\n// Bar calls a.\nfunc Bar() int { return a.Foo() + a.Baz() }\n",
	"c/c.go":    "// Package c stands alone.\npackage c\n\n// Qux is broken.\nfunc Qux() int { return undefinedName }\n",
}

// strictPolicy enables every dimension and lowers a limit.
const strictPolicy = "version: 1\nscope: {}\nhallucination: {}\nstyle: {}\nsemantics: {}\ncomplexity:\n  max_cyclomatic: 3\n"

// cacheRun checks dir as `agentverify check` does and renders the report in the text,
// JSON and SARIF formats, durations zeroed (the one thing that differs between two runs).
func cacheRun(t *testing.T, dir string, cache *resultcache.Cache) string {
	t.Helper()
	c := &Checker{Cache: cache, Now: func() time.Time { return time.Unix(0, 0) }}
	rep, err := c.Check(context.Background(), Request{Dir: dir, Source: Paths})
	if err != nil {
		t.Fatal(err)
	}
	rep.DurationMS = 0
	for i := range rep.DimensionResults {
		rep.DimensionResults[i].DurationMS = 0
	}
	var b bytes.Buffer
	for _, format := range []string{"text", "json", "sarif"} {
		if err := report.Write(&b, format, rep, report.TextOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func entries(t *testing.T, c *resultcache.Cache) int {
	t.Helper()
	s, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	return s.Entries
}

// TestResultCacheReplaysByteIdentical runs check twice and after each kind of edit: every
// cached run's text, JSON and SARIF are the bytes of a run without the cache, and only the
// directories whose inputs changed are stored again.
func TestResultCacheReplaysByteIdentical(t *testing.T) {
	repo := testrepo.New(t, cacheRepo)
	cache, err := resultcache.Open(t.TempDir(), resultcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const perDir = 4 // hallucination, style, semantics, complexity; scope is never cached
	steps := []struct {
		name   string
		edit   map[string]string
		remove string
		added  int
	}{
		{"first run stores every directory", nil, "", 4 * perDir},
		{"second run replays", nil, "", 0},
		{"a file of c: c only", map[string]string{"c/c.go": strings.Replace(cacheRepo["c/c.go"], "undefinedName", "undefinedOther", 1)}, "", perDir},
		{"a dependency: a and its importer b", map[string]string{"a/a.go": cacheRepo["a/a.go"] + "\n// Baz is new.\nfunc Baz() int { return 2 }\n"}, "", 2 * perDir},
		{"a file no frontend reads: its directory", map[string]string{"notes.txt": "still not code\n"}, "", perDir},
		{"the policy: every directory", map[string]string{".agentverify.yaml": strictPolicy}, "", 4 * perDir},
		{"the policy reverted: replays", nil, ".agentverify.yaml", 0},
	}
	for _, s := range steps {
		repo.WriteTB(t, s.edit)
		if s.remove != "" {
			if err := os.Remove(filepath.Join(repo.Dir, s.remove)); err != nil {
				t.Fatal(err)
			}
		}
		before := entries(t, cache)
		want := cacheRun(t, repo.Dir, nil)
		if got := cacheRun(t, repo.Dir, cache); got != want {
			t.Fatalf("%s: the cached run differs from a fresh one:\n%s\nwant:\n%s", s.name, got, want)
		}
		if added := entries(t, cache) - before; added != s.added {
			t.Errorf("%s: %d entries stored, want %d", s.name, added, s.added)
		}
	}
}

// planKey returns the cache key of dim's findings in dir of the repository at root.
func planKey(t *testing.T, root, dir, dim string) resultcache.Key {
	t.Helper()
	ctx := context.Background()
	set, pol, _, err := trust.Build(ctx, source.Spec{Dir: root, Kind: Paths}, trust.Request{Kind: Paths})
	if err != nil {
		t.Fatal(err)
	}
	pass := &check.Pass{Context: ctx, Changes: set, Policy: pol, PolicyPath: policy.DefaultFile, Languages: Languages()}
	key, ok := cacheplan.Key(ctx, Version, pass, dir, dim)
	if !ok {
		t.Fatalf("directory %s has no key", dir)
	}
	return key
}

// TestResultCacheEntries shows that a hit is replayed as stored, and that what the run
// could not have stored there is never trusted: a torn entry, another directory's finding,
// another dimension's rule.
func TestResultCacheEntries(t *testing.T) {
	repo := testrepo.New(t, cacheRepo)
	cache, err := resultcache.Open(t.TempDir(), resultcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := cacheRun(t, repo.Dir, cache)
	key := planKey(t, repo.Dir, "c", "style")
	planted := `[{"Rule":"style/planted","Location":{"file":"c/c.go","line":1},"Message":"replayed from the cache"}]`
	if err := cache.Put(key, []byte(planted)); err != nil {
		t.Fatal(err)
	}
	if got := cacheRun(t, repo.Dir, cache); !strings.Contains(got, "replayed from the cache") {
		t.Fatalf("a valid entry was not replayed:\n%s", got)
	}
	for _, c := range []struct{ name, payload string }{
		{"another directory's finding", strings.Replace(planted, "c/c.go", "a/a.go", 1)},
		{"another dimension's rule", strings.Replace(planted, "style/planted", "scope/planted", 1)},
		{"not JSON", "[{"},
	} {
		if err := cache.Put(key, []byte(c.payload)); err != nil {
			t.Fatal(err)
		}
		if got := cacheRun(t, repo.Dir, cache); got != want {
			t.Errorf("%s: trusted:\n%s", c.name, got)
		}
	}
	// A torn entry: every entry file cut in half.
	err = filepath.WalkDir(cache.Dir(), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "-r") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(p, data[:len(data)/2], 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := cacheRun(t, repo.Dir, cache); got != want {
		t.Errorf("torn entries: trusted:\n%s", got)
	}
}
