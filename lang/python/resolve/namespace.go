package resolve

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/agentverify/agentverify/lang"
)

// namespace is what a module's real source binds at its top level, read without
// importing it (design.md §4.3): what a `from m import x` or `m.x` may name.
type namespace struct {
	names map[string]bool
	// dynamic is set when the module builds its namespace at run time beyond what the
	// source shows (globals().update, setattr on sys.modules, exec, a __getattr__ whose
	// answers cannot be listed, a star import that cannot be followed): nothing about
	// its members is reported.
	dynamic bool
	// open is set when the module answers names no source lists: a __getattr__ whose
	// answers cannot be listed, or an unknown object in its place in sys.modules. A
	// dynamic namespace that is not open is only incomplete: a stub pyright reads for it
	// describes what it builds (numpy's __init__.pyi).
	open bool
}

// has reports whether name may be a member of the module.
func (ns *namespace) has(name string) bool { return ns == nil || ns.dynamic || ns.names[name] }

// public returns the names a suggestion may offer.
func (ns *namespace) public() []string {
	var out []string
	for n := range ns.names {
		if !strings.HasPrefix(n, "_") {
			out = append(out, n)
		}
	}
	return out
}

// modSource is the real source of a module: a .py file in the head tree or on the
// interpreter's sys.path (never a stub: a stub is what pyright already read).
type modSource struct {
	fsys fs.FS
	rel  string // the file, slash-separated, in fsys
	pkg  bool   // rel is a package's __init__.py
	// key identifies an installed file and its version for the warm cache ("" for the
	// head tree's files, which are read once per verification).
	key string
	src []byte
}

// realSource finds the source of a dotted module, nil when it has none (a compiled
// extension, a stub-only package, no such module).
func (j *job) realSource(module string) *modSource {
	rel := strings.ReplaceAll(module, ".", "/")
	cands := []string{rel + ".py", rel + "/__init__.py"}
	if head := j.headFS(); head != nil {
		for i, c := range append(cands, "src/"+cands[0], "src/"+cands[1]) { // src/ layout too
			if src, err := fs.ReadFile(head, c); err == nil {
				return &modSource{fsys: head, rel: c, pkg: i%2 == 1, src: src}
			}
		}
	}
	for _, dir := range j.sysPath() {
		for i, c := range cands {
			p := filepath.Join(dir, filepath.FromSlash(c))
			st, err := os.Stat(p)
			if err != nil || !st.Mode().IsRegular() {
				continue
			}
			src, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			key := p + "\x00" + st.ModTime().String() + "\x00" + strconv.FormatInt(st.Size(), 10)
			return &modSource{fsys: os.DirFS(dir), rel: c, pkg: i == 1, key: key, src: src}
		}
	}
	return nil
}

// srcCache keeps what the checks beyond pyright read from installed modules between
// verifications of a warm process: namespaces and syntax trees keyed by file,
// modification time and size (an upgrade of the package changes the key), and the
// typeshed stub directories of pyright's install (the interpreter's sys.path is
// cache.sysPath's).
type srcCache struct {
	mu     sync.Mutex
	ns     map[string]*namespace
	parsed map[string]parsedSource
	paths  map[string][]string
}

func newSrcCache() *srcCache {
	return &srcCache{ns: map[string]*namespace{}, parsed: map[string]parsedSource{}, paths: map[string][]string{}}
}

