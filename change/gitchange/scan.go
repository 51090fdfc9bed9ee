package gitchange

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// ignorer decides which working-tree paths git ignores.
type ignorer struct {
	root string
	base []gitignore.Pattern // global excludes and info/exclude
}

func newIgnorer(root string) *ignorer {
	ig := &ignorer{root: root}
	if ps, err := gitignore.LoadGlobalPatterns(osfs.New("/")); err == nil {
		ig.base = append(ig.base, ps...)
	}
	for _, dir := range gitDirs(root) {
		ig.base = append(ig.base, readPatterns(filepath.Join(dir, "info", "exclude"), nil)...)
	}
	return ig
}

// gitDirs returns the worktree's git directory and, for a linked worktree, the common one.
func gitDirs(root string) []string {
	gitDir := filepath.Join(root, ".git")
	fi, err := os.Stat(gitDir)
	if err != nil {
		return nil
	}
	if fi.IsDir() {
		return []string{gitDir}
	}
	b, err := os.ReadFile(gitDir)
	if err != nil {
		return nil
	}
	d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return nil
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(root, d)
	}
	dirs := []string{d}
	if c, err := os.ReadFile(filepath.Join(d, "commondir")); err == nil {
		common := strings.TrimSpace(string(c))
		if !filepath.IsAbs(common) {
			common = filepath.Join(d, common)
		}
		dirs = append(dirs, filepath.Clean(common))
	}
	return dirs
}

// readPatterns reads a .gitignore-style file; domain is the directory it applies to.
func readPatterns(file string, domain []string) []gitignore.Pattern {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// walker walks the working tree, pruning ignored directories that hold no tracked file.
type walker struct {
	ig          *ignorer
	tracked     map[string]*index.Entry
	trackedDirs map[string]bool
	visit       func(rel string, d fs.DirEntry, tracked *index.Entry) error
}

func newWalker(ig *ignorer, idx *index.Index) *walker {
	w := &walker{ig: ig, tracked: map[string]*index.Entry{}, trackedDirs: map[string]bool{}}
	if idx != nil {
		for _, e := range idx.Entries {
			w.tracked[e.Name] = e
			for dir := path.Dir(e.Name); dir != "." && !w.trackedDirs[dir]; dir = path.Dir(dir) {
				w.trackedDirs[dir] = true
			}
		}
	}
	return w
}

// walk visits every file under rel (a directory relative to the root, "" for the root)
// that git would see: tracked files, and untracked files that are not ignored.
func (w *walker) walk(ctx context.Context, rel string, ps []gitignore.Pattern, ignored bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	dir := filepath.Join(w.ig.root, filepath.FromSlash(rel))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var parts []string
	if rel != "" {
		parts = strings.Split(rel, "/")
	}
	if !ignored {
		if more := readPatterns(filepath.Join(dir, ".gitignore"), parts); len(more) > 0 {
			ps = append(ps[:len(ps):len(ps)], more...)
		}
	}
	m := gitignore.NewMatcher(ps)
	for _, e := range entries {
		if e.Name() == ".git" {
			continue
		}
		child := path.Join(rel, e.Name())
		ign := ignored || m.Match(append(parts[:len(parts):len(parts)], e.Name()), e.IsDir())
		switch {
		case e.IsDir() && w.descend(dir, child, ign):
			err = w.walk(ctx, child, ps, ign)
		case !e.IsDir() && (!ign || w.tracked[child] != nil):
			err = w.visit(child, e, w.tracked[child])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// descend reports whether the walk enters directory child: not when it is ignored and
// holds no tracked file (the cost go-git's Status pays and this walk does not), nor when
// it is a nested repository.
func (w *walker) descend(dir, child string, ignored bool) bool {
	if w.trackedDirs[child] {
		return true
	}
	if ignored {
		return false
	}
	_, err := os.Lstat(filepath.Join(dir, path.Base(child), ".git"))
	return err != nil
}

// scanWorktree returns every file of the working tree git would see, with its blob hash.
// A tracked file whose size and mtime match the index (and that is not racily clean) is
// not read: the index's hash is trusted, as git does.
func scanWorktree(ctx context.Context, root string, idx *index.Index, indexMTime int64) (map[string]entry, error) {
	out := map[string]entry{}
	w := newWalker(newIgnorer(root), idx)
	w.visit = func(rel string, d fs.DirEntry, t *index.Entry) error {
		fi, err := d.Info()
		if err != nil {
			return err
		}
		mode := filemode.Regular
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			mode = filemode.Symlink
		case !fi.Mode().IsRegular():
			return nil // sockets, devices, pipes: git does not track them
		case fi.Mode()&0o111 != 0:
			mode = filemode.Executable
		}
		if t != nil && t.Mode == mode && int64(t.Size) == fi.Size() &&
			t.ModifiedAt.UnixNano() == fi.ModTime().UnixNano() && t.ModifiedAt.UnixNano() < indexMTime {
			out[rel] = entry{hash: t.Hash, mode: mode, size: fi.Size()}
			return nil
		}
		h, err := hashFile(filepath.Join(root, filepath.FromSlash(rel)), fi, mode)
		if err != nil {
			return err
		}
		out[rel] = entry{hash: h, mode: mode, size: fi.Size()}
		return nil
	}
	if err := w.walk(ctx, "", w.ig.base, false); err != nil {
		return nil, err
	}
	return out, nil
}

// hashFile computes a file's git blob hash, streaming, so a large file is never held.
func hashFile(full string, fi fs.FileInfo, mode filemode.FileMode) (plumbing.Hash, error) {
	if mode == filemode.Symlink {
		target, err := os.Readlink(full)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return plumbing.ComputeHash(plumbing.BlobObject, []byte(target)), nil
	}
	f, err := os.Open(full)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer f.Close()
	h := plumbing.NewHasher(plumbing.BlobObject, fi.Size())
	if _, err := io.Copy(h, f); err != nil {
		return plumbing.ZeroHash, err
	}
	return h.Sum(), nil
}
