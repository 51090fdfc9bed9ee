package modfetch

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/agentverify/agentverify/lang"
)

// Added is what fetching the modules only the change requires found.
type Added struct {
	// Modules are the module versions the head go.mod builds with that the trusted one
	// does not (a new requirement, another version, a replacement), sorted.
	Modules []module.Version
	// NotFound are those no module proxy has: the proxies answered 404 or 410.
	NotFound []module.Version
	// Bytes is the size of the module zips fetched.
	Bytes int64
}

// Added fetches the modules the head go.mod of the module at dir builds with that the
// trusted go.mod does not: through the module proxies alone and checked against the
// checksum database (Fetcher.addedEnv), one at a time so that no more than maxBytes of
// zips (0: no limit) is fetched, then the rest of the head's module graph (the go.mod
// files of the new modules' requirements), with the trusted go.sum as the only checksums
// taken on trust. The change's own go.sum is never used to fetch: the loader then checks
// the downloads against it, as the build would.
//
// A module no proxy has is reported in NotFound (the change's fault); a module that could
// not be fetched or verified here, or limits that would be exceeded, is a
// lang.SetupError; a head go.mod that does not parse is left to the loader.
func (f *Fetcher) Added(ctx context.Context, dir string, head, trusted, trustedSum []byte, maxBytes int64) (Added, error) {
	var out Added
	hf, err := modfile.Parse("go.mod", head, nil)
	if err != nil {
		return out, nil
	}
	out.Modules = addedModules(hf, trusted)
	if len(out.Modules) == 0 {
		return out, nil
	}
	s, err := f.settings(ctx)
	if err != nil {
		return out, ctxErr(ctx, err)
	}
	env := f.addedEnv(s)
	for _, m := range out.Modules {
		if err := f.fetchAdded(ctx, s, env, m, &out, maxBytes, dir); err != nil {
			return out, err
		}
	}
	return out, f.addedGraph(ctx, env, dir, hf, trustedSum, &out)
}

// addedModules returns the module versions hf builds with (requirements after
// replacement; directories left out) that the trusted go.mod does not.
func addedModules(hf *modfile.File, trusted []byte) []module.Version {
	have := map[module.Version]bool{}
	if tf, err := modfile.Parse("go.mod", trusted, nil); err == nil && trusted != nil {
		for _, r := range tf.Require {
			have[replacement(tf, r.Mod)] = true
		}
	}
	seen := map[module.Version]bool{}
	var out []module.Version
	for _, r := range hf.Require {
		if m := replacement(hf, r.Mod); m.Version != "" && !have[m] && !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Version < out[j].Version
	})
	return out
}

// fetchAdded downloads one module only the change requires, outside any module (so
// with no go.sum: the checksum database answers for it).
func (f *Fetcher) fetchAdded(ctx context.Context, s settings, env []string, m module.Version, out *Added, maxBytes int64, dir string) error {
	tmp, done, err := scratchDir(nil)
	if err != nil {
		return err
	}
	defer done()
	results, problems, err := run(ctx, tmp, env, "mod", "download", "-json", m.Path+"@"+m.Version)
	if err != nil {
		return ctxErr(ctx, err)
	}
	for _, r := range results {
		if msg := r.err(); msg != "" {
			problems = append(problems, msg)
		} else if fi, err := os.Stat(r.Zip); err == nil {
			out.Bytes += fi.Size()
		}
	}
	if len(problems) > 0 {
		switch classify(problems[0]) {
		case notFound:
			if !s.private(m.Path) {
				out.NotFound = append(out.NotFound, m)
				return nil
			}
		case rejected:
			return nil
		}
		return setupErr(fmt.Errorf("%s", oneLine(problems[0])), m, dir)
	}
	if maxBytes > 0 && out.Bytes > maxBytes {
		return &lang.SetupError{Err: fmt.Errorf("the modules the change adds to %s/go.mod come to more than the policy's limits.max_download_size (%d bytes) at %s: review them, or raise the limit in the trusted policy", dir, maxBytes, m)}
	}
	return nil
}

// addedGraph downloads what else the head's module graph needs (the go.mod files of the
// new modules' own requirements), in a scratch copy of the head go.mod without the
// modules no proxy has, with the trusted go.sum.
func (f *Fetcher) addedGraph(ctx context.Context, env []string, dir string, hf *modfile.File, trustedSum []byte, out *Added) error {
	missing := map[module.Version]bool{}
	for _, m := range out.NotFound {
		missing[m] = true
	}
	var keep []*modfile.Require
	for _, r := range hf.Require {
		if !missing[replacement(hf, r.Mod)] {
			keep = append(keep, r)
		}
	}
	hf.SetRequire(keep)
	hf.Cleanup()
	data, err := hf.Format()
	if err != nil {
		return nil
	}
	tmp, done, err := scratchModule(dir, data, trustedSum)
	if err != nil {
		return nil
	}
	defer done()
	results, problems, err := run(ctx, tmp, env, "mod", "download", "-json")
	if err != nil {
		return ctxErr(ctx, err)
	}
	for _, r := range results {
		if msg := r.err(); msg != "" {
			problems = append(problems, msg)
		}
	}
	for _, p := range problems {
		if classify(p) == unreachable {
			return setupErr(fmt.Errorf("%s", oneLine(p)), out.Modules[0], dir)
		}
	}
	return nil
}

// setupErr is the one line saying that a module the change adds could not be fetched or
// verified here.
func setupErr(err error, m module.Version, dir string) error {
	if msg := err.Error(); strings.Contains(msg, "checksum mismatch") || strings.Contains(msg, "SECURITY ERROR") {
		return &lang.SetupError{Err: fmt.Errorf("the change adds %s to %s/go.mod, and the module cache or a module proxy holds other content than the checksum database signed for it (%v): do not use it; `go clean -modcache` removes a tampered copy", m, dir, err)}
	}
	return &lang.SetupError{Err: fmt.Errorf("the change adds %s to %s/go.mod, which could not be fetched from a module proxy and verified against the checksum database (%v): check the network and GOPROXY, or review the module and download it with `go mod download %s`", m, dir, err, m)}
}
