package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
	"github.com/agentverify/agentverify/internal/testkit/tsctest"
	"github.com/agentverify/agentverify/resultcache"
)

// TestCacheCommand: check stores in the cache named by $AGENTVERIFY_CACHE_DIR, --no-cache
// neither reads nor stores, and the cache subcommands report and empty it.
func TestCacheCommand(t *testing.T) {
	t.Parallel()
	repo := testrepo.New(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": "// Package a is small.\npackage a\n\n// A is one.\nconst A = 1\n",
	})
	cacheDir := t.TempDir()
	cli := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		env := &Env{Stdout: &out, Stderr: &errb, Dir: repo.Dir, Getenv: func(k string) string {
			if k == resultcache.EnvDir {
				return cacheDir
			}
			return ""
		}}
		code := Main(context.Background(), args, env)
		return code, out.String() + errb.String()
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"cache", "dir"}, ExitOK, cacheDir + "\n"},
		{[]string{"check", "--no-cache", "--quiet"}, ExitOK, ""},
		{[]string{"cache", "stats"}, ExitOK, cacheDir + ": 0 entries"},
		{[]string{"check", "--quiet"}, ExitOK, ""},
		{[]string{"cache", "stats"}, ExitOK, cacheDir + ": 8 entries"}, // 2 directories × 4 dimensions
		{[]string{"cache", "clean"}, ExitOK, ""},
		{[]string{"cache", "stats"}, ExitOK, cacheDir + ": 0 entries"},
		{[]string{"cache"}, ExitError, "want one of clean, dir, stats"},
		{[]string{"cache", "purge"}, ExitError, `unknown subcommand "purge"`},
	} {
		code, out := cli(c.args...)
		if code != c.code || !strings.HasPrefix(out, c.want) && !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, output %q; want exit %d, %q", c.args, code, out, c.code, c.want)
		}
	}
}

// TestNoCacheKeepsNoCompilerRecord: check --no-cache runs the TypeScript compiler afresh,
// reading and keeping no incremental record; check without it keeps one.
func TestNoCacheKeepsNoCompilerRecord(t *testing.T) {
	tsctest.Require(t)
	records := t.TempDir()
	t.Setenv(resultcache.EnvDir, records) // where the compiler's records lie (os env)
	repo := testrepo.New(t, map[string]string{
		"tsconfig.json": `{ "compilerOptions": { "target": "es2022", "strict": true, "module": "esnext", "moduleResolution": "bundler", "types": [] }, "include": ["src"] }`,
		"src/a.ts":      "/** One. */\nexport const one: number = 1;\n",
	})
	kept := func() []string {
		got, _ := filepath.Glob(filepath.Join(records, "tsc", "*.tsbuildinfo"))
		return got
	}
	for _, c := range []struct {
		args []string
		want int
	}{{[]string{"check", "--no-cache", "--quiet", "."}, 0}, {[]string{"check", "--quiet", "."}, 1}} {
		var out bytes.Buffer
		env := &Env{Stdout: &out, Stderr: &out, Dir: repo.Dir, Getenv: os.Getenv}
		if code := Main(context.Background(), c.args, env); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", c.args, code, out.String())
		}
		if got := kept(); len(got) != c.want {
			t.Errorf("after %v: %d compiler records (%v), want %d", c.args, len(got), got, c.want)
		}
	}
}

// TestHookKeepsPackageLoads: hook claude keeps its Go package loads in the cache named by
// $AGENTVERIFY_CACHE_DIR, a later run answers the same from them, --no-cache neither
// reads nor keeps them, and cache clean removes them.
func TestHookKeepsPackageLoads(t *testing.T) {
	shorttest.Slow(t, "runs the CLI through real git repositories and Go loads; siblings cover the path in -short")
	t.Parallel()
	repo := testrepo.New(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": "// Package a is small.\npackage a\n\nimport \"strings\"\n\n// A is one.\nfunc A() string { return strings.ToUpper(\"a\") }\n",
	})
	cacheDir := t.TempDir()
	cli := func(stdin string, args ...string) (int, string) {
		var out, errb bytes.Buffer
		env := &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Dir: repo.Dir, Getenv: func(k string) string {
			if k == resultcache.EnvDir {
				return cacheDir
			}
			return ""
		}}
		code := Main(context.Background(), args, env)
		return code, out.String() + errb.String()
	}
	bad := hookPayload(repo.Dir, "a/a.go", "// Package a is small.\npackage a\n\nimport \"strings\"\n\n// A is one.\nfunc A() string { return strings.ToUpperr(\"a\") }\n")
	noCache, noCacheOut := cli(bad, "hook", "claude", "--no-cache")
	if _, stats := cli("", "cache", "stats"); !strings.Contains(stats, ": 0 entries") {
		t.Fatalf("after hook claude --no-cache: %s", stats)
	}
	for i := range 2 {
		code, out := cli(bad, "hook", "claude")
		if code != noCache || out != noCacheOut || !strings.Contains(out, "strings.ToUpperr") {
			t.Fatalf("run %d: exit %d\n%s\nwith --no-cache: exit %d\n%s", i, code, out, noCache, noCacheOut)
		}
		if _, stats := cli("", "cache", "stats"); strings.Contains(stats, ": 0 entries") {
			t.Fatalf("run %d kept nothing: %s", i, stats)
		}
	}
	cli("", "cache", "clean")
	if _, stats := cli("", "cache", "stats"); !strings.Contains(stats, ": 0 entries") {
		t.Fatalf("after cache clean: %s", stats)
	}
}
