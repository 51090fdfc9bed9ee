package modfetch

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/mod/module"

	"github.com/agentverify/agentverify/lang/golang/goenv"
)

// Fetcher fetches modules for the checks of one process (or one verification). It is
// safe for concurrent use.
type Fetcher struct {
	env []string // appended to the process environment

	once    sync.Once
	set     settings
	setErr  error
	mu      sync.Mutex
	lookups map[string]Info // module paths looked up, by path
	// inCache holds the trusted module files found complete in the module cache, by
	// inCacheKey: a warm process (the server) reads the cache's files once, not per call.
	inCache map[string]bool
}

// New returns a Fetcher whose go commands run with env appended to the process
// environment (later entries win), as load.Options.Env is.
func New(env []string) *Fetcher {
	return &Fetcher{env: env, lookups: map[string]Info{}, inCache: map[string]bool{}}
}

// settings are the user's module settings, as the go command resolves them (environment,
// then the go env file, then defaults).
type settings struct {
	ModCache  string `json:"GOMODCACHE"`
	Proxy     string `json:"GOPROXY"`
	SumDB     string `json:"GOSUMDB"`
	NoSumDB   string `json:"GONOSUMDB"`
	Private   string `json:"GOPRIVATE"`
	NoProxy   string `json:"GONOPROXY"`
	Insecure  string `json:"GOINSECURE"`
	Flags     string `json:"GOFLAGS"`
	Toolchain string `json:"GOVERSION"`
}

// settings runs `go env` once.
func (f *Fetcher) settings(ctx context.Context) (settings, error) {
	f.once.Do(func() {
		cmd := exec.CommandContext(ctx, "go", "env", "-json", "GOMODCACHE", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GOPRIVATE", "GONOPROXY", "GOINSECURE", "GOFLAGS", "GOVERSION")
		cmd.Env = append(f.baseEnv(), "GOTOOLCHAIN=local")
		out, err := cmd.Output()
		if err != nil {
			f.setErr = &toolError{fmt.Errorf("go env: %w%s", err, stderrOf(err))}
			return
		}
		f.setErr = json.Unmarshal(out, &f.set)
	})
	if f.setErr != nil && ctx.Err() != nil {
		return settings{}, ctx.Err()
	}
	return f.set, f.setErr
}

func (f *Fetcher) baseEnv() []string { return append(os.Environ(), f.env...) }

// guessModCache returns where the go command keeps modules as the environment and the go
// env file (go env -w) say, without running it: GOMODCACHE, else the first GOPATH entry's
// pkg/mod, else ~/go/pkg/mod. Trusted's fast path looks there first; a wrong guess (a
// setting only GOROOT's go.env makes) finds nothing and costs the go env it saves.
func (f *Fetcher) guessModCache() string {
	env := f.baseEnv()
	file := goenv.Read(env)
	get := func(k string) string {
		if v := goenv.Last(env, k); v != "" {
			return v
		}
		return file[k]
	}
	if c := get("GOMODCACHE"); c != "" {
		return c
	}
	if gp := filepath.SplitList(get("GOPATH")); len(gp) > 0 && gp[0] != "" {
		return filepath.Join(gp[0], "pkg", "mod")
	}
	home := goenv.Last(env, "HOME")
	if home == "" {
		return ""
	}
	return filepath.Join(home, "go", "pkg", "mod")
}

// trustedEnv is the user's own environment for `go mod download` of what the trusted side
// requires: every setting kept but those that would make it write elsewhere or switch
// toolchains (the loader runs the local one).
func (f *Fetcher) trustedEnv(s settings) []string {
	return append(f.baseEnv(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS="+keptFlags(s.Flags, false))
}

// addedEnv is the environment for modules only the change requires: the user's proxies
// without `direct` and `off` (none left: GOPROXY=off, the module cache alone), the
// checksum database always on, and none of the settings that exempt a path from either
// (GOPRIVATE, GONOPROXY, GONOSUMDB, GOINSECURE) nor any flag but -modcacherw. GOAUTH and
// .netrc stay: a proxy may need credentials.
func (f *Fetcher) addedEnv(s settings) []string {
	proxies := proxyOnly(s.Proxy)
	if proxies == "" {
		proxies = "off"
	}
	return append(f.baseEnv(), "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY="+proxies, "GOSUMDB="+sumDB(s.SumDB),
		"GONOSUMDB=", "GOPRIVATE=", "GONOPROXY=", "GOINSECURE=", "GOVCS=*:off",
		"GOFLAGS="+keptFlags(s.Flags, true))
}

// keptFlags returns the GOFLAGS to keep: all but -mod and -modfile (the scratch module's
// files are ours), or, for the change's modules, only -modcacherw.
func keptFlags(flags string, onlyCacheRW bool) string {
	var kept []string
	for _, f := range strings.Fields(flags) {
		name := strings.TrimLeft(f, "-")
		name, _, _ = strings.Cut(name, "=")
		switch {
		case onlyCacheRW && name != "modcacherw":
		case name == "mod" || name == "modfile":
		default:
			kept = append(kept, f)
		}
	}
	return strings.Join(kept, " ")
}

// proxyOnly returns GOPROXY without its `direct` and `off` entries. Each kept entry keeps
// the separator that follows it, which says when the go command moves on from it: ","
// after "not found" only, "|" after any error.
func proxyOnly(goproxy string) string {
	var b strings.Builder
	sep := ""
	for goproxy != "" {
		entry, next, after := goproxy, "", ""
		if i := strings.IndexAny(goproxy, ",|"); i >= 0 {
			entry, after, next = goproxy[:i], goproxy[i:i+1], goproxy[i+1:]
		}
		if e := strings.TrimSpace(entry); e != "" && e != "direct" && e != "off" {
			b.WriteString(sep + e)
			sep = after
			if sep == "" {
				sep = ","
			}
		}
		goproxy = next
	}
	return b.String()
}

// sumDB is the checksum database for the change's modules: the user's, or the go
// command's default when the user turned it off.
func sumDB(s string) string {
	if s == "" || s == "off" {
		return "sum.golang.org"
	}
	return s
}

// private reports whether the user's settings keep path from the proxies or the checksum
// database: a proxy's "not found" says nothing about such a module.
func (s settings) private(path string) bool {
	return module.MatchPrefixPatterns(s.NoProxy, path) || module.MatchPrefixPatterns(s.NoSumDB, path) || module.MatchPrefixPatterns(s.Private, path)
}

// toolError is a failure of the go command itself (not installed, not runnable).
type toolError struct{ err error }

func (e *toolError) Error() string { return e.err.Error() }
func (e *toolError) Unwrap() error { return e.err }

// stderrOf returns ": <first line of stderr>" of a failed command, or "".
func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		if line := firstLine(string(ee.Stderr)); line != "" {
			return ": " + line
		}
	}
	return ""
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
