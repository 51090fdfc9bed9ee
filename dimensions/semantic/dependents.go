package semantic

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

	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// brokenDependents type-checks, at the head of the change, the packages of the module
// that import a package whose API the change broke (broken lists the removed or changed
// names per package directory) and are not themselves part of the change, and reports
// each at its first error that names a broken symbol. Errors that name none of them are
// not the change's doing and are left alone.
func brokenDependents(pass *check.Pass, loader *load.Loader, broken map[string][]string) ([]check.Finding, error) {
	if len(broken) == 0 || pass.Changes.HeadFS == nil {
		return nil, nil // nothing broken, or no tree to find the dependents in
	}
	changedDirs := map[string]bool{}
	for _, f := range pass.Changes.Files {
		changedDirs[path.Dir(f.Path)] = true
	}
	// Group the broken packages by module.
	byModule := map[string][]string{}
	for dir := range broken {
		mod, ok := load.ModuleRoot(pass.Changes.HeadFS, dir+"/x.go")
		if !ok {
			continue
		}
		byModule[mod] = append(byModule[mod], dir)
	}
	mods := make([]string, 0, len(byModule))
	for m := range byModule {
		mods = append(mods, m)
	}
	sort.Strings(mods)
	var out []check.Finding
	for _, mod := range mods {
		fs, err := moduleDependents(pass, loader, mod, broken, changedDirs)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

type listed struct {
	dir, importPath string
	imports         map[string]bool
	goFiles         []string
}

func moduleDependents(pass *check.Pass, loader *load.Loader, mod string, broken map[string][]string, changedDirs map[string]bool) ([]check.Finding, error) {
	root := pass.Changes.Root
	modDir := filepath.Join(root, filepath.FromSlash(mod))
	pkgs, err := goList(pass.Context, loader, modDir)
	if err != nil {
		return nil, err
	}
	files, symbols := importers(root, pkgs, broken, changedDirs)
	if len(files) == 0 {
		return nil, nil
	}
	req := load.Request{Dir: modDir, Files: files, Overlay: map[string][]byte{}}
	for _, f := range pass.Changes.Files {
		abs := filepath.Join(root, filepath.FromSlash(f.Path))
		if f.Analyzable() && strings.HasSuffix(f.Path, ".go") {
			if disk, err := os.ReadFile(abs); err != nil || !bytes.Equal(disk, f.Head) {
				req.Overlay[abs] = f.Head
			}
		}
	}
	res, err := loader.Check(pass.Context, req)
	if err != nil {
		return nil, fmt.Errorf("type-checking the dependents of the change: %w", err)
	}
	return firstBreaks(root, res, symbols), nil
}

// relDir returns abs relative to root with '/' separators.
func relDir(root, abs string) string {
	rel, _ := filepath.Rel(root, abs)
	return filepath.ToSlash(rel)
}

// importers returns a file of each package outside the change that imports a broken
// package, and per such package directory the broken names it may use.
func importers(root string, pkgs []listed, broken map[string][]string, changedDirs map[string]bool) (files []string, symbols map[string][]string) {
	brokenPaths := map[string][]string{} // import path → broken names
	for _, p := range pkgs {
		if names, ok := broken[relDir(root, p.dir)]; ok {
			brokenPaths[p.importPath] = names
		}
	}
	symbols = map[string][]string{}
	for _, p := range pkgs {
		rel := relDir(root, p.dir)
		if changedDirs[rel] || len(p.goFiles) == 0 {
			continue
		}
		for imp, names := range brokenPaths {
			if p.imports[imp] {
				symbols[rel] = append(symbols[rel], names...)
			}
		}
		if len(symbols[rel]) > 0 {
			files = append(files, filepath.Join(p.dir, p.goFiles[0]))
		}
	}
	return files, symbols
}

// firstBreaks reports each dependent package at its first error that names a broken
// symbol.
func firstBreaks(root string, res *load.Result, symbols map[string][]string) []check.Finding {
	var out []check.Finding
	seen := map[string]bool{}
	for _, p := range res.Packages {
		for _, e := range p.Errors {
			if e.Pos.Filename == "" {
				continue
			}
			rel := relDir(root, e.Pos.Filename)
			dir := path.Dir(rel)
			name := mentioned(e.Msg, symbols[dir])
			if seen[dir] || name == "" {
				continue
			}
			seen[dir] = true
			out = append(out, check.Finding{
				Rule:       brokenDependent.ID,
				Location:   check.Location{File: rel, Line: max(e.Pos.Line, 1), Column: e.Pos.Column},
				Message:    fmt.Sprintf("package %s no longer type-checks: %s (broken by the change to %s)", dir, strings.Join(strings.Fields(e.Msg), " "), name),
				Suggestion: fmt.Sprintf("keep %s compatible, or update this caller in the same change", name),
				Symbol:     dir + ":" + name,
				Introduced: true,
			})
		}
	}
	return out
}

// mentioned returns the first of names that msg refers to as a whole word.
func mentioned(msg string, names []string) string {
	for _, n := range names {
		short := n
		if i := strings.LastIndex(n, "."); i >= 0 {
			short = n[i+1:] // a method or field: T.M is used as x.M
		}
		if regexp.MustCompile(`\b` + regexp.QuoteMeta(short) + `\b`).MatchString(msg) {
			return n
		}
	}
	return ""
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
