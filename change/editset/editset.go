// Package editset builds change sets from proposed in-memory edits ("this path will get this
// content"), with the working tree as base, so an edit can be verified before it is
// written. It is what the agent gate, the editor hooks and the MCP server verify.
package editset

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/change/internal/memfs"
	"github.com/agentverify/agentverify/change/regular"
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
	return BuildLimit(root, edits, 0)
}

// BuildLimit is Build with the size limit of the policy in force (0: the default): a file
// over limit bytes on either side is not loaded (change.File.TooLarge). Every path is
// resolved through the symbolic links of its directories first, so the change set — and
// scope — sees where the edit really lands. A named pipe, socket or device at an edited
// path or among the Go files next to it is an error: verifying the edit would read it.
func BuildLimit(root string, edits []Edit, limit int64) (*change.Set, error) {
	if limit <= 0 {
		limit = change.DefaultMaxFileSize
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	disk, err := regular.NewFS(root)
	if err != nil {
		return nil, err
	}
	set := &change.Set{Root: root, BaseFS: disk, BaseRev: "working tree", OnDisk: true}
	overlay := map[string]*Edit{}
	dirs := map[string]bool{}
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
		dirs[path.Dir(p)] = true
		f, err := build(root, p, e, limit)
		if err != nil {
			return nil, err
		}
		set.Files = append(set.Files, f)
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		// A pipe among the Go files next to an edit would block the toolchain loading them.
		if err := regular.CheckDir(filepath.Join(root, filepath.FromSlash(dir)), dir, ".go"); err != nil {
			return nil, err
		}
	}
	set.HeadFS = &overlayFS{base: disk, edits: overlay}
	set.Ignored = gitchange.IgnoredFunc(root)
	set.Sort()
	return set, nil
}

// build is the change of one edit at the clean path p.
func build(root, p string, e *Edit, limit int64) (*change.File, error) {
	base, size, exists, err := readBase(root, p, limit)
	if err != nil {
		return nil, err
	}
	oldPath := p
	if !exists {
		oldPath = ""
	}
	switch {
	case e.Delete && !exists:
		return nil, fmt.Errorf("%s: cannot delete a file that does not exist", p)
	case e.Delete && base == nil:
		return change.NewLargeFile(p, p, change.Delete, size), nil
	case e.Delete:
		return change.NewFileLimit(p, p, base, nil, limit), nil
	case int64(len(e.Content)) > limit || base == nil && exists:
		op := change.Create
		if exists {
			op = change.Modify
		}
		return change.NewLargeFile(p, oldPath, op, max(size, int64(len(e.Content)))), nil
	}
	content := e.Content
	if content == nil {
		content = []byte{}
	}
	return change.NewFileLimit(p, oldPath, base, content, limit), nil
}

// Clean validates a proposed path and returns where it lands, repository-relative with
// '/' separators: every symbolic link among its directories is resolved, so a directory
// link inside an allowed path that points into a forbidden one yields the forbidden
// path. A path that resolves outside root or into .git is refused, and so is a path
// whose last component is itself a symbolic link. An absolute path inside root is
// accepted and made relative.
func Clean(root, p string) (string, error) {
	if filepath.IsAbs(p) {
		dir, err := resolve(filepath.Dir(filepath.Clean(p)))
		if err != nil {
			return "", fmt.Errorf("%s: %w", p, err)
		}
		p = filepath.Join(dir, filepath.Base(p))
	}
	clean, err := lexical(root, p)
	if err != nil {
		return "", err
	}
	dir, err := resolve(filepath.Join(root, filepath.FromSlash(path.Dir(clean))))
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	full := filepath.Join(dir, path.Base(clean))
	rel, err := filepath.Rel(root, full)
	if err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%s: resolves through a symbolic link to %s, outside the repository %s", p, full, root)
	}
	real := filepath.ToSlash(rel)
	if real != clean {
		if _, err := lexical(root, real); err != nil {
			return "", fmt.Errorf("%s: resolves through a symbolic link to %s: %w", p, real, err)
		}
	}
	if fi, err := os.Lstat(full); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return "", fmt.Errorf("%s: path is a symbolic link; edit its target instead", p)
	}
	return real, nil
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

// resolve returns the absolute path abs with every symbolic link of its existing part
// resolved (each component, as the kernel would follow them); the part that does not
// exist yet is appended unchanged. A link whose target does not exist is an error: a
// write through it would create a file the check never saw.
func resolve(abs string) (string, error) {
	existing, rest := abs, ""
	for {
		_, err := os.Lstat(existing)
		if err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if !errors.Is(err, fs.ErrNotExist) || parent == existing {
			return "", err
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return "", fmt.Errorf("a symbolic link on the path leads nowhere: %w", err)
	}
	return filepath.Join(real, rest), nil
}

// readBase reads the working-tree file at p and says whether it exists; its content is
// nil when it is over limit. Anything but a regular file is an error, found without
// blocking.
func readBase(root, p string, limit int64) (data []byte, size int64, exists bool, err error) {
	full := filepath.Join(root, filepath.FromSlash(p))
	fi, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, false, regular.NotRegularError(p, fi.Mode())
	}
	data, size, err = regular.ReadFile(full, limit)
	return data, size, err == nil, err
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
