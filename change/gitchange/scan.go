package gitchange

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/agentverify/agentverify/change/regular"
	"github.com/agentverify/agentverify/crash"
)

// ignorer decides which working-tree paths git ignores.
type ignorer struct {
	root string
	base []gitignore.Pattern // global excludes and info/exclude
}

func newIgnorer(root string, l layout) *ignorer {
	ig := &ignorer{root: root}
	if ps, err := gitignore.LoadGlobalPatterns(osfs.New("/")); err == nil {
		ig.base = append(ig.base, ps...)
	}
	if l.commonDir != "" {
		ig.base = append(ig.base, readPatterns(filepath.Join(l.commonDir, "info", "exclude"), nil)...)
	}
	return ig
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
		ign := ignored || m.Match(append(parts[:len(parts):len(parts)], e.Name()), e.IsDir())
		if err := w.entry(ctx, dir, path.Join(rel, e.Name()), e, ps, ign); err != nil {
			return err
		}
	}
	return nil
}

// entry handles one directory entry of the walk: a directory to enter, a file git sees,
// a submodule (a gitlink the index has, or a nested repository git would add as one),
// or an ignored file the Go toolchain reads that is not a regular file (git skips it,
// the toolchain would block on it).
func (w *walker) entry(ctx context.Context, dir, child string, e fs.DirEntry, ps []gitignore.Pattern, ignored bool) error {
	switch {
	case e.IsDir() && w.gitlink(dir, child, ignored):
		return w.visit(child, e, w.tracked[child])
	case e.IsDir() && w.descend(child, ignored):
		return w.walk(ctx, child, ps, ignored)
	case !e.IsDir() && (!ignored || w.tracked[child] != nil):
		return w.visit(child, e, w.tracked[child])
	case regular.Special(e.Type()) && readByGo(e.Name()):
		return regular.NotRegularError(child, e.Type())
	}
	return nil
}

// gitlink reports whether directory child is a submodule for git: a gitlink of the index,
// or a nested repository that is not ignored (git would add it as a gitlink; its content
// is not this repository's).
func (w *walker) gitlink(dir, child string, ignored bool) bool {
	if e := w.tracked[child]; e != nil {
		return e.Mode == filemode.Submodule
	}
	if ignored || w.trackedDirs[child] {
		return false
	}
	_, err := os.Lstat(filepath.Join(dir, path.Base(child), ".git"))
	return err == nil
}

// readByGo reports whether the Go toolchain reads a file of this name when it loads the
// packages around it, ignored by git or not.
func readByGo(name string) bool {
	switch name {
	case "go.mod", "go.sum", "go.work", "go.work.sum":
		return true
	}
	return strings.HasSuffix(name, ".go")
}

// descend reports whether the walk enters directory child: not when it is ignored and
// holds no tracked file (the cost go-git's Status pays and this walk does not).
func (w *walker) descend(child string, ignored bool) bool {
	return w.trackedDirs[child] || !ignored
}

// scanWorktree returns every file of the working tree git would see, with its blob hash.
// Every file is hashed from its content: the index's stat data (size, mtime) is not
// trusted, because the gated agent controls both the files and the index, and a same-size
// edit with its mtime reset looks clean to a stat comparison. The hashing runs in
// parallel. A named pipe, socket or device is an error: it is never opened.
func scanWorktree(ctx context.Context, root string, l layout, idx *index.Index) (map[string]entry, error) {
	var files []scanned
	w := newWalker(newIgnorer(root, l), idx)
	w.visit = func(rel string, d fs.DirEntry, _ *index.Entry) error {
		switch t := d.Type(); {
		case d.IsDir():
			files = append(files, scanned{rel: rel, mode: filemode.Submodule})
		case t&fs.ModeSymlink != 0:
			files = append(files, scanned{rel: rel, mode: filemode.Symlink})
		case !t.IsRegular():
			return regular.NotRegularError(rel, t)
		default: // the executable bit and the size come from the open file
			files = append(files, scanned{rel: rel, mode: filemode.Regular})
		}
		return nil
	}
	if err := w.walk(ctx, "", w.ig.base, false); err != nil {
		return nil, err
	}
	if err := hashAll(ctx, root, files); err != nil {
		return nil, err
	}
	out := make(map[string]entry, len(files))
	for _, f := range files {
		out[f.rel] = entry{hash: f.hash, mode: f.mode, size: f.size}
	}
	return out, nil
}

// scanned is one working-tree file found by the walk, hashed by hashAll.
type scanned struct {
	rel  string
	mode filemode.FileMode
	size int64
	hash plumbing.Hash
}

// hashAll computes the blob hash of every file, on up to GOMAXPROCS goroutines. The
// error is the first one met, so that it stays one line.
func hashAll(ctx context.Context, root string, files []scanned) error {
	workers := min(runtime.GOMAXPROCS(0), 8, max(len(files), 1))
	var next atomic.Int64
	errs := make([]error, workers)
	var g crash.Group
	for w := range workers {
		g.Go(func() {
			buf := make([]byte, 64<<10)
			for i := int(next.Add(1) - 1); i < len(files); i = int(next.Add(1) - 1) {
				if errs[w] = ctx.Err(); errs[w] == nil {
					errs[w] = hashFile(root, &files[i], buf)
				}
				if errs[w] != nil {
					next.Store(int64(len(files))) // the others stop too
					return
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// hashFile computes a file's git blob hash and sets its mode and size, streaming through
// buf, so a large file is never held. A symbolic link's hash is its target's text; it is
// never followed. Anything else must be a regular file (one replaced by a pipe since the
// walk is an error, found without blocking).
func hashFile(root string, f *scanned, buf []byte) error {
	full := filepath.Join(root, filepath.FromSlash(f.rel))
	if f.mode == filemode.Submodule {
		f.hash = submoduleHead(full)
		return nil
	}
	if f.mode == filemode.Symlink {
		target, err := os.Readlink(full)
		if err != nil {
			return err
		}
		f.hash, f.size = plumbing.ComputeHash(plumbing.BlobObject, []byte(target)), int64(len(target))
		return nil
	}
	hash, size, exec, err := hashRegular(full, f.rel, buf)
	if err != nil {
		return err
	}
	f.hash, f.size = hash, size
	if exec {
		f.mode = filemode.Executable
	}
	return nil
}

// hashStream hashes size bytes of r as a blob, through buf.
func hashStream(r io.Reader, size int64, rel string, buf []byte) (plumbing.Hash, error) {
	h := plumbing.NewHasher(plumbing.BlobObject, size)
	if _, err := io.CopyBuffer(h, io.LimitReader(r, size), buf); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("%s: %w", rel, err)
	}
	return h.Sum(), nil
}
