package modfetch

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"

	"github.com/agentverify/agentverify/internal/testkit/modproxy"
	"github.com/agentverify/agentverify/lang"
)

// modules are what the test proxies serve.
var (
	libV1   = modproxy.Module{Path: "example.com/lib", Version: "v1.0.0", Files: map[string]string{"lib.go": "package lib\n\nfunc F() int { return 1 }\n"}}
	libV2   = modproxy.Module{Path: "example.com/lib", Version: "v1.1.0", Files: map[string]string{"lib.go": "package lib\n\nfunc F() int { return 2 }\n"}}
	fresh   = modproxy.Module{Path: "example.com/fresh", Version: "v0.1.0", Time: time.Now().Add(-48 * time.Hour), Files: map[string]string{"fresh.go": "package fresh\n"}}
	evilLib = modproxy.Module{Path: "example.com/lib", Version: "v1.1.0", Files: map[string]string{"lib.go": "package lib\n\nfunc F() int { return 666 }\n"}}
)

// env is a fresh machine (modproxy.FreshEnv) with the given module settings.
func env(t *testing.T, settings ...string) []string {
	return append(modproxy.FreshEnv(t), settings...)
}

// cacheOf returns the GOMODCACHE of an env.
func cacheOf(env []string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOMODCACHE="); ok {
			return v
		}
	}
	return ""
}

// module writes a module directory with go.mod (and go.sum) and returns it.
func moduleDir(t *testing.T, gomod, gosum string) string {
	dir := t.TempDir()
	for name, data := range map[string]string{"go.mod": gomod, "go.sum": gosum} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const mainMod = "module example.com/m\n\ngo 1.22\n\nrequire example.com/lib v1.0.0\n"

func isSetup(err error) bool {
	var se *lang.SetupError
	return errors.As(err, &se)
}

// TestTrusted: what the trusted go.mod requires arrives from an empty module cache with
// the user's settings, checked against go.sum; a second check needs no proxy (the cache
// holds it); offline, a bad checksum and a proxy without the module fail as setup errors
// naming `go mod download`, and never write the user's go.mod or go.sum.
func TestTrusted(t *testing.T) {
	p := modproxy.New(t, libV1)
	ctx := context.Background()
	goodSum := p.GoSum("example.com/lib@v1.0.0")
	badSum := strings.Replace(goodSum, "h1:", "h1:AAAA", 1)

	t.Run("downloads, then needs nothing", func(t *testing.T) {
		e := env(t, "GOPROXY="+p.FileURL(), "GOSUMDB=off")
		dir := moduleDir(t, mainMod, goodSum)
		if err := New(e).Trusted(ctx, dir, []byte(mainMod), []byte(goodSum)); err != nil {
			t.Fatalf("Trusted: %v", err)
		}
		if !exists(cacheFile(cacheOf(e), module.Version{Path: "example.com/lib", Version: "v1.0.0"}, ".ziphash")) {
			t.Fatal("example.com/lib@v1.0.0 is not in the module cache")
		}
		offline := append(e, "GOPROXY=off")
		if err := New(offline).Trusted(ctx, dir, []byte(mainMod), []byte(goodSum)); err != nil {
			t.Fatalf("Trusted from a warm cache, offline: %v", err)
		}
		for name, want := range map[string]string{"go.mod": mainMod, "go.sum": goodSum} {
			if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != want {
				t.Errorf("%s was written:\n%s", name, got)
			}
		}
	})
	for _, tc := range []struct {
		name, proxy, sum, want string
	}{
		{"offline", "off", goodSum, "GOPROXY=off"},
		{"checksum mismatch", p.FileURL(), badSum, "checksum mismatch"},
		{"not on the proxy", modproxy.New(t).FileURL(), goodSum, "example.com/lib"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := moduleDir(t, mainMod, tc.sum)
			err := New(env(t, "GOPROXY="+tc.proxy, "GOSUMDB=off")).Trusted(ctx, dir, []byte(mainMod), []byte(tc.sum))
			if !isSetup(err) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "run `go mod download` in "+dir) {
				t.Fatalf("Trusted = %v; want a setup error with %q and the command", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("the error is not one line: %q", err)
			}
		})
	}
}