func (c *srcCache) namespace(key string) (*namespace, bool) {
	if c == nil || key == "" {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ns, ok := c.ns[key]
	return ns, ok
}

func (c *srcCache) putNamespace(key string, ns *namespace) {
	if c != nil && key != "" {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.ns[key] = ns
	}
}

func (c *srcCache) tree(key string) (parsedSource, bool) {
	if c == nil || key == "" {
		return parsedSource{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.parsed[key]
	return p, ok
}

func (c *srcCache) putTree(key string, p parsedSource) {
	if c != nil && key != "" {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.parsed[key] = p
	}
}

func (c *srcCache) sysPath(key string) ([]string, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.paths[key]
	return p, ok
}

func (c *srcCache) putSysPath(key string, dirs []string) {
	if c != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.paths[key] = dirs
	}
}

// namespaceOf returns the namespace of module read from its real source, nil when it has
// none to read. It parses a module only when asked, once per job, and an installed one
// once per warm process while its file is unchanged.
func (j *job) namespaceOf(module string) *namespace {
	if ns, ok := j.namespaces[module]; ok {
		return ns
	}
	j.namespaces[module] = &namespace{dynamic: true} // an import cycle reads as dynamic
	ms := j.realSource(module)
	var ns *namespace
	if ms != nil {
		key := "python/ns\x00" + ms.key
		if cached, ok := j.fe.srcs.namespace(ms.key); ok {
			ns = cached
		} else if ms.key != "" {
			ns = memoized(j.req.Memo, key, func() any { return j.readNamespace(module, ms) }).(*namespace)
		} else {
			ns = j.readNamespace(module, ms)
		}
		j.fe.srcs.putNamespace(ms.key, ns)
	}
	j.namespaces[module] = ns
	return ns
}

// readNamespace parses a module's source and collects its top-level names.
func (j *job) readNamespace(module string, ms *modSource) *namespace {
	tree, err := j.fe.g.Parse(ms.src)
	if err != nil {
		return &namespace{dynamic: true}
	}
	c := &nsCollector{j: j, module: module, pkg: ms.pkg, src: ms.src, root: tree,
		ns: &namespace{names: map[string]bool{}}}
	c.block(tree)
	c.globals(tree)
	if metaPath(ms.src) {
		c.ns.dynamic = true // an import hook serves submodules the files do not show
	}
	c.lazy()
	if ms.pkg {
		for _, sub := range moduleEntries(ms.fsys, path.Dir(ms.rel)) {
			c.ns.names[sub] = true
		}
		for _, sub := range privateEntries(ms.fsys, path.Dir(ms.rel)) {
			c.ns.names[sub] = true
		}
	}
	return c.ns
}

// privateEntries lists the underscore modules and packages of dir (moduleEntries leaves
// them out: they are not suggested, but they exist).
func privateEntries(fsys fs.FS, dir string) []string {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, "_") {
			continue
		}
		if e.IsDir() {
			out = append(out, name)
		} else if base, _, ok := strings.Cut(name, "."); ok {
			out = append(out, base)
		}
	}
	return out
}

// dyn is the job's state for the checks that read modules' real sources.
type dyn struct {
	namespaces map[string]*namespace
	modules    map[string]bool // isModule
	blind      map[string]bool // pyrightBlind
	stubDirs   *[]string
	stubTops   map[string][]string     // stubDirsHolding
	other      map[*target]otherCode   // otherPython
	parsed     map[string]parsedSource // parsedModule
	setIndex   setAttrs                // classes
	projFiles  *projectFiles           // projectIndex
}

func newDyn() dyn {
	return dyn{namespaces: map[string]*namespace{}, modules: map[string]bool{}, blind: map[string]bool{}, other: map[*target]otherCode{}, parsed: map[string]parsedSource{}}
}

// metaPath reports whether a module's source installs an import hook (setuptools.extern's
// VendorImporter appends itself to sys.meta_path).
func metaPath(src []byte) bool { return bytes.Contains(src, []byte("sys.meta_path.")) }

// memoSlot is a value of the verification's Memo computed outside the Memo's lock: reading
// one module's namespace may read others' (star imports), which a nested Memo.Get would
// deadlock on. Two passes racing for a slot may both compute it; the first result stays.
type memoSlot struct {
	mu   sync.Mutex
	v    any
	done bool
}

// memoized returns the value of key in m, built by build on first use (m may be nil).
func memoized(m lang.Memo, key string, build func() any) any {
	if m == nil {
		return build()
	}
	slot := m.Get(key, func() any { return &memoSlot{} }).(*memoSlot)
	slot.mu.Lock()
	if slot.done {
		defer slot.mu.Unlock()
		return slot.v
	}
	slot.mu.Unlock()
	v := build()
	slot.mu.Lock()
	defer slot.mu.Unlock()
	if !slot.done {
		slot.v, slot.done = v, true
	}
	return slot.v
}
