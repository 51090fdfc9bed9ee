package gitchange

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/agentverify/agentverify/change"
)

// Repo is an open repository.
type Repo struct {
	repo   *git.Repository
	root   string
	layout layout
	env    *callerEnv
	// indexFile is the index git hands the caller (GIT_INDEX_FILE, or the git directory's).
	indexFile string

	// MaxFileSize is the size limit of the policy in force: a file over it is not loaded
	// (change.File.TooLarge). 0 means change.DefaultMaxFileSize.
	MaxFileSize int64
	// Trees, when set, keeps the listings of the base trees and the blobs read, for the
	// next change.
	Trees *Trees
}

// maxFileSize is the limit in force.
func (r *Repo) maxFileSize() int64 {
	if r.MaxFileSize > 0 {
		return r.MaxFileSize
	}
	return change.DefaultMaxFileSize
}

// Open opens the repository containing dir (its working tree may be a linked worktree)
// with this process's git environment.
func Open(dir string) (*Repo, error) {
	return OpenEnv(dir, nil)
}

// OpenEnv opens the repository containing dir as git would for a caller whose git
// variables are vars (GitVars of its environment; nil means this process's): GIT_DIR and
// GIT_WORK_TREE say where the repository is, GIT_INDEX_FILE which index a commit records
// (the one git hands a pre-commit hook for 'git commit -a'), and every git command run for
// the caller gets them and none of this process's own.
func OpenEnv(dir string, vars []string) (*Repo, error) {
	if vars == nil {
		vars = GitVars(os.Environ())
	}
	env := newCallerEnv(vars)
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	l, err := env.discover(abs)
	if errors.Is(err, ErrNotRepository) {
		return nil, fmt.Errorf("%s: %w (agentverify diff needs one; use agentverify check for plain directories)", abs, ErrNotRepository)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", abs, err)
	}
	r, err := openLayout(l)
	if err != nil {
		return nil, fmt.Errorf("%s: opening the git repository: %w", abs, err)
	}
	root := l.root
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return &Repo{repo: r, root: root, layout: l, env: env, indexFile: env.indexPath(l, abs)}, nil
}

// Root is the absolute path of the working tree's top directory.
func (r *Repo) Root() string { return r.root }

// headCommit returns HEAD's commit, or nil in a repository with no commits.
func (r *Repo) headCommit() (*object.Commit, error) {
	ref, err := r.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading HEAD: %w", err)
	}
	c, err := r.repo.CommitObject(ref.Hash())
	if err != nil {
		return nil, fmt.Errorf("reading HEAD commit %s: %w", ref.Hash(), err)
	}
	return c, nil
}

// ResolveBase returns the commit a base revision names: a branch (local or
// remote-tracking) means its merge-base with HEAD; anything else (a hash, a tag,
// HEAD~2) is the commit itself. An empty rev means HEAD, or nil — the empty base — in a
// repository with no commits; naming any revision there is an error.
func (r *Repo) ResolveBase(rev string) (*object.Commit, error) {
	head, err := r.headCommit()
	if err != nil {
		return nil, err
	}
	if rev == "" {
		return head, nil
	}
	if head == nil {
		return nil, fmt.Errorf("base %q: the repository has no commits yet", rev)
	}
	if rev == "HEAD" {
		return head, nil
	}
	for _, name := range []plumbing.ReferenceName{plumbing.NewBranchReferenceName(rev), plumbing.ReferenceName("refs/remotes/" + rev)} {
		ref, err := r.repo.Reference(name, true)
		if err != nil {
			continue
		}
		tip, err := r.repo.CommitObject(ref.Hash())
		if err != nil {
			return nil, fmt.Errorf("base %q: %w", rev, err)
		}
		return r.mergeBase(rev, head, tip)
	}
	h, err := r.repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return nil, fmt.Errorf("base %q: no such commit, tag or branch%s", rev, r.shallowHint(head, rev))
	}
	c, err := r.repo.CommitObject(*h)
	if err != nil {
		return nil, fmt.Errorf("base %q: %s is not a commit: %v", rev, h, err)
	}
	return c, nil
}

// entry is one file on one side: its blob hash (a gitlink's commit hash) and mode.
type entry struct {
	hash plumbing.Hash
	mode filemode.FileMode
	size int64
	// fromIndex is set for a working-tree file read from the index: a sparse checkout's
	// file outside the sparse set, which git leaves as the index has it.
	fromIndex bool
	// clean is set for a working-tree file whose content git converts when it records it
	// (end of lines, a clean filter): its content is that of the blob hash.
	clean bool
	// dirty is set for a submodule whose working tree holds uncommitted changes.
	dirty bool
}

