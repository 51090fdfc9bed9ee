package resolve

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agentverify/agentverify/lang/commonlisp/asdf"
	"github.com/agentverify/agentverify/lang/commonlisp/index"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// system is a dependency as found in the source registry: its packages and the
// definitions of its source files.
type system struct {
	name   string
	status asdf.Status
	asd    string
	pkgs   []index.Package
	// exports are the top-level export forms of its files.
	exports []index.Export
	defs    []index.Definition
	// incomplete is set when a source file could not be read cleanly: a name the
	// system's packages do not seem to define is then not reported.
	incomplete bool
	// problem says why the system could not be verified; empty when it could.
	problem string
}

// Deps loads dependency systems from the ASDF source registry once and keeps them, with
// the project files read: a long-lived process shares one across verifications (see
// Resolver.Deps; its features must be the resolver's). It is safe for concurrent use.
type Deps struct {
	roots    []asdf.Root
	features []string
	once     sync.Once
	locator  *asdf.Locator
	mu       sync.Mutex
	systems  map[string]*system
	// files are the project files read, by path and content: a base-view pass, and every
	// later verification of a long-lived process, reads only what changed.
	files map[fileKey]*projectFile
}

type fileKey struct {
	path string
	sum  uint64
	size int
}

// maxCachedFiles bounds the files a Deps keeps; past it, the cache starts over.
const maxCachedFiles = 20000

// file returns the project file at path with content src, read and indexed once.
func (d *Deps) file(path string, src []byte, opts reader.Options) *projectFile {
	h := fnv.New64a()
	h.Write(src)
	key := fileKey{path, h.Sum64(), len(src)}
	d.mu.Lock()
	pf, ok := d.files[key]
	d.mu.Unlock()
	if ok {
		return pf
	}
	pf = readFile(path, src, opts)
	d.mu.Lock()
	if len(d.files) >= maxCachedFiles {
		d.files = map[fileKey]*projectFile{}
	}
	d.files[key] = pf
	d.mu.Unlock()
	return pf
}

// NewDeps returns a loader searching roots (asdf.DefaultRoots when nil) and reading
// with features (reader.DefaultFeatures when nil).
func NewDeps(roots []asdf.Root, features []string) *Deps {
	return &Deps{roots: roots, features: features, systems: map[string]*system{}, files: map[fileKey]*projectFile{}}
}

func (d *Deps) loc() *asdf.Locator {
	d.once.Do(func() {
		roots := d.roots
		if roots == nil {
			home, _ := os.UserHomeDir()
			roots = asdf.DefaultRoots(asdf.Env{Home: home})
		}
		d.locator = asdf.NewLocator(roots)
	})
	return d.locator
}

// System returns the dependency named name (as ASDF normalises it).
func (d *Deps) System(name string) *system {
	d.mu.Lock()
	s, ok := d.systems[name]
	d.mu.Unlock()
	if ok {
		return s
	}
	s = d.load(name)
	d.mu.Lock()
	if prev, ok := d.systems[name]; ok {
		s = prev
	} else {
		d.systems[name] = s
	}
	d.mu.Unlock()
	return s
}

// Has reports whether the source registry has a system named name, without loading it.
func (d *Deps) Has(name string) bool {
	_, ok := d.loc().Find(name)
	return ok
}

func (d *Deps) load(name string) *system {
	s := &system{name: name}
	if asdf.Builtin(name) {
		s.status = asdf.Known
		return s
	}
	asd, ok := d.loc().Find(name)
	if !ok {
		s.status = asdf.Missing
		s.problem = fmt.Sprintf("system %q is not installed where ASDF looks (%s)", name, d.describeRoots())
		return s
	}
	s.status, s.asd = asdf.Found, asd
	opts := reader.Options{Features: d.features}
	src, err := os.ReadFile(asd)
	if err != nil {
		s.problem = "reading " + asd + ": " + err.Error()
		return s
	}
	a := asdf.Parse(asd, src, opts)
	files, ok := sourceFiles(a, name)
	if !ok {
		s.problem = fmt.Sprintf("%s does not define system %q", asd, name)
		return s
	}
	for _, f := range files {
		d.read(s, filepath.Join(filepath.Dir(asd), filepath.FromSlash(f)), opts)
	}
	return s
}

// read indexes one source file of a dependency.
func (d *Deps) read(s *system, file string, opts reader.Options) {
	src, err := os.ReadFile(file)
	if err != nil {
		s.incomplete = true
		return
	}
	rf := reader.Read(src, opts)
	if len(rf.Errors) > 0 {
		s.incomplete = true
	}
	ix := index.Build(rf)
	s.pkgs = append(s.pkgs, ix.Packages...)
	s.exports = append(s.exports, ix.Exports...)
	s.defs = append(s.defs, ix.Definitions...)
}

// sourceFiles returns the source files of system name defined in a; a
// package-inferred system's "primary/sub" is sub.lisp.
func sourceFiles(a *asdf.ASD, name string) ([]string, bool) {
	if s := a.System(name); s != nil {
		return s.SourceFiles(), true
	}
	primary, sub, ok := strings.Cut(name, "/")
	if p := a.System(primary); ok && p != nil && p.Class == "PACKAGE-INFERRED-SYSTEM" {
		return []string{sub + ".lisp"}, true
	}
	return nil, false
}

func (d *Deps) describeRoots() string {
	var s []string
	for _, r := range d.loc().Roots() {
		s = append(s, r.Dir)
	}
	if len(s) > 4 {
		s = append(s[:4], "…")
	}
	return strings.Join(s, ", ")
}
