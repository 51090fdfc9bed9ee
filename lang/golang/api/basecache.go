package api

import (
	"crypto/sha256"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sync"
)

// Bases keeps the base side of recent comparisons for a long-lived process (the shared
// server, an MCP session): a pre-commit hook compares every commit's staged change with
// the same base, whose packages need not be type-checked again. An entry is reused only
// when the base's changed package directories hold the same files with the same bytes,
// under the same module path and go version, and every package the base imported from
// the head's dependencies is still the very package the new comparison would give it; a
// new base commit, an edited base file, a reloaded dependency is a miss. The zero value
// is ready; a nil *Bases keeps nothing.
type Bases struct {
	mu      sync.Mutex
	entries []*baseEntry // most recently used last
	checks  int          // base sides type-checked (misses), for tests
}

// maxBases bounds the entries kept; maxBaseFset bounds how far one entry's file set
// grows with the heads parsed into it before the entry is dropped.
const (
	maxBases    = 4
	maxBaseFset = 64 << 20
)

// baseEntry is one type-checked base side with the file set and standard-library
// importer its types came from, which the head of a comparison that reuses it shares.
type baseEntry struct {
	key  string
	fset *token.FileSet
	std  types.Importer
	tree *tree
}

// BaseChecks returns how many base sides b type-checked (did not reuse).
func (b *Bases) BaseChecks() int {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.checks
}

// take removes and returns the entry for key whose imports deps still gives, or nil;
// the caller owns it until it gives it back with put, so that concurrent comparisons
// never share a file set being grown or a tree being checked.
func (b *Bases) take(key string, deps map[string]*types.Package) *baseEntry {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, e := range b.entries {
		if e.key != key {
			continue
		}
		b.entries = append(b.entries[:i], b.entries[i+1:]...)
		if e.fset.Base() > maxBaseFset || !e.tree.sameImports(deps) {
			return nil
		}
		return e
	}
	return nil
}

// put keeps e as the most recently used entry.
func (b *Bases) put(e *baseEntry, miss bool) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if miss {
		b.checks++
	}
	for i, old := range b.entries {
		if old.key == e.key {
			b.entries = append(b.entries[:i], b.entries[i+1:]...)
			break
		}
	}
	b.entries = append(b.entries, e)
	if len(b.entries) > maxBases {
		b.entries = b.entries[len(b.entries)-maxBases:]
	}
}

// baseKey identifies the base side of m's changed packages by content: the module's
// directory, path and go version, and, for each changed package directory, the name and
// bytes of every non-test Go file the base holds there (whether or not it is built: a
// build constraint is content too). Test files are not part of the API (parseDir leaves
// them out), and reading them would cost as much again.
func baseKey(fsys fs.FS, m *module, goVersion string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%q %q %q\n", m.dir, m.basePath, goVersion)
	for _, d := range sortedDirs(m.pkgDirs) {
		fmt.Fprintf(h, "dir %q\n", d)
		ents, err := fs.ReadDir(fsys, d)
		if err != nil {
			fmt.Fprintf(h, "unreadable %q\n", err)
			continue
		}
		for _, e := range ents {
			if e.IsDir() || !apiFile(path.Join(d, e.Name()), d) {
				continue
			}
			src, err := fs.ReadFile(fsys, path.Join(d, e.Name()))
			fmt.Fprintf(h, "file %q %d %v\n", e.Name(), len(src), err != nil)
			h.Write(src)
		}
	}
	return string(h.Sum(nil))
}

// sameImports reports whether every import the tree resolved outside its own packages
// would resolve to the same package with deps: from deps the very same *types.Package,
// from the standard library (or not at all) only if deps still lacks it.
func (t *tree) sameImports(deps map[string]*types.Package) bool {
	for p, got := range t.imported {
		if deps[p] != got {
			return false
		}
	}
	return true
}

// baseTree returns the type-checked base side of m and the file set and importer the head
// must use with it: reused from c.bases when the base is unchanged, else checked now. done
// gives the entry back for the next comparison once the head is checked.
func (c *Comparer) baseTree(fsys fs.FS, m *module, deps map[string]*types.Package, goVersion string) (base *tree, fset *token.FileSet, std types.Importer, done func()) {
	key := ""
	if c.bases != nil {
		key = baseKey(fsys, m, goVersion)
		if e := c.bases.take(key, deps); e != nil {
			return e.tree, e.fset, e.std, func() { c.bases.put(e, false) }
		}
	}
	fset = token.NewFileSet()
	std = importer.ForCompiler(fset, "gc", nil)
	base = m.tree(fsys, fset, m.basePath, deps, std, goVersion)
	for _, d := range sortedDirs(m.pkgDirs) {
		base.check(importPath(m.basePath, m.dir, d), d)
	}
	if c.bases == nil {
		return base, fset, std, func() {}
	}
	e := &baseEntry{key: key, fset: fset, std: std, tree: base}
	return base, fset, std, func() { c.bases.put(e, true) }
}

// sortedDirs returns the keys of dirs, sorted.
func sortedDirs(dirs map[string]bool) []string { return slices.Sorted(maps.Keys(dirs)) }
