package gitchange

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/regular"
)

// WorkingTree returns the change between the base revision (default HEAD) and the working
// tree, untracked files that are not ignored included, as git sees the working tree: a
// file outside a sparse checkout is what the index holds (not deleted), a submodule is its
// checked-out commit, and a file's content is what git would record (after its end-of-line
// conversion and clean filters).
func (r *Repo) WorkingTree(ctx context.Context, base string) (*change.Set, error) {
	commit, err := r.ResolveBase(base)
	if err != nil {
		return nil, err
	}
	baseFiles, tree, idx, err := r.baseAndIndex(commit)
	if err != nil {
		return nil, err
	}
	headFiles, err := scanWorktree(ctx, r.root, r.layout, idx)
	if err != nil {
		return nil, err
	}
	sparse := fromIndex(headFiles, idx)
	if err := r.gitlinks(ctx, headFiles, idx); err != nil {
		return nil, err
	}
	conv, err := r.converted(ctx, baseFiles, headFiles)
	if err != nil {
		return nil, err
	}
	headFS, err := regular.NewFS(r.root)
	if err != nil {
		return nil, err
	}
	read := func(path string, e entry) ([]byte, int64, error) {
		switch {
		case e.fromIndex:
			return r.blob(e.hash)
		case e.clean:
			return conv.read(path)
		}
		return r.readWorktree(path, e)
	}
	var fsys fs.FS = headFS
	if len(sparse) > 0 {
		fsys = unionFS{headFS, newIndexFS(r.repo, sparse, r.Trees)}
	}
	set, err := r.changeSet(ctx, commit, tree, baseFiles, side{r.maxFileSize(), headFiles, read}, fsys)
	if set != nil {
		set.Ignored = untracked(func() *index.Index { return idx }, ignoredFunc(r.root, r.env.environ()))
		set.OnDisk = true // the head is the working tree itself
	}
	return set, err
}

// fromIndex adds to files the index entries git does not look for in the working tree
// (skip-worktree: a sparse checkout's files outside the sparse set) and that are not
// there: git records them as the index has them; they are not deleted. A file that is
// there is verified as it is. It returns the entries added.
func fromIndex(files map[string]entry, idx *index.Index) map[string]entry {
	added := map[string]entry{}
	for _, e := range idx.Entries {
		if !e.SkipWorktree || e.Stage != 0 {
			continue
		}
		if _, ok := files[e.Name]; !ok {
			files[e.Name] = entry{hash: e.Hash, mode: e.Mode, size: int64(e.Size), fromIndex: true}
			added[e.Name] = files[e.Name]
		}
	}
	return added
}

// gitlinks settles the submodules of files: one with no commit checked out (never
// initialised) is what the index records; one whose working tree holds changes of its own
// is marked dirty.
func (r *Repo) gitlinks(ctx context.Context, files map[string]entry, idx *index.Index) error {
	var staged map[string]*index.Entry
	for p, e := range files {
		if e.mode != filemode.Submodule {
			continue
		}
		if staged == nil {
			staged = map[string]*index.Entry{}
			for _, ie := range idx.Entries {
				staged[ie.Name] = ie
			}
		}
		if e.hash.IsZero() {
			if ie := staged[p]; ie != nil && ie.Mode == filemode.Submodule {
				e.hash = ie.Hash
			}
		}
		dirty, err := submoduleDirty(ctx, filepath.Join(r.root, filepath.FromSlash(p)))
		if err != nil {
			return err
		}
		e.dirty = dirty
		files[p] = e
	}
	return nil
}

// readWorktree reads a working-tree file: a symbolic link's content is its target, never
// what it points to; anything else must be a regular file, read without blocking.
func (r *Repo) readWorktree(path string, e entry) ([]byte, int64, error) {
	full := filepath.Join(r.root, filepath.FromSlash(path))
	if e.mode == filemode.Symlink {
		target, err := os.Readlink(full)
		return []byte(target), int64(len(target)), err
	}
	fi, err := os.Lstat(full)
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() { // replaced since the scan
		return nil, 0, regular.NotRegularError(path, fi.Mode())
	}
	return regular.ReadFile(full, r.maxFileSize())
}

// untracked asks ignored only about the paths the index (idx, called once on the first
// question; nil when there is none to read) does not track: git never ignores a tracked
// file, so in a checkout whose Go files are all committed no git process runs (two per
// one-file diff or hook call, ~40 ms of its time on cli/cli).
func untracked(idx func() *index.Index, ignored func(context.Context, []string) ([]string, error)) func(context.Context, []string) ([]string, error) {
	var once sync.Once
	tracked := map[string]bool{}
	return func(ctx context.Context, paths []string) ([]string, error) {
		once.Do(func() {
			if x := idx(); x != nil {
				for _, e := range x.Entries {
					tracked[e.Name] = true
				}
			}
		})
		var ask []string
		for _, p := range paths {
			if !tracked[p] {
				ask = append(ask, p)
			}
		}
		return ignored(ctx, ask)
	}
}
