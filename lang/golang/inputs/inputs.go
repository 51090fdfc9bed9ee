// Package inputs names what the Go analysis of a directory depends on, for the result
// cache (lang.InputHasher, design.md §9): the toolchain and its configuration, the
// module's go.mod and go.sum (which pin every required module's content, the module cache
// being read-only and verified against go.sum), and the source of every package of the
// module the directory's package imports, transitively. It reads the disk, as the toolchain
// does, so a file that git ignores still counts. Whatever it cannot name makes the
// directory uncacheable: a go.work workspace, a vendor directory, a replace by a local
// path, an import no requirement covers (its result would depend on what the module cache
// happens to hold), a nested module.
package inputs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// Digests returns the digest of the inputs of each directory of dirs (relative to root)
// that holds a Go package it can vouch for.
func Digests(ctx context.Context, root string, dirs []string) (map[string][]byte, error) {
	tool, err := toolchain(ctx, root)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	if tool == nil {
		return out, nil
	}
	w := &walker{root: root, tool: tool, mods: map[string]*module{}, pkgs: map[string]*pkg{}}
	for _, d := range dirs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if sum, ok := w.digest(d); ok {
			out[d] = sum
		}
	}
	return out, nil
}

// toolchain returns the configuration of the go command that the loader runs in root
// (the same environment: GOTOOLCHAIN=local), or nil when a workspace is in force.
func toolchain(ctx context.Context, root string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", "env", "-json", "GOVERSION", "GOROOT", "GOOS", "GOARCH",
		"GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT", "GOWORK", "GOAMD64", "GOARM", "GOARM64", "GO386", "GOPPC64", "GORISCV64",
		"CC", "CXX", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_LDFLAGS", "PKG_CONFIG")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOPROXY=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	var env map[string]string
	if err := json.Unmarshal(out, &env); err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	if w := env["GOWORK"]; w != "" && w != "off" {
		return nil, nil
	}
	return out, nil
}

// module is what a module's go.mod pins.
type module struct {
	dir      string // absolute
	path     string // module path
	requires []string
	files    []byte // go.mod and go.sum
	ok       bool   // false: something the digest cannot name
}

// pkg is one directory's Go source.
type pkg struct {
	sum     [sha256.Size]byte // names and content of its files (Go, assembly, C, embedded data)
	imports []string
	exists  bool
}

type walker struct {
	root string
	tool []byte
	mods map[string]*module
	pkgs map[string]*pkg
}

// digest returns the inputs' digest of the repository-relative directory rel.
func (w *walker) digest(rel string) ([]byte, bool) {
	dir := filepath.Join(w.root, filepath.FromSlash(rel))
	mod := w.moduleOf(dir)
	if mod == nil || !mod.ok {
		return nil, false
	}
	deps := w.closure(mod, dir)
	if deps == nil {
		return nil, false
	}
	h := sha256.New()
	h.Write(w.tool)
	fmt.Fprintf(h, "\x00%s\x00%s\x00", mod.dir, mod.path)
	h.Write(mod.files)
	names := make([]string, 0, len(deps))
	for d := range deps {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		p := w.pkg(d)
		fmt.Fprintf(h, "\x00%s\x00%t\x00", d, p.exists)
		h.Write(p.sum[:])
	}
	return h.Sum(nil), true
}

// moduleOf returns the module whose go.mod is at or above dir, inside the root; nil when
// there is none, or a go.work file is found first.
func (w *walker) moduleOf(dir string) *module {
	for d := dir; ; d = filepath.Dir(d) {
		if m, ok := w.mods[d]; ok {
			return m
		}
		if exists(filepath.Join(d, "go.work")) {
			return nil
		}
		if exists(filepath.Join(d, "go.mod")) {
			m := readModule(d)
			w.mods[d] = m
			return m
		}
		if d == w.root || filepath.Dir(d) == d || !strings.HasPrefix(d, w.root) {
			return nil
		}
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// readModule reads the module at dir.
func readModule(dir string) *module {
	m := &module{dir: dir}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return m
	}
	gosum, _ := os.ReadFile(filepath.Join(dir, "go.sum"))
	m.files = fmt.Appendf(nil, "%d\x00%s\x00%d\x00%s", len(gomod), gomod, len(gosum), gosum)
	f, err := modfile.Parse(filepath.Join(dir, "go.mod"), gomod, nil)
	if err != nil || f.Module == nil || exists(filepath.Join(dir, "vendor")) {
		return m
	}
	for _, r := range f.Replace {
		if modfile.IsDirectoryPath(r.New.Path) {
			return m
		}
	}
	m.path = f.Module.Mod.Path
	for _, r := range f.Require {
		m.requires = append(m.requires, r.Mod.Path)
	}
	m.ok = true
	return m
}

// closure returns dir and the in-module packages it imports, transitively; nil when one
// of their imports cannot be named. The packages' source is read once per walker; the
// graph walk itself is cheap next to it.
func (w *walker) closure(mod *module, dir string) map[string]bool {
	seen := map[string]bool{dir: true}
	queue := []string{dir}
	for len(queue) > 0 {
		p := w.pkg(queue[0])
		queue = queue[1:]
		for _, ip := range p.imports {
			dep, ok := mod.resolve(ip)
			switch {
			case !ok:
				return nil
			case dep == "" || seen[dep]:
				continue
			case w.moduleOf(dep) != mod:
				return nil // a nested module: another go.mod decides
			}
			seen[dep] = true
			queue = append(queue, dep)
		}
	}
	return seen
}

// resolve returns the directory of the in-module package ip names, "" for a package the
// module's configuration pins (the standard library, a required module), and false for an
// import nothing pins.
func (m *module) resolve(ip string) (string, bool) {
	if ip == "C" {
		return "", true // cgo: the directory's C files are in its digest, the compiler's flags in the toolchain's
	}
	if ip == m.path || strings.HasPrefix(ip, m.path+"/") {
		return filepath.Join(m.dir, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(ip, m.path), "/"))), true
	}
	if first, _, _ := strings.Cut(ip, "/"); !strings.Contains(first, ".") {
		return "", true // the standard library: GOROOT and GOVERSION are in the digest
	}
	for _, r := range m.requires {
		if ip == r || strings.HasPrefix(ip, r+"/") {
			return "", true
		}
	}
	return "", false
}

// pkg reads the Go source of the absolute directory dir.
func (w *walker) pkg(dir string) *pkg {
	if p, ok := w.pkgs[dir]; ok {
		return p
	}
	p := &pkg{}
	w.pkgs[dir] = p
	des, err := os.ReadDir(dir)
	if err != nil {
		return p
	}
	p.exists = true
	h := sha256.New()
	imports := map[string]bool{}
	fset := token.NewFileSet()
	for _, de := range des {
		name := de.Name()
		if !de.Type().IsRegular() && de.Type()&fs.ModeSymlink == 0 {
			continue // a directory, a pipe: the toolchain reads neither as a source file
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			data = []byte("unreadable: " + err.Error())
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
		h.Write(data)
		if path.Ext(name) != ".go" {
			continue
		}
		f, _ := parser.ParseFile(fset, name, data, parser.ImportsOnly)
		if f == nil {
			continue
		}
		for _, is := range f.Imports {
			if ip, err := strconv.Unquote(is.Path.Value); err == nil {
				imports[ip] = true
			}
		}
	}
	copy(p.sum[:], h.Sum(nil))
	for ip := range imports {
		p.imports = append(p.imports, ip)
	}
	sort.Strings(p.imports)
	return p
}