// treeEntries lists every file of a commit's tree; nil commit gives none.
func treeEntries(c *object.Commit) (map[string]entry, *object.Tree, error) {
	out := map[string]entry{}
	if c == nil {
		return out, nil, nil
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, nil, fmt.Errorf("reading tree of %s: %w", c.Hash, err)
	}
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("walking tree of %s: %w", c.Hash, err)
		}
		if e.Mode == filemode.Dir {
			continue
		}
		out[name] = entry{hash: e.Hash, mode: e.Mode}
	}
	return out, tree, nil
}

// blob reads a blob, or returns its size alone when it is over the size limit.
func (r *Repo) blob(h plumbing.Hash) ([]byte, int64, error) {
	b, err := r.repo.BlobObject(h)
	if err != nil {
		return nil, 0, fmt.Errorf("reading blob %s: %w", h, err)
	}
	if b.Size > r.maxFileSize() {
		return nil, b.Size, nil
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, 0, err
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	return data, b.Size, err
}

// side is one side of a change: its files and how to read their content, and the size
// over which content is not loaded.
type side struct {
	limit int64
	files map[string]entry
	read  func(path string, e entry) ([]byte, int64, error)
}

// diff builds the change set between base and head.
func diff(ctx context.Context, root string, base, head side) (*change.Set, error) {
	created, deleted, modified := classify(base, head)
	renamedFrom, err := renames(base, head, created, deleted)
	if err != nil {
		return nil, err
	}
	consumed := map[string]bool{}
	for _, old := range renamedFrom {
		consumed[old] = true
	}
	set := &change.Set{Root: root}
	add := func(path, oldPath string, op change.Op) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := loadFile(base, head, path, oldPath, op)
		if err != nil {
			return err
		}
		set.Files = append(set.Files, f)
		return nil
	}
	for _, p := range modified {
		if err := add(p, p, change.Modify); err != nil {
			return nil, err
		}
	}
	for _, p := range created {
		old, op := "", change.Create
		if o, ok := renamedFrom[p]; ok {
			old, op = o, change.Rename
		}
		if err := add(p, old, op); err != nil {
			return nil, err
		}
	}
	for _, p := range deleted {
		if consumed[p] {
			continue
		}
		if err := add(p, p, change.Delete); err != nil {
			return nil, err
		}
	}
	set.Sort()
	return set, nil
}

// classify sorts the paths of both sides into created, deleted and modified ones.
func classify(base, head side) (created, deleted, modified []string) {
	for p, h := range head.files {
		b, ok := base.files[p]
		switch {
		case !ok:
			created = append(created, p)
		case b.hash != h.hash || b.mode != h.mode || h.dirty:
			modified = append(modified, p)
		}
	}
	for p := range base.files {
		if _, ok := head.files[p]; !ok {
			deleted = append(deleted, p)
		}
	}
	sort.Strings(created)
	sort.Strings(deleted)
	sort.Strings(modified)
	return created, deleted, modified
}

// loadFile reads both sides of one changed file and builds it.
func loadFile(base, head side, path, oldPath string, op change.Op) (*change.File, error) {
	if isGitlink(base.files[oldPath], head.files[path]) {
		return newGitlink(path, oldPath, op, base.files[oldPath], head.files[path]), nil
	}
	read := func(s side, p string) ([]byte, int64, error) {
		data, size, err := s.read(p, s.files[p])
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", p, err)
		}
		if data == nil {
			data = []byte{}
		}
		return data, size, nil
	}
	var b, h []byte
	var bsize, hsize int64
	var err error
	if op != change.Create {
		if b, bsize, err = read(base, oldPath); err != nil {
			return nil, err
		}
	}
	if op != change.Delete {
		if h, hsize, err = read(head, path); err != nil {
			return nil, err
		}
	}
	if size := max(bsize, hsize); size > head.limit {
		return change.NewLargeFile(path, oldPath, op, size), nil
	}
	f := change.NewFileLimit(path, oldPath, b, h, head.limit)
	f.Symlink = base.files[oldPath].mode == filemode.Symlink || head.files[path].mode == filemode.Symlink
	return f, nil
}

// changeSet diffs the base commit's files against head and attaches the file systems.
func (r *Repo) changeSet(ctx context.Context, commit *object.Commit, tree *object.Tree, baseFiles map[string]entry, head side, headFS fs.FS) (*change.Set, error) {
	set, err := diff(ctx, r.root, side{r.maxFileSize(), baseFiles, r.readBlob}, head)
	if err != nil {
		return nil, err
	}
	set.HeadFS = headFS
	set.BaseFS = newTreeFS(r.repo, tree, r.Trees)
	if commit != nil {
		set.BaseRev = commit.Hash.String()
	}
	return set, nil
}

// baseAndIndex reads the files of the base commit's tree and the index.
func (r *Repo) baseAndIndex(commit *object.Commit) (map[string]entry, *object.Tree, *index.Index, error) {
	idx, err := r.index()
	if err != nil {
		return nil, nil, nil, err
	}
	if files, tree, ok := indexIsTree(commit, idx); ok {
		return files, tree, idx, nil
	}
	baseFiles, tree, err := r.Trees.entries(commit)
	if err != nil {
		return nil, nil, nil, err
	}
	return baseFiles, tree, idx, nil
}

