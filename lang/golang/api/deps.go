package api

import (
	"context"
	"fmt"
	"go/types"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// headDeps returns every package that the head of the module's changed Go files imports,
// directly or not, with the module's go version ("go1.22"); from the loader's last load
// of the module when it is still valid (fresh false), else from a new check.
func (c *Comparer) headDeps(ctx context.Context, set *change.Set, m *module, fresh bool) (map[string]*types.Package, string, error) {
	req, read := headRequest(set, m.dir)
	m.headSrc = read
	if len(req.Files) == 0 {
		return map[string]*types.Package{}, "", nil
	}
	var deps map[string]*types.Package
	var mod load.Module
	var err error
	if fresh {
		var res *load.Result
		if res, err = c.loader.Check(ctx, req); err == nil {
			deps, mod = map[string]*types.Package{}, res.Module
			for _, p := range res.Packages {
				for _, im := range p.Imports {
					addImports(deps, im.Types)
				}
			}
		}
	} else {
		deps, mod, err = c.loader.Imports(ctx, req)
	}
	if err != nil {
		return nil, "", fmt.Errorf("loading the head of %s: %w", m.dir, err)
	}
	goVersion := ""
	if mod.GoVersion != "" {
		goVersion = "go" + mod.GoVersion
	}
	return deps, goVersion, nil
}

// addImports adds p and everything it imports, directly or not, to deps.
func addImports(deps map[string]*types.Package, p *types.Package) {
	if p == nil || deps[p.Path()] != nil {
		return
	}
	deps[p.Path()] = p
	for _, ip := range p.Imports() {
		addImports(deps, ip)
	}
}

// headRequest is the load of the head of the module at modDir that the hallucination
// dimension makes for the same change (every changed Go file of the module, with what
// differs from the disk as overlay), so that a loader shared with it answers from its
// cache. read holds the content of every head file it read, by repository-relative path,
// for the head's type-check to take instead of reading them again.
func headRequest(set *change.Set, modDir string) (req load.Request, read map[string][]byte) {
	r := &request{set: set, req: load.Request{Dir: filepath.Join(set.Root, filepath.FromSlash(modDir)), Overlay: map[string][]byte{}}, read: map[string][]byte{}}
	pkgDirs := map[string]bool{}
	for _, f := range set.Files {
		if !f.Analyzable() {
			continue
		}
		switch base := path.Base(f.Path); {
		case (base == "go.mod" || base == "go.sum") && path.Dir(f.Path) == modDir:
			r.overlay(f.Path, f.Head)
		case strings.HasSuffix(f.Path, ".go"):
			if dir, ok := load.ModuleRoot(set.HeadFS, f.Path); ok && dir == modDir {
				r.req.Files = append(r.req.Files, r.abs(f.Path))
				r.overlay(f.Path, f.Head)
				pkgDirs[path.Dir(f.Path)] = true
			}
		}
	}
	for dir := range pkgDirs {
		r.packageFiles(dir)
	}
	sort.Strings(r.req.Files)
	return r.req, r.read
}

// request builds a load request for the head of a change.
type request struct {
	set  *change.Set
	req  load.Request
	read map[string][]byte // the head's content of the files seen, by relative path
}

func (r *request) abs(rel string) string {
	return filepath.Join(r.set.Root, filepath.FromSlash(rel))
}

// overlay puts content for rel into the overlay when it differs from the disk: only
// then, since go/packages type-checks every dependency from source as soon as there is
// any overlay.
func (r *request) overlay(rel string, content []byte) {
	r.read[rel] = content
	if disk, err := os.ReadFile(r.abs(rel)); err != nil || string(disk) != string(content) {
		r.req.Overlay[r.abs(rel)] = content
	}
}

// packageFiles overlays the other Go files of dir as the head sees them (the index, for
// --staged), which may differ from the working tree on disk.
func (r *request) packageFiles(dir string) {
	ents, _ := fs.ReadDir(r.set.HeadFS, dir)
	for _, e := range ents {
		rel := path.Join(dir, e.Name())
		if _, done := r.req.Overlay[r.abs(rel)]; done || e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || r.set.SameOnDisk(rel) {
			continue // the change's files are above; the disk has the others as the head does
		}
		if b, err := fs.ReadFile(r.set.HeadFS, rel); err == nil {
			r.overlay(rel, b)
		}
	}
}
