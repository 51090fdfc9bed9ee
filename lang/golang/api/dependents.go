package api

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// BrokenUses type-checks, at the head of the change, the packages of each module that
// import a package with an incompatible change and are not themselves part of the
// change, and reports every one of their errors that names what changed. Errors that
// name nothing the change broke are not its doing and are left alone.
func (c *Comparer) BrokenUses(ctx context.Context, set *change.Set, changes []lang.APIChange) ([]lang.BrokenUse, error) {
	if len(changes) == 0 || set.HeadFS == nil {
		return nil, nil
	}
	byModule := map[string][]lang.APIChange{}
	for _, ch := range changes {
		mod, ok := load.ModuleRoot(set.HeadFS, path.Join(ch.Dir, "x.go"))
		if !ok {
			mod, ok = load.ModuleRoot(set.BaseFS, path.Join(ch.Dir, "x.go"))
		}
		if ok && ch.Subject != "module "+ch.Package {
			byModule[mod] = append(byModule[mod], ch)
		}
	}
	mods := make([]string, 0, len(byModule))
	for m := range byModule {
		mods = append(mods, m)
	}
	sort.Strings(mods)
	var out []lang.BrokenUse
	for _, mod := range mods {
		uses, err := c.moduleDependents(ctx, set, mod, byModule[mod])
		if err != nil {
			return nil, err
		}
		out = append(out, uses...)
	}
	return out, nil
}

// listed is one package of `go list`.
type listed struct {
	dir, importPath string
	imports         map[string]bool
	goFiles         []string
}

func (c *Comparer) moduleDependents(ctx context.Context, set *change.Set, mod string, changes []lang.APIChange) ([]lang.BrokenUse, error) {
	modDir := filepath.Join(set.Root, filepath.FromSlash(mod))
	pkgs, err := goList(ctx, c.loader, modDir)
	if err != nil {
		return nil, err
	}
	changedDirs := map[string]bool{}
	for _, f := range set.Files {
		changedDirs[path.Dir(f.Path)] = true
	}
	files, uses := importers(set.Root, pkgs, changes, changedDirs)
	if len(files) == 0 {
		return nil, nil
	}
	req := load.Request{Dir: modDir, Files: files, Overlay: map[string][]byte{}}
	for _, f := range set.Files {
		abs := filepath.Join(set.Root, filepath.FromSlash(f.Path))
		if f.Analyzable() && strings.HasSuffix(f.Path, ".go") {
			if disk, err := os.ReadFile(abs); err != nil || !bytes.Equal(disk, f.Head) {
				req.Overlay[abs] = f.Head
			}
		}
	}
	res, err := c.loader.CheckErrors(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("type-checking the dependents of the change: %w", err)
	}
	return breaks(set.Root, res, uses), nil
}

// relDir returns abs relative to root with '/' separators.
func relDir(root, abs string) string {
	rel, _ := filepath.Rel(root, abs)
	return filepath.ToSlash(rel)
}

// dependent is a package outside the change that imports a changed package.
type dependent struct {
	importPath string
	changes    []lang.APIChange // of the packages it imports
}

// importers returns a file of each package outside the change that imports a changed
// package, and per such package directory what it is and the changes it may suffer.
func importers(root string, pkgs []listed, changes []lang.APIChange, changedDirs map[string]bool) (files []string, uses map[string]*dependent) {
	uses = map[string]*dependent{}
	for _, p := range pkgs {
		rel := relDir(root, p.dir)
		if changedDirs[rel] || len(p.goFiles) == 0 {
			continue
		}
		d := &dependent{importPath: p.importPath}
		for _, ch := range changes {
			if p.imports[ch.Package] {
				d.changes = append(d.changes, ch)
			}
		}
		if len(d.changes) > 0 {
			uses[rel] = d
			files = append(files, filepath.Join(p.dir, p.goFiles[0]))
		}
	}
	return files, uses
}

// breaks reports every error of a dependent package that names a changed symbol, once
// per position (a package's test variants repeat its errors).
func breaks(root string, res *load.Result, uses map[string]*dependent) []lang.BrokenUse {
	var out []lang.BrokenUse
	seen := map[string]bool{}
	for _, p := range res.Packages {
		for _, e := range p.Errors {
			if e.Pos.Filename == "" {
				continue
			}
			rel := relDir(root, e.Pos.Filename)
			d := uses[path.Dir(rel)]
			if d == nil {
				continue
			}
			ch, ok := mentioned(e.Msg, d.changes)
			key := fmt.Sprintf("%s:%d:%d", rel, e.Pos.Line, e.Pos.Column)
			if !ok || seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, lang.BrokenUse{
				Package: d.importPath, Dir: path.Dir(rel),
				At:      lang.Place{File: rel, Pos: lang.Pos{Line: max(e.Pos.Line, 1), Column: e.Pos.Column}},
				Message: strings.Join(strings.Fields(e.Msg), " "),
				Change:  ch,
			})
		}
	}
	return out
}

// mentioned returns the first change whose name msg refers to as a whole word.
func mentioned(msg string, changes []lang.APIChange) (lang.APIChange, bool) {
	for _, ch := range changes {
		if ch.Name != "" && regexp.MustCompile(`\b`+regexp.QuoteMeta(ch.Name)+`\b`).MatchString(msg) {
			return ch, true
		}
	}
	return lang.APIChange{}, false
}

// goList lists the packages of the module at dir with their imports (test imports
// included), without type-checking anything.
func goList(ctx context.Context, loader *load.Loader, dir string) ([]listed, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-f",
		`{{.Dir}}{{"\t"}}{{.ImportPath}}{{"\t"}}{{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}{{"\t"}}{{join .GoFiles " "}} {{join .TestGoFiles " "}}`, "./...")
	cmd.Dir = dir
	cmd.Env = loader.Env(dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list ./... in %s: %v: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	var pkgs []listed
	for _, line := range strings.Split(strings.TrimSpace(string(outb)), "\n") {
		parts := strings.Split(line, "\t")
		if len(parts) != 4 {
			continue
		}
		p := listed{dir: parts[0], importPath: parts[1], imports: map[string]bool{}, goFiles: strings.Fields(parts[3])}
		for _, imp := range strings.Fields(parts[2]) {
			p.imports[imp] = true
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}
