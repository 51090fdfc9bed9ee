// Package cacheplan runs the dimensions of a check-mode verification over a result
// store (package resultcache): the findings of every per-directory dimension in every
// directory whose inputs have not changed since a run stored them are replayed, and what
// is computed is stored (design.md §9). Only check mode is cached: the other modes'
// findings depend on a base, and are what an agent's edit is judged by.
package cacheplan

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/engine"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/resultcache"
)

// plan is what the result cache knows of one check-mode run: the change's files by
// directory, and the key of each directory whose inputs are all named (design.md §9).
type plan struct {
	cache *resultcache.Cache
	dirs  map[string][]*change.File
	keys  map[string][sha256.Size]byte // per cacheable directory, before the dimension
}

// Run runs dims over pass as engine.Run does, replaying from cache the findings of every
// per-directory dimension in every directory whose inputs have not changed since a run
// stored them, and storing what it computes. version names the agentverify release: a
// rebuilt binary never replays what another stored.
func Run(ctx context.Context, cache *resultcache.Cache, version string, pass *check.Pass, dims []*check.Dimension, opts engine.Options) []engine.Outcome {
	plan := newPlan(ctx, cache, version, pass)
	out := make([]engine.Outcome, len(dims))
	hits := make([]map[string][]check.Finding, len(dims))
	var whole []*check.Dimension
	var wholeAt []int
	recompute := map[string]bool{}
	for i, d := range dims {
		if !d.PerDirectory || !pass.Policy.Enabled(d.Name) {
			whole, wholeAt = append(whole, d), append(wholeAt, i)
			continue
		}
		hits[i] = map[string][]check.Finding{}
		for dir := range plan.dirs {
			if fs, ok := plan.get(dir, d.Name); ok {
				hits[i][dir] = fs
			} else {
				recompute[dir] = true
			}
		}
	}
	for j, o := range engine.Run(ctx, pass, whole, opts) {
		out[wholeAt[j]] = o
	}
	sub, subAt, subPass := plan.subset(pass, dims, hits, recompute)
	var ran []engine.Outcome
	if len(sub) > 0 {
		ran = engine.Run(ctx, subPass, sub, opts)
	}
	for j, o := range ran {
		i := subAt[j]
		if o.Err == nil && ctx.Err() == nil {
			plan.store(dims[i].Name, o.Findings, recompute, hits[i])
		}
		out[i] = o
	}
	ranAt := map[int]bool{}
	for _, i := range subAt {
		ranAt[i] = true
	}
	for i, d := range dims {
		if hits[i] == nil {
			continue
		}
		out[i].Dimension = d.Name
		if ranAt[i] {
			out[i].Findings = merge(out[i].Findings, hits[i], recompute)
		} else {
			out[i].Findings = merge(nil, hits[i], nil) // every directory a hit
		}
	}
	return out
}

// subset returns the per-directory dimensions with something to recompute and the pass
// over the directories to recompute.
func (pl *plan) subset(pass *check.Pass, dims []*check.Dimension, hits []map[string][]check.Finding, recompute map[string]bool) ([]*check.Dimension, []int, *check.Pass) {
	var sub []*check.Dimension
	var at []int
	for i, d := range dims {
		if hits[i] != nil && len(hits[i]) < len(pl.dirs) {
			sub, at = append(sub, d), append(at, i)
		}
	}
	if len(recompute) == len(pl.dirs) {
		return sub, at, pass
	}
	set := *pass.Changes
	set.Files = nil
	for _, f := range pass.Changes.Files {
		if recompute[path.Dir(f.Path)] {
			set.Files = append(set.Files, f)
		}
	}
	p := *pass
	p.Changes = &set
	return sub, at, &p
}

// merge returns the findings a dimension computed over the recomputed directories with
// those replayed for the others, in a stable order.
func merge(ran []check.Finding, hits map[string][]check.Finding, recompute map[string]bool) []check.Finding {
	out := append([]check.Finding(nil), ran...)
	dirs := make([]string, 0, len(hits))
	for dir := range hits {
		if !recompute[dir] {
			dirs = append(dirs, dir)
		}
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		out = append(out, hits[dir]...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Location, out[j].Location
		switch {
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Column != b.Column:
			return a.Column < b.Column
		case out[i].Rule != out[j].Rule:
			return out[i].Rule < out[j].Rule
		}
		return out[i].Message < out[j].Message
	})
	return out
}

// store keeps a dimension's findings per recomputed cacheable directory. It stores nothing
// when a finding lies outside the directories run: such a finding came from another
// directory's analysis, which a per-directory replay could not reproduce.
func (pl *plan) store(dim string, fs []check.Finding, recompute map[string]bool, hits map[string][]check.Finding) {
	byDir := map[string][]check.Finding{}
	for _, f := range fs {
		dir := path.Dir(f.Location.File)
		if !recompute[dir] {
			return
		}
		byDir[dir] = append(byDir[dir], f)
	}
	for dir := range recompute {
		if _, hit := hits[dir]; hit {
			continue
		}
		if _, ok := pl.keys[dir]; !ok {
			continue
		}
		data, err := json.Marshal(byDir[dir])
		if err != nil {
			continue
		}
		_ = pl.cache.Put(pl.key(dir, dim), data) // a cache that cannot be written only costs time
	}
}