// TestAdded: modules only the change requires come from the proxies alone, checked
// against the checksum database whatever the user's exemptions say; a module no proxy
// has is NotFound; a proxy serving other bytes than the database signed, a GOPROXY with
// no proxy, and a download over the size limit are setup errors.
func TestAdded(t *testing.T) {
	p := modproxy.New(t, libV1, libV2, fresh)
	ctx := context.Background()
	trusted, trustedSum := []byte(mainMod), []byte(p.GoSum("example.com/lib@v1.0.0"))
	head := mainMod + "\nrequire (\n\texample.com/fresh v0.1.0\n\texample.com/invented v1.2.3\n)\n\nreplace example.com/lib v1.0.0 => example.com/lib v1.1.0\n"

	t.Run("fetched and verified", func(t *testing.T) {
		e := env(t, "GOPROXY="+p.URL, "GOSUMDB="+p.SumDB)
		got, err := New(e).Added(ctx, moduleDir(t, mainMod, string(trustedSum)), []byte(head), trusted, trustedSum, 0)
		if err != nil {
			t.Fatalf("Added: %v", err)
		}
		want := []module.Version{{Path: "example.com/fresh", Version: "v0.1.0"}, {Path: "example.com/invented", Version: "v1.2.3"}, {Path: "example.com/lib", Version: "v1.1.0"}}
		if !reflect.DeepEqual(got.Modules, want) || !reflect.DeepEqual(got.NotFound, want[1:2]) || got.Bytes == 0 {
			t.Fatalf("Added = %+v; want modules %v, not found %v", got, want, want[1:2])
		}
		for _, m := range []module.Version{want[0], want[2]} {
			if !exists(cacheFile(cacheOf(e), m, ".ziphash")) {
				t.Errorf("%s is not in the module cache", m)
			}
		}
	})
	// The proxy serves example.com/lib v1.1.0 with other content than the database signed.
	evil := modproxy.New(t, libV1, evilLib, fresh)
	bump := mainMod + "\nreplace example.com/lib v1.0.0 => example.com/lib v1.1.0\n"
	for _, tc := range []struct {
		name     string
		settings []string
		max      int64
		want     string
	}{
		{"checksum database disagrees", []string{"GOPROXY=" + evil.URL, "GOSUMDB=" + p.SumDB}, 0, "SECURITY ERROR"},
		{"user exemptions ignored", []string{"GOPROXY=" + evil.URL, "GOSUMDB=" + p.SumDB, "GONOSUMDB=example.com", "GOPRIVATE=example.com", "GOINSECURE=example.com"}, 0, "SECURITY ERROR"},
		{"direct only: the module cache alone", []string{"GOPROXY=direct", "GOSUMDB=" + p.SumDB}, 0, "module lookup disabled by GOPROXY=off"},
		{"offline", []string{"GOPROXY=off", "GOSUMDB=" + p.SumDB}, 0, "module lookup disabled by GOPROXY=off"},
		{"over the size limit", []string{"GOPROXY=" + p.URL, "GOSUMDB=" + p.SumDB}, 10, "limits.max_download_size"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(env(t, tc.settings...)).Added(ctx, moduleDir(t, mainMod, string(trustedSum)), []byte(bump), trusted, trustedSum, tc.max)
			if !isSetup(err) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Added = %v; want a setup error with %q", err, tc.want)
			}
		})
	}
	// An agent with a shell can fill the module cache itself, exempt from the database;
	// a module only the change requires is checked against the database all the same.
	t.Run("poisoned module cache", func(t *testing.T) {
		e := env(t, "GOPROXY="+evil.URL, "GONOSUMDB=example.com", "GOFLAGS=-modcacherw")
		poison := exec.Command("go", "mod", "download", "example.com/lib@v1.1.0")
		poison.Dir, poison.Env = t.TempDir(), append(os.Environ(), e...)
		if out, err := poison.CombinedOutput(); err != nil {
			t.Fatalf("filling the cache: %v\n%s", err, out)
		}
		_, err := New(append(e, "GOPROXY=off", "GOSUMDB="+p.SumDB)).Added(ctx, moduleDir(t, mainMod, string(trustedSum)), []byte(bump), trusted, trustedSum, 0)
		if !isSetup(err) || !strings.Contains(err.Error(), "checksum mismatch") || !strings.Contains(err.Error(), "other content than the checksum database signed") {
			t.Fatalf("Added = %v; want the checksum mismatch", err)
		}
	})
	t.Run("nothing added", func(t *testing.T) {
		got, err := New(env(t, "GOPROXY=off")).Added(ctx, t.TempDir(), trusted, trusted, trustedSum, 0)
		if err != nil || len(got.Modules) != 0 {
			t.Fatalf("Added = %+v, %v; want nothing", got, err)
		}
	})
}

