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

// headDeps loads the head of the module's changed Go files and returns every package
// they import, directly or not, with the module's go version ("go1.22").
func (c *Comparer) headDeps(ctx context.Context, set *change.Set, m *module) (map[string]*types.Package, string, error) {
	req := headRequest(set, m.dir)
	deps := map[string]*types.Package{}
	if len(req.Files) == 0 {
		return deps, "", nil
	}
	res, err := c.loader.Check(ctx, req)
	if err != nil {
		return nil, "", fmt.Errorf("loading the head of %s: %w", m.dir, err)
	}
	var walk func(*types.Package)
	walk = func(p *types.Package) {
		if p == nil || deps[p.Path()] != nil {
			return
		}
		deps[p.Path()] = p
		for _, ip := range p.Imports() {
			walk(ip)
		}
	}
	for _, p := range res.Packages {
		for _, im := range p.Imports {
			walk(im.Types)
		}
	}
	goVersion := ""
	if res.Module.GoVersion != "" {
		goVersion = "go" + res.Module.GoVersion
	}
	return deps, goVersion, nil
}

// headRequest is the load of the head of the module at modDir that the hallucination
// dimension makes for the same change (every changed Go file of the module, with what
// differs from the disk as overlay), so that a loader shared with it answers from its
// cache.
func headRequest(set *change.Set, modDir string) load.Request {
	root := set.Root
	req := load.Request{Dir: filepath.Join(root, filepath.FromSlash(modDir)), Overlay: map[string][]byte{}}
	overlay := func(rel string, content []byte) {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if disk, err := os.ReadFile(abs); err != nil || string(disk) != string(content) {
			req.Overlay[abs] = content
		}
	}
	pkgDirs := map[string]bool{}
	for _, f := range set.Files {
		if !f.Analyzable() {
			continue
		}
		switch base := path.Base(f.Path); {
		case (base == "go.mod" || base == "go.sum") && path.Dir(f.Path) == modDir:
			overlay(f.Path, f.Head)
		case strings.HasSuffix(f.Path, ".go"):
			if dir, ok := load.ModuleRoot(set.HeadFS, f.Path); ok && dir == modDir {
				req.Files = append(req.Files, filepath.Join(root, filepath.FromSlash(f.Path)))
				overlay(f.Path, f.Head)
				pkgDirs[path.Dir(f.Path)] = true
			}
		}
	}
	for dir := range pkgDirs {
		ents, _ := fs.ReadDir(set.HeadFS, dir)
		for _, e := range ents {
			rel := path.Join(dir, e.Name())
			abs := filepath.Join(root, filepath.FromSlash(rel))
			if _, done := req.Overlay[abs]; done || e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			if b, err := fs.ReadFile(set.HeadFS, rel); err == nil {
				overlay(rel, b)
			}
		}
	}
	sort.Strings(req.Files)
	return req
}
