package cli

import (
	"context"
	"fmt"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/resultcache"
)

const cacheLong = `Manages the result cache: check replays from it the findings of every directory whose
files, dependencies, policy and agentverify build are unchanged since a run stored them,
and hook claude keeps in it the Go package loads (what go list answered) that its next
run starts from when nothing they depend on changed (design.md §9). The cache is in the
user cache directory, or $AGENTVERIFY_CACHE_DIR.

  agentverify cache dir     print the cache directory
  agentverify cache stats   print the number of entries and their size
  agentverify cache clean   remove every entry`

func runCache(_ context.Context, env *Env, args []string) int {
	fs := newFlags(env, "cache")
	if code, done := parse(fs, env, args); done {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(env, "cache", fmt.Errorf("want one of clean, dir, stats"))
	}
	dir, err := resultcache.DefaultDir(env.Getenv)
	if err != nil {
		return fail(env, err)
	}
	switch fs.Arg(0) {
	case "dir":
		fmt.Fprintln(env.Stdout, dir)
		return ExitOK
	case "clean", "stats":
	default:
		return usageError(env, "cache", fmt.Errorf("unknown subcommand %q (want clean, dir or stats)", fs.Arg(0)))
	}
	c, err := resultcache.Open(dir, resultcache.Options{})
	if err != nil {
		return fail(env, err)
	}
	if fs.Arg(0) == "clean" {
		if err := c.Clean(); err != nil {
			return fail(env, err)
		}
		return ExitOK
	}
	st, err := c.Stats()
	if err != nil {
		return fail(env, err)
	}
	fmt.Fprintf(env.Stdout, "%s: %d entries, %d bytes\n", dir, st.Entries, st.Bytes)
	return ExitOK
}

// withResultCache gives env's checker the user's result cache and returns the function that
// trims the cache after the run. A cache that cannot be opened only costs time: the check
// runs without it.
func withResultCache(env *Env) func() {
	dir, err := resultcache.DefaultDir(env.Getenv)
	if err != nil {
		return func() {}
	}
	c, err := resultcache.Open(dir, resultcache.Options{})
	if err != nil {
		return func() {}
	}
	ownChecker(env).Cache = c
	return func() { _ = c.Trim() }
}

// ownChecker gives env a checker of its own to set up (a copy of env.Checker, or a new
// one) and returns it.
func ownChecker(env *Env) *agentverify.Checker {
	checker := &agentverify.Checker{}
	if env.Checker != nil {
		copied := *env.Checker
		checker = &copied
	}
	env.Checker = checker
	return checker
}

// hookChecker returns the Checker of a hook run in its own process and the function to
// call after the run: unless noCache (then nothing of earlier runs is used: Checker.Fresh),
// its Go frontend keeps package loads in the user's
// cache between runs, and the cache is trimmed after the run. A cache that cannot be
// opened only costs time.
func hookChecker(env *Env, noCache bool) (*agentverify.Checker, func()) {
	if !noCache {
		if dir, err := resultcache.DefaultDir(env.Getenv); err == nil {
			if c, err := resultcache.Open(dir, resultcache.Options{}); err == nil {
				return agentverify.NewCheckerWithStore(c), func() { _ = c.Trim() }
			}
		}
	}
	c := agentverify.NewChecker()
	c.Fresh = noCache // nor the compiler's records (Checker.Fresh)
	return c, func() {}
}