// TestLookup: the proxies say which paths are modules and when their first release was
// published; a private path and an offline proxy get no answer.
func TestLookup(t *testing.T) {
	p := modproxy.New(t, libV1, libV2, fresh)
	ctx := context.Background()
	f := New(env(t, "GOPROXY="+p.URL, "GOSUMDB="+p.SumDB, "GOPRIVATE=corp.example"))
	got, err := f.Lookup(ctx, []string{"example.com/lib", "example.com/fresh", "example.com/nope", "corp.example/x"})
	if err != nil {
		t.Fatal(err)
	}
	lib, fr := got["example.com/lib"], got["example.com/fresh"]
	if !lib.Known || !lib.Exists || lib.First != "v1.0.0" || !lib.Published.Equal(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("example.com/lib: %+v", lib)
	}
	if !fr.Exists || time.Since(fr.Published) > 72*time.Hour {
		t.Errorf("example.com/fresh: %+v", fr)
	}
	if nope := got["example.com/nope"]; !nope.Known || nope.Exists {
		t.Errorf("example.com/nope: %+v; want known not to exist", nope)
	}
	if corp := got["corp.example/x"]; corp.Known {
		t.Errorf("corp.example/x (GOPRIVATE): %+v; want no answer", corp)
	}
	off := New(env(t, "GOPROXY=off"))
	if got, err := off.Lookup(ctx, []string{"example.com/lib"}); err != nil || got["example.com/lib"].Known {
		t.Errorf("offline Lookup = %+v, %v; want no answer", got, err)
	}
}

// TestProxyOnly: `direct` and `off` leave GOPROXY, each kept proxy with the separator
// that follows it.
func TestProxyOnly(t *testing.T) {
	for in, want := range map[string]string{
		"https://proxy.golang.org,direct":        "https://proxy.golang.org",
		"direct":                                 "",
		"off":                                    "",
		"https://a|https://b,direct":             "https://a|https://b",
		"direct,https://a,off":                   "https://a",
		"https://a,direct|https://b":             "https://a,https://b",
		" https://a , https://b ":                "https://a,https://b",
		"file:///tmp/p,https://proxy.golang.org": "file:///tmp/p,https://proxy.golang.org",
	} {
		if got := proxyOnly(in); got != want {
			t.Errorf("proxyOnly(%q) = %q; want %q", in, got, want)
		}
	}
}

// TestClassify reads the go command's messages about a module.
func TestClassify(t *testing.T) {
	for msg, want := range map[string]failure{
		"example.com/x@v1.0.0: reading https://proxy.golang.org/example.com/x/@v/v1.0.0.info: 404 Not Found\n\tserver response: not found":        notFound,
		"module example.com/x: reading https://proxy.golang.org/example.com/x/@v/list: 410 Gone":                                                  notFound,
		"module example.com/x: reading file:///tmp/p/example.com/x/@v/list: no such file or directory":                                            notFound,
		"example.com/x@v1.0.0: verifying module: example.com/x@v1.0.0: reading https://sum.golang.org/lookup/example.com/x@v1.0.0: 404 Not Found": unreachable,
		"example.com/x@v1.0.0: module lookup disabled by GOPROXY=off":                                                                             unreachable,
		"example.com/x@v1.0.0: reading https://proxy.golang.org/example.com/x/@v/v1.0.0.info: 403 Forbidden":                                      unreachable,
		"dial tcp: lookup proxy.golang.org: no such host":                                                                                         unreachable,
		"example.com/X@v1.0.0: malformed module path \"example.com/X\"":                                                                           rejected,
		"example.com/x@v1.0.0: parsing go.mod: module declares its path as: example.com/y":                                                        rejected,
	} {
		if got := classify(msg); got != want {
			t.Errorf("classify(%q) = %d; want %d", msg, got, want)
		}
	}
}

