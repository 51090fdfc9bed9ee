// Package editset builds change sets from proposed in-memory edits ("this path will get this
// content"), with the working tree as base, so an edit can be verified before it is
// written. It is what the agent gate, the editor hooks and the MCP server verify.
package editset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/internal/memfs"
)

// Edit is one proposed file: its repository-relative path and its new content, or a
// deletion.
type Edit struct {
	Path    string
	Content []byte
	Delete  bool
}

// Build returns the change set of applying edits to the working tree at root. Paths must
// be relative, clean and inside root: "..", absolute paths and paths through a symbolic
// link that leaves root are refused.
func Build(root string, edits []Edit) (*change.Set, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	set := &change.Set{Root: root, BaseFS: os.DirFS(root), BaseRev: "working tree", OnDisk: true}
	overlay := map[string]*Edit{}
	for i := range edits {
		e := &edits[i]
		p, err := Clean(root, e.Path)
		if err != nil {
			return nil, err
		}
		if _, dup := overlay[p]; dup {
			return nil, fmt.Errorf("%s: edited twice in one change", p)
		}
		overlay[p] = e
		base, err := readBase(root, p)
		if err != nil {
			return nil, err
		}
		if e.Delete {
			if base == nil {
				return nil, fmt.Errorf("%s: cannot delete a file that does not exist", p)
			}
			set.Files = append(set.Files, change.NewFile(p, p, base, nil))
			continue
		}
		content := e.Content
		if content == nil {
			content = []byte{}
		}
		oldPath := p
		if base == nil {
			oldPath = ""
		}
		set.Files = append(set.Files, change.NewFile(p, oldPath, base, content))
	}
	set.HeadFS = &overlayFS{base: os.DirFS(root), edits: overlay}
	set.Sort()
	return set, nil
}

// Clean validates a proposed path and returns it repository-relative with '/' separators.
// An absolute path inside root is accepted and made relative.
func Clean(root, p string) (string, error) {
	clean, err := lexical(root, p)
	if err != nil {
		return "", err
	}
	if leavesRoot(root, path.Dir(clean)) {
		return "", fmt.Errorf("%s: path leaves the repository through a symbolic link", p)
	}
	full := filepath.Join(root, filepath.FromSlash(clean))
	if fi, err := os.Lstat(full); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return "", fmt.Errorf("%s: path is a symbolic link; edit its target instead", p)
	}
	return clean, nil
}

// lexical checks p as text: relative to root, no "..", not root itself, not in .git.
func lexical(root, p string) (string, error) {
	if p == "" {
		return "", errors.New("empty path")
	}
	if filepath.IsAbs(p) {
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("%s: path is outside the repository %s", p, root)
		}
		p = rel
	}
	p = filepath.ToSlash(p)
	if slices.Contains(strings.Split(p, "/"), "..") {
		return "", fmt.Errorf("%s: path must not contain '..'", p)
	}
	clean := path.Clean(p)
	switch {
	case clean == "." || strings.HasPrefix(clean, "/"):
		return "", fmt.Errorf("%s: not a file path inside the repository", p)
	case clean == ".git" || strings.HasPrefix(clean, ".git/"):
		return "", fmt.Errorf("%s: path is inside .git", p)
	}
	return clean, nil
}

// leavesRoot reports whether the nearest existing ancestor of dir (relative to root)
// resolves, through symbolic links, to a place outside root.
func leavesRoot(root, dir string) bool {
	abs := filepath.Join(root, filepath.FromSlash(dir))
	for {
		real, err := filepath.EvalSymlinks(abs)
		if err == nil {
			return real != root && !strings.HasPrefix(real, root+string(filepath.Separator))
		}
		if abs == root || !errors.Is(err, fs.ErrNotExist) {
			return false
		}
		abs = filepath.Dir(abs)
	}
}

func readBase(root, p string) ([]byte, error) {
	full := filepath.Join(root, filepath.FromSlash(p))
	fi, err := os.Stat(full)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: is a directory", p)
	}
	return os.ReadFile(full)
}

// Overlay returns base with edits applied. Edit paths must be clean, relative and
// '/'-separated (see Clean).
func Overlay(base fs.FS, edits []Edit) fs.FS {
	m := make(map[string]*Edit, len(edits))
	for i := range edits {
		m[edits[i].Path] = &edits[i]
	}
	return &overlayFS{base: base, edits: m}
}

// overlayFS is a file system with edits applied over it.
type overlayFS struct {
	base  fs.FS
	edits map[string]*Edit
}

func (o *overlayFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if e, ok := o.edits[name]; ok {
		if e.Delete {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		return memfs.NewFile(path.Base(name), e.Content), nil
	}
	f, err := o.base.Open(name)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return f, err
	}
	// A directory that exists only because an edit creates a file in it.
	prefix := name + "/"
	for p, e := range o.edits {
		if !e.Delete && (name == "." || strings.HasPrefix(p, prefix)) {
			return memfs.NewDir(path.Base(name), nil), nil
		}
	}
	return nil, err
}

func (o *overlayFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(o.base, name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	byName := map[string]fs.DirEntry{}
	for _, e := range entries {
		byName[e.Name()] = e
	}
	prefix := name + "/"
	if name == "." {
		prefix = ""
	}
	added := false
	for p, e := range o.edits {
		if !strings.HasPrefix(p, prefix) {
			continue
		}
		rest := p[len(prefix):]
		child, _, nested := strings.Cut(rest, "/")
		switch {
		case e.Delete && !nested:
			delete(byName, child)
		case nested:
			if _, ok := byName[child]; !ok {
				byName[child], added = memfs.DirEntry(child), true
			}
		default:
			byName[child], added = memfs.FileEntry(child, int64(len(e.Content))), true
		}
	}
	if err != nil && !added {
		return nil, err
	}
	out := make([]fs.DirEntry, 0, len(byName))
	for _, e := range byName {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}