// indexIsTree returns the files of commit's tree from the index, without walking the
// tree, when the index is that tree: git's cache of the index's trees says so (its root
// covers every entry and hashes to the commit's tree), and the entries, hashed as git
// writes trees, do make that tree. That holds after a checkout or a commit until
// something is staged, so a working-tree diff skips reading a tree object per directory
// (a tenth of a cold one-file diff's own CPU on cli/cli). The cache is only a hint: an
// index is a file anyone can write, and one whose cache claims the tree over other
// entries would make a base that hides the edits. ok is false otherwise, and for an
// index with entries no tree holds (conflicts, intent-to-add, sparse directories).
func indexIsTree(commit *object.Commit, idx *index.Index) (map[string]entry, *object.Tree, bool) {
	if commit == nil || idx.Cache == nil || len(idx.Cache.Entries) == 0 {
		return nil, nil, false
	}
	root := idx.Cache.Entries[0]
	if root.Path != "" || root.Entries != len(idx.Entries) || root.Hash != commit.TreeHash {
		return nil, nil, false
	}
	out := make(map[string]entry, len(idx.Entries))
	for _, e := range idx.Entries {
		if e.Stage != 0 || e.IntentToAdd || e.Mode == filemode.Dir {
			return nil, nil, false
		}
		out[e.Name] = entry{hash: e.Hash, mode: e.Mode}
	}
	if h, n, err := entriesTree(idx.Entries, ""); err != nil || n != len(idx.Entries) || h != commit.TreeHash {
		return nil, nil, false
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, nil, false
	}
	return out, tree, true
}

// entriesTree hashes the tree of the index entries under prefix (a directory with its
// slash, "" for the root), as git writes it, from the first of entries on: sorted by
// path, a directory's entries are contiguous. n is how many entries it took.
func entriesTree(entries []*index.Entry, prefix string) (h plumbing.Hash, n int, err error) {
	var tree object.Tree
	for n < len(entries) && strings.HasPrefix(entries[n].Name, prefix) {
		if n > 0 && entries[n-1].Name >= entries[n].Name {
			return plumbing.ZeroHash, 0, fmt.Errorf("index entries out of order at %s", entries[n].Name)
		}
		rest := entries[n].Name[len(prefix):]
		if dir, _, sub := strings.Cut(rest, "/"); sub {
			h, m, err := entriesTree(entries[n:], prefix+dir+"/")
			if err != nil {
				return plumbing.ZeroHash, 0, err
			}
			tree.Entries = append(tree.Entries, object.TreeEntry{Name: dir, Mode: filemode.Dir, Hash: h})
			n += m
			continue
		}
		tree.Entries = append(tree.Entries, object.TreeEntry{Name: rest, Mode: entries[n].Mode, Hash: entries[n].Hash})
		n++
	}
	sort.Sort(object.TreeEntrySorter(tree.Entries))
	obj := &plumbing.MemoryObject{}
	if err := tree.Encode(obj); err != nil {
		return plumbing.ZeroHash, 0, err
	}
	return obj.Hash(), n, nil
}

// Staged returns the change between HEAD and the index: what a commit would record.
func (r *Repo) Staged(ctx context.Context) (*change.Set, error) {
	commit, err := r.headCommit()
	if err != nil {
		return nil, err
	}
	baseFiles, tree, idx, err := r.baseAndIndex(commit)
	if err != nil {
		return nil, err
	}
	staged := map[string]entry{}
	for _, e := range idx.Entries {
		if e.Stage != 0 {
			return nil, fmt.Errorf("%s: unmerged path in the index; resolve the conflict first", e.Name)
		}
		if e.IntentToAdd {
			continue
		}
		staged[e.Name] = entry{hash: e.Hash, mode: e.Mode, size: int64(e.Size)}
	}
	return r.changeSet(ctx, commit, tree, baseFiles, side{r.maxFileSize(), staged, r.readBlob}, newIndexFS(r.repo, filesOnly(staged), r.Trees))
}

func (r *Repo) readBlob(_ string, e entry) ([]byte, int64, error) {
	return r.blob(e.hash)
}

// HeadFS returns a file system over HEAD's tree (empty in a repository with no commits),
// the base of a patch.
func (r *Repo) HeadFS() (fs.FS, error) {
	c, err := r.headCommit()
	if err != nil {
		return nil, err
	}
	if c == nil {
		return newTreeFS(r.repo, nil, r.Trees), nil
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, err
	}
	return newTreeFS(r.repo, tree, r.Trees), nil
}

// filesOnly drops the submodules of files: a gitlink has no content to read.
func filesOnly(files map[string]entry) map[string]entry {
	out := make(map[string]entry, len(files))
	for p, e := range files {
		if e.mode != filemode.Submodule {
			out[p] = e
		}
	}
	return out
}