// The module cache is the go command's, as `go env` resolves it: here from the go env
// file (`go env -w GOMODCACHE=…`), which the process environment does not show.
func TestCachedModule(t *testing.T) {
	cache, goenv := t.TempDir(), filepath.Join(t.TempDir(), "env")
	if err := os.WriteFile(goenv, []byte("GOMODCACHE="+cache+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(cache, "cache", "download", "example.com", "!big", "@v"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := New(env(t, "GOMODCACHE=", "GOENV="+goenv))
	ctx := context.Background()
	if got := f.ModuleCache(ctx); got != cache {
		t.Errorf("ModuleCache = %q, want %q", got, cache)
	}
	for ipath, want := range map[string]string{"example.com/Big/sub/pkg": "example.com/Big", "example.com/Big": "example.com/Big", "example.com/big/x": "", "example.com/other": ""} {
		if got := f.CachedModule(ctx, ipath); got != want {
			t.Errorf("CachedModule(%q) = %q, want %q", ipath, got, want)
		}
	}
}

// A Fetcher remembers a module graph it found complete in the cache while the cache's
// download directory stays the same, and looks again once the cache is cleaned.
func TestTrustedRemembersCache(t *testing.T) {
	p := modproxy.New(t, libV1)
	ctx := context.Background()
	sum := p.GoSum("example.com/lib@v1.0.0")
	e := env(t, "GOPROXY="+p.FileURL(), "GOSUMDB=off")
	dir := moduleDir(t, mainMod, sum)
	f := New(e)
	for range 2 { // the first downloads, the second finds it all in the cache
		if err := f.Trusted(ctx, dir, []byte(mainMod), []byte(sum)); err != nil {
			t.Fatal(err)
		}
	}
	mod := cacheFile(cacheOf(e), module.Version{Path: "example.com/lib", Version: "v1.0.0"}, ".mod")
	remove := func(p string) {
		t.Helper()
		_ = filepath.Walk(p, func(p string, _ os.FileInfo, _ error) error { return os.Chmod(p, 0o755) })
		_ = os.Chmod(filepath.Dir(p), 0o755)
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	remove(mod) // deep inside: the download directory is unchanged
	if err := f.Trusted(ctx, dir, []byte(mainMod), []byte(sum)); err != nil || exists(mod) {
		t.Fatalf("Trusted again = %v, .mod fetched again: %v; want the graph remembered", err, exists(mod))
	}
	if err := New(e).Trusted(ctx, dir, []byte(mainMod), []byte(sum)); err != nil || !exists(mod) {
		t.Fatalf("a new Fetcher: Trusted = %v, .mod present: %v; want it fetched again", err, exists(mod))
	}
	remove(filepath.Join(cacheOf(e), "cache")) // go clean -modcache
	if err := f.Trusted(ctx, dir, []byte(mainMod), []byte(sum)); err != nil || !exists(mod) {
		t.Fatalf("after cleaning: Trusted = %v, .mod present: %v; want the cache looked at again", err, exists(mod))
	}
}

// A module graph already in the cache the environment or the go env file names is found
// without running the go command at all; a guess that finds nothing asks go env.
func TestTrustedFastPathRunsNoGoCommand(t *testing.T) {
	p := modproxy.New(t, libV1)
	ctx := context.Background()
	sum := p.GoSum("example.com/lib@v1.0.0")
	e := env(t, "GOPROXY="+p.FileURL(), "GOSUMDB=off")
	dir := moduleDir(t, mainMod, sum)
	if err := New(e).Trusted(ctx, dir, []byte(mainMod), []byte(sum)); err != nil { // downloads
		t.Fatal(err)
	}
	goenv := filepath.Join(t.TempDir(), "env")
	if err := os.WriteFile(goenv, []byte("GOMODCACHE="+cacheOf(e)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, vars := range map[string][]string{
		"environment":    e,
		"go env -w file": append(e[:len(e):len(e)], "GOMODCACHE=", "GOENV="+goenv),
	} {
		f := New(vars)
		if err := f.Trusted(ctx, dir, []byte(mainMod), []byte(sum)); err != nil {
			t.Fatal(err)
		}
		if f.set != (settings{}) || f.setErr != nil {
			t.Errorf("%s: go env ran (%+v, %v) though the cache it names holds the graph", name, f.set, f.setErr)
		}
	}
	f := New(append(e[:len(e):len(e)], "GOMODCACHE=", "GOENV=off", "GOPATH="+t.TempDir()))
	_ = f.Trusted(ctx, dir, []byte(mainMod), []byte(sum))
	if f.set == (settings{}) && f.setErr == nil {
		t.Error("a guess that finds nothing did not ask go env")
	}
}
