package modfetch

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"

	"github.com/agentverify/agentverify/lang"
)

// Trusted makes sure the module cache holds what the trusted go.mod and go.sum of the
// module at dir require. When the cache holds it all already (cached), nothing runs;
// else `go mod download` runs with the user's own settings, in a scratch copy of the two
// files (the user's are never written), and checks every download against the go.sum as
// the go command always does.
//
// A module that could not be downloaded is a lang.SetupError naming the command that
// fixes it: what the trusted side requires is not the change's doing. A go.mod that does
// not parse, or a go command that does not run, is left to the loader, which reports
// both where they lie.
func (f *Fetcher) Trusted(ctx context.Context, dir string, goMod, goSum []byte) error {
	mf, err := modfile.Parse("go.mod", goMod, nil)
	if err != nil || len(mf.Require) == 0 {
		return nil
	}
	if guess := f.guessModCache(); guess != "" && f.knownCached(guess, goMod, goSum, mf) {
		return nil // all there already: no go command runs (a hook call is ~25 ms less)
	}
	s, err := f.settings(ctx)
	if err != nil {
		return ctxErr(ctx, err)
	}
	if f.knownCached(s.ModCache, goMod, goSum, mf) {
		return nil
	}
	tmp, done, err := scratchModule(dir, goMod, goSum)
	if err != nil {
		return nil
	}
	defer done()
	results, problems, err := run(ctx, tmp, f.trustedEnv(s), "mod", "download", "-json")
	if err != nil {
		return ctxErr(ctx, err)
	}
	for _, r := range results {
		if msg := r.err(); msg != "" {
			problems = append(problems, msg)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return &lang.SetupError{Err: fmt.Errorf("the modules %s requires are not all in the module cache and could not be downloaded (%s): run `go mod download` in %s",
		filepath.Join(dir, "go.mod"), oneLine(problems[0]), dir)}
}

// ctxErr returns the context's error when it is done, else nil for a go command that
// could not run (the loader reports that) and err otherwise.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var te *toolError
	if errors.As(err, &te) {
		return nil
	}
	return err
}

// knownCached is cached, remembered while the module cache's download directory is the
// same (go clean -modcache removes it): a warm process (the server) reads the graph's
// files once per go.mod and go.sum, not on every call (~12 ms of a hook call on cli/cli).
func (f *Fetcher) knownCached(cache string, goMod, goSum []byte, mf *modfile.File) bool {
	st, err := os.Stat(filepath.Join(cache, "cache", "download"))
	if err != nil {
		return cached(cache, mf)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00%d\x00", cache, st.ModTime().UnixNano(), len(goMod), len(goSum))
	h.Write(goMod)
	h.Write(goSum)
	key := string(h.Sum(nil))
	f.mu.Lock()
	known := f.inCache[key]
	f.mu.Unlock()
	if known {
		return true
	}
	if !cached(cache, mf) {
		return false
	}
	f.mu.Lock()
	f.inCache[key] = true
	f.mu.Unlock()
	return true
}

// cached reports whether the module cache holds what `go list` needs of mf's module
// graph, as far as the files tell without the go command: for a go.mod at go 1.17 or
// later (whose requirements list every module providing a package), the zip of each
// requirement and the go.mod of every module the pruned graph loads. Anything it cannot
// tell (an older go.mod, exclusions) is "no", and `go mod download` decides.
func cached(cache string, mf *modfile.File) bool {
	if cache == "" || mf.Go == nil || semver.Compare("v"+mf.Go.Version, "v1.17") < 0 || len(mf.Exclude) > 0 {
		return false
	}
	seen := map[module.Version]bool{}
	for _, r := range mf.Require {
		m := replacement(mf, r.Mod)
		if m.Version == "" {
			continue // a directory
		}
		if !exists(cacheFile(cache, m, ".ziphash")) || !graphCached(cache, mf, m, seen) {
			return false
		}
	}
	return true
}

// graphCached reports whether the go.mod of m is in the cache, and, when m's go.mod is
// older than go 1.17 (its graph is not pruned), those of its requirements, transitively.
func graphCached(cache string, main *modfile.File, m module.Version, seen map[module.Version]bool) bool {
	if seen[m] {
		return true
	}
	seen[m] = true
	data, err := os.ReadFile(cacheFile(cache, m, ".mod"))
	if err != nil {
		return false
	}
	dep, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return false
	}
	if dep.Go != nil && semver.Compare("v"+dep.Go.Version, "v1.17") >= 0 {
		return true
	}
	for _, r := range dep.Require {
		if next := replacement(main, r.Mod); next.Version != "" && !graphCached(cache, main, next, seen) {
			return false
		}
	}
	return true
}

// replacement returns the module the main go.mod builds in m's place: its replace
// target (a directory has no version), or m.
func replacement(main *modfile.File, m module.Version) module.Version {
	for _, r := range main.Replace {
		if r.Old.Path == m.Path && (r.Old.Version == "" || r.Old.Version == m.Version) {
			return r.New
		}
	}
	return m
}

// cacheFile returns the module cache's download file of m with the given suffix
// (".mod", ".zip", ".ziphash", ".info").
func cacheFile(cache string, m module.Version, suffix string) string {
	dir := versionsDir(cache, m.Path)
	ver, err := module.EscapeVersion(m.Version)
	if dir == "" || err != nil {
		return ""
	}
	return filepath.Join(dir, ver+suffix)
}

// versionsDir returns the module cache's directory of the downloaded versions of the
// module path, or "" for a path that is not one.
func versionsDir(cache, modPath string) string {
	esc, err := module.EscapePath(modPath)
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "cache", "download", filepath.FromSlash(esc), "@v")
}

// ModuleCache returns the module cache the go command uses (go env GOMODCACHE, which the
// go env file may set), or "" when the go command does not say.
func (f *Fetcher) ModuleCache(ctx context.Context) string {
	s, err := f.settings(ctx)
	if err != nil {
		return ""
	}
	return s.ModCache
}

// CachedModule returns the longest prefix of the import path ipath that is a module the
// module cache (ModuleCache) holds a version of, or "".
func (f *Fetcher) CachedModule(ctx context.Context, ipath string) string {
	cache := f.ModuleCache(ctx)
	if cache == "" {
		return ""
	}
	for mod := ipath; mod != "." && mod != "/" && mod != ""; mod = path.Dir(mod) {
		if dir := versionsDir(cache, mod); dir != "" {
			if st, err := os.Stat(dir); err == nil && st.IsDir() {
				return mod
			}
		}
	}
	return ""
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return p != "" && err == nil
}
