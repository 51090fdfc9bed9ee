package modfetch

import (
	"context"
	"sort"
	"time"
)

// Info is what the module proxies say of a module path.
type Info struct {
	// Known is set when the proxies answered for the path: the module exists, or every
	// proxy said it has no such module. Without an answer (offline, a private path, a
	// proxy error) nothing is claimed about the module.
	Known  bool
	Exists bool
	// First is the module's lowest release version and Published its time as the proxy
	// reports it (the time of the tagged commit); both are zero when the module has no
	// release, only pseudo-versions.
	First     string
	Published time.Time
}

// Lookup asks the module proxies about each module path, as Added fetches (proxies only,
// checksum database on): whether it exists and when its first release was published.
// Answers are kept for the Fetcher's life; a path without an answer is asked again next
// time. An error is returned only for a cancelled context.
func (f *Fetcher) Lookup(ctx context.Context, paths []string) (map[string]Info, error) {
	out := map[string]Info{}
	var ask []string
	f.mu.Lock()
	for _, p := range paths {
		if in, ok := f.lookups[p]; ok {
			out[p] = in
		} else if _, dup := out[p]; !dup {
			out[p] = Info{}
			ask = append(ask, p)
		}
	}
	f.mu.Unlock()
	if len(ask) == 0 {
		return out, nil
	}
	sort.Strings(ask)
	s, err := f.settings(ctx)
	if err != nil {
		return out, ctxErr(ctx, err)
	}
	env := f.addedEnv(s)
	var public []string
	for _, p := range ask {
		if !s.private(p) {
			public = append(public, p)
		}
	}
	if err := f.lookup(ctx, env, public, out); err != nil {
		return out, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range public {
		if out[p].Known {
			f.lookups[p] = out[p]
		}
	}
	return out, nil
}

// answers records what `go list -m -versions` said of each path, and returns the first
// releases ("path@version") whose times are still to be asked.
func answers(results []result, out map[string]Info) (firsts []string) {
	for _, r := range results {
		msg := r.err()
		switch {
		case msg == "":
			in := Info{Known: true, Exists: true}
			if len(r.Versions) > 0 {
				in.First = r.Versions[0]
				firsts = append(firsts, r.Path+"@"+in.First)
			}
			out[r.Path] = in
		case classify(msg) == notFound:
			out[r.Path] = Info{Known: true}
		}
	}
	return firsts
}

// lookup runs `go list -m -versions` for the paths' latest versions, then `go list -m` for
// the first release of each that has one, outside any module.
func (f *Fetcher) lookup(ctx context.Context, env []string, paths []string, out map[string]Info) error {
	if len(paths) == 0 {
		return nil
	}
	tmp, done, err := scratchDir(nil)
	if err != nil {
		return nil
	}
	defer done()
	args := []string{"list", "-m", "-e", "-json", "-versions"}
	for _, p := range paths {
		args = append(args, p+"@latest")
	}
	results, _, err := run(ctx, tmp, env, args...)
	if err != nil {
		return ctxErr(ctx, err)
	}
	firsts := answers(results, out)
	if len(firsts) == 0 {
		return nil
	}
	results, _, err = run(ctx, tmp, env, append([]string{"list", "-m", "-e", "-json"}, firsts...)...)
	if err != nil {
		return ctxErr(ctx, err)
	}
	for _, r := range results {
		if in, ok := out[r.Path]; ok && r.err() == "" && r.Time != nil && r.Version == in.First {
			in.Published = *r.Time
			out[r.Path] = in
		}
	}
	return nil
}
