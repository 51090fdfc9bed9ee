package resolve

import (
	"crypto/sha256"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/agentverify/agentverify/lang/python/syntax"
)

// Cache keeps what the frontend derives from file contents, keyed by the content's
// SHA-256, so that one verification parses each file once (Parse, the resolver's steps,
// the dependency checks and the API comparison share the tree) and a long-lived process
// re-derives only what changed (design.md §4.3): syntax trees of recent sources, the
// classes each project file defines, the names each module source declares. A key is
// the content itself, so an entry is never stale; the trees are bounded by their
// sources' size. It is safe for concurrent use; what it returns is shared and must not be
// modified.
type Cache struct {
	mu sync.Mutex
	// trees are the syntax trees of recently parsed sources, oldest first in order.
	trees     map[[32]byte]*syntax.Node
	order     [][32]byte
	sizes     map[[32]byte]int
	treeBytes int
	// classes are the classes one file defines (collectClasses) and the attributes it
	// sets by name (collectSetattrs), by its content.
	classes map[[32]byte]projectFile
	// decls are what one module's stub or source declares (readDecl), by its name, kind
	// and content.
	decls map[[32]byte]*modDecl
	// paths are interpreters' sys.path, by interpreter.
	paths map[string]sysPathEntry
}

// sysPathEntry is an interpreter's sys.path with what it was read from: the interpreter
// and the directories' modification times (installing a distribution, or a .pth file
// that adds a directory, changes its site-packages directory's).
type sysPathEntry struct {
	dirs   []string
	stamps map[string]stamp
}

// stamp is what stat says of a file; the zero value is a file that does not exist.
type stamp struct {
	mod  time.Time
	size int64
}

func stampOf(p string) stamp {
	fi, err := os.Stat(p)
	if err != nil {
		return stamp{}
	}
	return stamp{fi.ModTime(), fi.Size()}
}

// sysPath returns the sys.path of the interpreter py: ask's answer, kept while the
// interpreter and the directories are unchanged (running an interpreter costs more than
// the rest of a warm verification). A failed ask (nil) is asked again next time.
func (c *Cache) sysPath(py string, ask func() []string) []string {
	if c == nil {
		return ask()
	}
	c.mu.Lock()
	e, ok := c.paths[py]
	c.mu.Unlock()
	if ok && e.valid() {
		return e.dirs
	}
	e = sysPathEntry{dirs: ask(), stamps: map[string]stamp{py: stampOf(py)}}
	if e.dirs == nil {
		return nil
	}
	for _, d := range e.dirs {
		e.stamps[d] = stampOf(d)
	}
	c.mu.Lock()
	c.paths[py] = e
	c.mu.Unlock()
	return e.dirs
}

func (e sysPathEntry) valid() bool {
	for p, st := range e.stamps {
		if stampOf(p) != st {
			return false
		}
	}
	return true
}

// maxTreeBytes bounds the sources whose trees the cache keeps (a tree takes about 30
// times its source): enough for every file of a change and the stubs its suggestions
// read, not for a whole repository.
const maxTreeBytes = 4 << 20

// maxEntries bounds the classes and names kept: a project's files several times over.
const maxEntries = 50000

// NewCache returns an empty cache, for one frontend value.
func NewCache() *Cache {
	return &Cache{trees: map[[32]byte]*syntax.Node{}, sizes: map[[32]byte]int{},
		classes: map[[32]byte]projectFile{}, decls: map[[32]byte]*modDecl{}, paths: map[string]sysPathEntry{}}
}

// namedClass is one class a file defines, in source order.
type namedClass struct {
	name string
	info *classInfo
}

// parse returns src's syntax tree, parsing it only when the cache does not hold it.
func (fe Resolver) parse(src []byte) (*syntax.Node, error) { return fe.cache.Parse(fe.g, src) }

// Parse returns src's syntax tree as g parses it, parsing it only when c does not hold
// it; a nil c parses every time.
func (c *Cache) Parse(g *syntax.Grammar, src []byte) (*syntax.Node, error) {
	if c == nil {
		return g.Parse(src)
	}
	key := sha256.Sum256(src)
	c.mu.Lock()
	tree := c.trees[key]
	c.mu.Unlock()
	if tree != nil {
		return tree, nil
	}
	tree, err := g.Parse(src)
	if err != nil || len(src) > maxTreeBytes/4 {
		return tree, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.trees[key]; !ok {
		c.trees[key], c.sizes[key] = tree, len(src)
		c.order = append(c.order, key)
		c.treeBytes += len(src)
	}
	for c.treeBytes > maxTreeBytes && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.treeBytes -= c.sizes[old]
		delete(c.trees, old)
		delete(c.sizes, old)
	}
	return tree, nil
}

// projectFile is what the project-wide checks need of one file of the project: the
// classes it defines and the attributes it sets by name, derived from one parse.
type projectFile struct {
	classes []namedClass
	sets    setAttrs
}

// projectFile returns what src defines and sets, computed once per content.
func (fe Resolver) projectFile(src []byte) projectFile {
	var m map[[32]byte]projectFile
	if fe.cache != nil {
		m = fe.cache.classes
	}
	return byContent(fe, m, src, func(tree *syntax.Node) projectFile {
		f := projectFile{sets: setAttrs{}}
		collectClasses(tree, src, &f.classes)
		collectSetattrs(tree, src, f.sets)
		return f
	})
}

// moduleDecl returns what the stub or source src of module declares (readDecl),
// computed once per module name, kind and content.
func (fe Resolver) moduleDecl(module string, src []byte, pkg, stub bool) *modDecl {
	var m map[[32]byte]*modDecl
	if fe.cache != nil {
		m = fe.cache.decls
	}
	key := fmt.Appendf(nil, "%s\x00%t\x00%t\x00", module, pkg, stub)
	return byKeyParsed(fe, m, sha256.Sum256(append(key, src...)), src, fe.g.ParseDecls, func(tree *syntax.Node) *modDecl {
		return readDecl(module, tree, src, pkg, stub) // never reads a function's body
	})
}

// byContent returns derive of src's tree, kept in m (under fe.cache.mu) by src's hash;
// m is nil without a cache. The tree is parsed without the tree cache: a whole project's
// trees would evict the change's. A source that does not parse derives nothing.
func byContent[T any](fe Resolver, m map[[32]byte]T, src []byte, derive func(*syntax.Node) T) T {
	var key [32]byte
	if m != nil {
		key = sha256.Sum256(src)
	}
	return byKey(fe, m, key, src, derive)
}

// byKey is byContent under a key the caller computed.
func byKey[T any](fe Resolver, m map[[32]byte]T, key [32]byte, src []byte, derive func(*syntax.Node) T) T {
	return byKeyParsed(fe, m, key, src, fe.g.Parse, derive)
}

// byKeyParsed is byKey with the tree parse makes.
func byKeyParsed[T any](fe Resolver, m map[[32]byte]T, key [32]byte, src []byte, parse func([]byte) (*syntax.Node, error), derive func(*syntax.Node) T) T {
	if m != nil {
		fe.cache.mu.Lock()
		v, ok := m[key]
		fe.cache.mu.Unlock()
		if ok {
			return v
		}
	}
	var zero T
	tree, err := parse(src)
	if err != nil {
		return zero
	}
	v := derive(tree)
	if m != nil {
		fe.cache.mu.Lock()
		if len(m) >= maxEntries {
			clear(m) // a long session's old versions of files
		}
		m[key] = v
		fe.cache.mu.Unlock()
	}
	return v
}
