package pydeps

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Cache keeps environment indexes between verifications, for long-lived processes: an
// index is reused while the directories it was built from are unchanged (installing or
// removing a distribution changes its site-packages directory's modification time), the
// project's .venv has not appeared or gone, and VIRTUAL_ENV and PATH are the same. The
// zero value is ready; it is safe for concurrent use.
type Cache struct {
	mu sync.Mutex
	m  map[string]cached
}

type cached struct {
	env    *Env
	stamps map[string]time.Time // path → modification time (zero: absent)
}

// Env returns the index of the environment of the project at root, from the cache when
// it is still valid.
func (c *Cache) Env(ctx context.Context, l Locator, root string) (*Env, error) {
	getenv := l.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	key := root + "\x00" + getenv("VIRTUAL_ENV") + "\x00" + getenv("PATH") + "\x00" + l.Python
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if ok && e.valid() {
		return e.env, nil
	}
	where, dirs, err := l.Locate(ctx, root)
	if err != nil {
		return nil, err
	}
	env, err := ScanEnv(where, dirs)
	if err != nil {
		return nil, err
	}
	e = cached{env: env, stamps: map[string]time.Time{}}
	for _, p := range append([]string{filepath.Join(root, ".venv", "pyvenv.cfg")}, dirs...) {
		e.stamps[p] = mtime(p)
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]cached{}
	}
	c.m[key] = e
	c.mu.Unlock()
	return env, nil
}

func (e cached) valid() bool {
	for p, t := range e.stamps {
		if !mtime(p).Equal(t) {
			return false
		}
	}
	return true
}

func mtime(p string) time.Time {
	fi, err := os.Stat(p)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}
