package api

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"path"
	"runtime"
	"sort"
	"strings"
)

// tree type-checks the changed packages of one side of a change from its file system.
type tree struct {
	fsys      fs.FS
	fset      *token.FileSet
	goVersion string                    // "go1.22", or empty
	dirs      map[string]string         // import path → directory, for the changed packages
	deps      map[string]*types.Package // the head's dependencies, by import path
	std       types.Importer            // standard-library packages the deps lack
	done      map[string]*checked       // by directory
	missed    bool                      // an import outside the standard library was not in deps
	// imported holds each import resolved outside the tree's own packages: the package
	// deps gave, or nil when it came from the standard library or failed (Bases).
	imported map[string]*types.Package
	// parsed holds what parseDir made of each Go file it read, by repository-relative
	// path; like is the tree (the base, sharing fset) whose parsed files this one takes
	// for the files whose bytes are the same: most of a changed package is not changed,
	// and go/types only reads a syntax tree, so both sides can check the same one.
	parsed map[string]*parsedFile
	like   *tree
	read   map[string][]byte // files read already (the head's load request), by path
}

// parsedFile is one Go file as parseDir found it.
type parsedFile struct {
	src   []byte
	built bool      // part of the build (buildMatch)
	f     *ast.File // nil when not built or it does not parse
}

// checked is one package of one side.
type checked struct {
	path   string
	dir    string
	pkg    *types.Package // nil when the directory holds no Go package on this side
	files  []*ast.File
	broken bool // a file does not parse
	busy   bool // being checked: an import cycle
}

var errCycle = errors.New("import cycle")

// Import resolves an import of a package being checked: a changed package from this
// side, else the head's dependency, else a standard-library package.
func (t *tree) Import(p string) (*types.Package, error) {
	if dir, ok := t.dirs[p]; ok {
		c := t.check(p, dir)
		switch {
		case c.busy:
			return nil, fmt.Errorf("%s: %w", p, errCycle)
		case c.pkg != nil:
			return c.pkg, nil
		}
	}
	pkg := t.deps[p]
	t.imported[p] = pkg
	if pkg != nil {
		return pkg, nil
	}
	if first, _, _ := strings.Cut(p, "/"); !strings.Contains(first, ".") && t.std != nil {
		return t.std.Import(p)
	}
	t.missed = true
	return nil, fmt.Errorf("package %s is not among the loaded packages", p)
}

// check type-checks the package in dir as import path p, once.
func (t *tree) check(p, dir string) *checked {
	if c := t.done[dir]; c != nil {
		return c
	}
	c := &checked{path: p, dir: dir, busy: true}
	t.done[dir] = c
	defer func() { c.busy = false }()
	c.files, c.broken = t.parseDir(dir)
	if len(c.files) == 0 || c.broken {
		return c
	}
	conf := types.Config{
		Importer:    t,
		Error:       func(error) {}, // type errors are the hallucination dimension's
		FakeImportC: true,
		// The API is in the declarations: function bodies are the bulk of the work and
		// change nothing apidiff compares.
		IgnoreFuncBodies: true,
		GoVersion:        t.goVersion,
		Sizes:            types.SizesFor("gc", runtime.GOARCH),
	}
	c.pkg, _ = conf.Check(p, t.fset, c.files, nil)
	return c
}

// parseDir parses the Go files of dir that are part of the build (no tests, build
// constraints for the current platform) and belong to the package of the first of them.
func (t *tree) parseDir(dir string) (files []*ast.File, broken bool) {
	ents, err := fs.ReadDir(t.fsys, dir)
	if err != nil {
		return nil, false
	}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		pf := t.parse(path.Join(dir, name))
		if pf == nil || !pf.built {
			continue
		}
		f := pf.f
		if f == nil {
			return nil, true
		}
		if len(files) == 0 || f.Name.Name == files[0].Name.Name {
			files = append(files, f)
		}
	}
	sort.Slice(files, func(i, j int) bool { return t.fset.File(files[i].Pos()).Name() < t.fset.File(files[j].Pos()).Name() })
	return files, false
}

// parse reads (unless t.read has it) and parses the Go file rel, once per tree, taking
// the like tree's syntax tree when the bytes are the same; nil when it cannot be read.
func (t *tree) parse(rel string) *parsedFile {
	if pf := t.parsed[rel]; pf != nil {
		return pf
	}
	src, ok := t.read[rel]
	if !ok {
		var err error
		if src, err = fs.ReadFile(t.fsys, rel); err != nil {
			return nil
		}
	}
	pf := &parsedFile{src: src}
	if old := t.like.file(rel); old != nil && bytes.Equal(old.src, src) {
		*pf = *old
	} else if pf.built = buildMatch(rel, src); pf.built {
		if f, err := parser.ParseFile(t.fset, rel, src, parser.SkipObjectResolution); err == nil {
			pf.f = f
		}
	}
	t.parsed[rel] = pf
	return pf
}

// file returns what parse made of rel, or nil (also for a nil tree).
func (t *tree) file(rel string) *parsedFile {
	if t == nil {
		return nil
	}
	return t.parsed[rel]
}

// buildMatch reports whether a Go file with this name and content is part of the build for
// the current GOOS and GOARCH (file name suffixes and //go:build lines), as go/build
// decides. Files excluded from the build are not part of the API that callers see.
func buildMatch(name string, content []byte) bool {
	ctx := build.Default
	ctx.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(content)), nil }
	ok, err := ctx.MatchFile("/", path.Base(name))
	return err == nil && ok
}
