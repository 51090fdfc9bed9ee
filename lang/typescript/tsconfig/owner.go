package tsconfig

import (
	"io/fs"
	"path"
)

// Names are the configuration file names a directory may hold, in the compiler's order.
var Names = []string{"tsconfig.json", "jsconfig.json"}

// Owner returns the project that owns the file at p (slash path in fsys): the nearest
// tsconfig.json (or jsconfig.json) in p's directory or above; when that one does not
// hold p (a solution file that only references others, or one whose include leaves p
// out), the referenced project that holds it, depth first. It returns the nearest
// configuration when none holds p (the file is then checked under its options), and nil
// when there is none at all. Configurations are read once through cache.
func Owner(fsys fs.FS, p string, cache map[string]*Config) (*Config, error) {
	for dir := path.Dir(p); ; dir = path.Dir(dir) {
		for _, name := range Names {
			cp := path.Join(dir, name)
			if !isFile(fsys, cp) {
				continue
			}
			c, err := cached(fsys, cp, cache)
			if err != nil {
				return nil, err
			}
			if c.Includes(p) && !c.Solution() {
				return c, nil
			}
			if r, err := referenced(fsys, c, p, cache, map[string]bool{cp: true}); err != nil || r != nil {
				return r, err
			}
			return c, nil
		}
		if dir == "." || dir == "/" {
			return nil, nil
		}
	}
}

// referenced returns the project among c's references (and theirs) that holds p.
func referenced(fsys fs.FS, c *Config, p string, cache map[string]*Config, seen map[string]bool) (*Config, error) {
	for _, r := range c.References {
		if seen[r] || !isFile(fsys, r) {
			continue
		}
		seen[r] = true
		rc, err := cached(fsys, r, cache)
		if err != nil {
			return nil, err
		}
		if rc.Includes(p) && !rc.Solution() {
			return rc, nil
		}
		if found, err := referenced(fsys, rc, p, cache, seen); err != nil || found != nil {
			return found, err
		}
	}
	return nil, nil
}

func cached(fsys fs.FS, p string, cache map[string]*Config) (*Config, error) {
	if c, ok := cache[p]; ok {
		return c, nil
	}
	c, err := Load(fsys, p)
	if err != nil {
		return nil, err
	}
	cache[p] = c
	return c, nil
}
