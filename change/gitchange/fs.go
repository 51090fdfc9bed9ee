package gitchange

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/agentverify/agentverify/change/internal/memfs"
)

// treeFS is an fs.FS over a commit's tree, read lazily. go-git's object storage is not
// safe for concurrent use, so reads are serialised.
type treeFS struct {
	mu    sync.Mutex
	repo  *git.Repository
	tree  *object.Tree // nil: the empty tree
	blobs *Trees       // keeps the blobs read; nil: none
}

func newTreeFS(repo *git.Repository, tree *object.Tree, blobs *Trees) *treeFS {
	return &treeFS{repo: repo, tree: tree, blobs: blobs}
}

func notExist(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
}

func (t *treeFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if name == "." {
		return memfs.NewDir(".", t.entries(t.tree)), nil
	}
	if t.tree == nil {
		return nil, notExist("open", name)
	}
	e, err := t.tree.FindEntry(name)
	if err != nil {
		return nil, notExist("open", name)
	}
	if e.Mode == filemode.Dir {
		sub, err := t.repo.TreeObject(e.Hash)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return memfs.NewDir(path.Base(name), t.entries(sub)), nil
	}
	data, err := t.blobs.blob(t.repo, e.Hash)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return memfs.NewFile(path.Base(name), data), nil
}

func (t *treeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := t.Open(name)
	if err != nil {
		return nil, err
	}
	d, ok := f.(*memfs.Dir)
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	return d.ReadDir(-1)
}

func (t *treeFS) entries(tree *object.Tree) []fs.DirEntry {
	if tree == nil {
		return nil
	}
	var out []fs.DirEntry
	for _, e := range tree.Entries {
		switch e.Mode {
		case filemode.Dir:
			out = append(out, memfs.DirEntry(e.Name))
		case filemode.Submodule:
		default:
			size, _ := tree.Size(e.Name)
			out = append(out, memfs.FileEntry(e.Name, size))
		}
	}
	return out
}

func readBlob(repo *git.Repository, h plumbing.Hash) ([]byte, error) {
	b, err := repo.BlobObject(h)
	if err != nil {
		return nil, err
	}
	r, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	buf := make([]byte, b.Size)
	_, err = io.ReadFull(r, buf)
	return buf, err
}

// indexFS is an fs.FS over the content staged in the index.
type indexFS struct {
	mu    sync.Mutex
	repo  *git.Repository
	files map[string]entry
	blobs *Trees // keeps the blobs read; nil: none
}

func newIndexFS(repo *git.Repository, files map[string]entry, blobs *Trees) *indexFS {
	return &indexFS{repo: repo, files: files, blobs: blobs}
}

func (x *indexFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if e, ok := x.files[name]; ok {
		x.mu.Lock()
		data, err := x.blobs.blob(x.repo, e.hash)
		x.mu.Unlock()
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return memfs.NewFile(path.Base(name), data), nil
	}
	entries, ok := x.children(name)
	if !ok {
		return nil, notExist("open", name)
	}
	return memfs.NewDir(path.Base(name), entries), nil
}

func (x *indexFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, ok := x.children(name)
	if !ok {
		return nil, notExist("readdir", name)
	}
	return memfs.NewDir(name, entries).ReadDir(-1)
}

// children lists the entries of directory name, and whether it exists.
func (x *indexFS) children(name string) ([]fs.DirEntry, bool) {
	prefix := name + "/"
	if name == "." {
		prefix = ""
	}
	seen := map[string]bool{}
	var out []fs.DirEntry
	for p, e := range x.files {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		child, _, nested := strings.Cut(rest, "/")
		if seen[child] {
			continue
		}
		seen[child] = true
		if nested {
			out = append(out, memfs.DirEntry(child))
		} else {
			out = append(out, memfs.FileEntry(child, e.size))
		}
	}
	return out, name == "." || len(out) > 0
}

// unionFS is the working tree of a sparse checkout: the disk, and the files outside the
// sparse set as the index has them.
type unionFS struct {
	disk   fs.FS
	sparse *indexFS
}

func (u unionFS) Open(name string) (fs.File, error) {
	f, err := u.disk.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		if _, ok := u.sparse.files[name]; ok {
			return u.sparse.Open(name)
		}
		if entries, ok := u.sparse.children(name); ok && name != "." {
			return memfs.NewDir(path.Base(name), entries), nil
		}
	}
	return f, err
}

func (u unionFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(u.disk, name)
	more, ok := u.sparse.children(name)
	if err != nil && !(errors.Is(err, fs.ErrNotExist) && ok && name != ".") {
		return nil, err
	}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.Name()] = true
	}
	for _, e := range more {
		if !seen[e.Name()] {
			entries = append(entries, e)
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, nil
}