// get returns the replayed findings of dim in dir. An entry that does not decode, or
// holds a finding of another dimension or outside dir, is a miss: the cache is never
// trusted beyond what it could have stored.
func (pl *plan) get(dir, dim string) ([]check.Finding, bool) {
	if _, ok := pl.keys[dir]; !ok {
		return nil, false
	}
	data, ok := pl.cache.Get(pl.key(dir, dim))
	if !ok {
		return nil, false
	}
	var fs []check.Finding
	if err := json.Unmarshal(data, &fs); err != nil {
		return nil, false
	}
	for _, f := range fs {
		if path.Dir(f.Location.File) != dir || !strings.HasPrefix(f.Rule, dim+"/") {
			return nil, false
		}
	}
	return fs, true
}

// key names the entry of dim's findings in dir.
func (pl *plan) key(dir, dim string) resultcache.Key {
	base := pl.keys[dir]
	return sha256.Sum256(fmt.Appendf(nil, "%x\x00%s", base, dim))
}

// newPlan groups the change's files by directory and keys each directory by
// everything its findings depend on: the agentverify build, the repository root, the
// policy, the directory's files, and the inputs its frontends name. A directory with a
// file of a frontend that names no inputs (or not this directory's) gets no key.
func newPlan(ctx context.Context, cache *resultcache.Cache, version string, pass *check.Pass) *plan {
	pl := &plan{cache: cache, dirs: map[string][]*change.File{}, keys: map[string][sha256.Size]byte{}}
	for _, f := range pass.Changes.Files {
		dir := path.Dir(f.Path)
		pl.dirs[dir] = append(pl.dirs[dir], f)
	}
	build := buildID(version)
	pol, err := json.Marshal(pass.Policy)
	if build == "" || err != nil {
		return pl
	}
	digests := frontendInputs(ctx, pass, pl.dirs)
	for dir, files := range pl.dirs {
		h := sha256.New()
		fmt.Fprintf(h, "agentverify results\x00%s\x00%s\x00%s\x00%s\x00", build, pass.Changes.Root, pass.PolicyPath, dir)
		h.Write(pol)
		ok := true
		for _, f := range files {
			sum := sha256.Sum256(f.Head)
			fmt.Fprintf(h, "\x00%s\x00%s\x00%t%t%t\x00%d\x00%x", f.Path, f.Op, f.Binary, f.Symlink, f.TooLarge, f.Size, sum)
			if !f.Analyzable() {
				continue
			}
			if fe := pass.Languages.For(f.Path); fe != nil {
				d, named := digests[fe.Name()][dir]
				ok = ok && named
				fmt.Fprintf(h, "\x00%s\x00%x", fe.Name(), d)
			}
		}
		if ok {
			var k [sha256.Size]byte
			copy(k[:], h.Sum(nil))
			pl.keys[dir] = k
		}
	}
	return pl
}

// frontendInputs asks every frontend that names its inputs for the digests of the
// directories holding its files.
func frontendInputs(ctx context.Context, pass *check.Pass, dirs map[string][]*change.File) map[string]map[string][]byte {
	out := map[string]map[string][]byte{}
	for _, fe := range pass.Languages {
		h, ok := fe.(lang.InputHasher)
		if !ok {
			continue
		}
		var mine []string
		for dir, files := range dirs {
			for _, f := range files {
				if f.Analyzable() && pass.Languages.For(f.Path) == fe {
					mine = append(mine, dir)
					break
				}
			}
		}
		sort.Strings(mine)
		if len(mine) == 0 {
			continue
		}
		if d, err := h.Inputs(ctx, pass.Changes.Root, mine); err == nil {
			out[fe.Name()] = d
		}
	}
	return out
}

// buildID names the agentverify build: its version and its executable (path, size and
// modification time), so a rebuilt binary never replays what an older one stored. It is
// "" when the executable cannot be found, and then nothing is cached.
func buildID(version string) string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s\x00%s\x00%d\x00%d", version, exe, fi.Size(), fi.ModTime().UnixNano())
}

// Key returns the key under which a run of version over pass stores dim's findings in
// dir, and false when dir gets no key (a frontend there names no inputs).
func Key(ctx context.Context, version string, pass *check.Pass, dir, dim string) (resultcache.Key, bool) {
	pl := newPlan(ctx, nil, version, pass)
	if _, ok := pl.keys[dir]; !ok {
		return resultcache.Key{}, false
	}
	return pl.key(dir, dim), true
}
