package gitchange

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/agentverify/agentverify/change"
)

// Paths returns the files under paths as they are, with no base: every line counts as
// new (agentverify check). Directories are walked; inside a git repository, files git
// ignores are skipped unless named explicitly. It works outside repositories too, with
// dir as the root.
func Paths(ctx context.Context, dir string, paths []string) (*change.Set, error) {
	var idx *index.Index
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	if r, err := Open(dir); err == nil {
		root = r.root
		idx, _ = r.index()
	}
	set := &change.Set{Root: root, NoBase: true}
	seen := map[string]bool{}
	add := func(rel string, fi fs.FileInfo) error {
		if seen[rel] {
			return nil
		}
		seen[rel] = true
		full := filepath.Join(root, filepath.FromSlash(rel))
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(full)
			if err != nil {
				return err
			}
			f := change.NewFile(rel, "", nil, []byte(target))
			f.Symlink = true
			set.Files = append(set.Files, f)
			return nil
		}
		if !fi.Mode().IsRegular() {
			return nil
		}
		if fi.Size() > change.MaxFileSize {
			set.Files = append(set.Files, change.NewLargeFile(rel, "", change.Create, fi.Size()))
			return nil
		}
		data, err := os.ReadFile(full)
		if err != nil {
			return err
		}
		set.Files = append(set.Files, change.NewFile(rel, "", nil, data))
		return nil
	}
	w := newWalker(newIgnorer(root), idx)
	w.visit = func(rel string, d fs.DirEntry, _ *index.Entry) error {
		fi, err := d.Info()
		if err != nil {
			return err
		}
		return add(rel, fi)
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
			abs = filepath.Join(real, filepath.Base(abs))
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || !filepath.IsLocal(rel) && rel != "." {
			return nil, fmt.Errorf("%s: outside the repository %s", p, root)
		}
		rel = filepath.ToSlash(rel)
		fi, err := os.Lstat(abs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, unwrapPathError(err))
		}
		if fi.IsDir() {
			if rel == "." {
				rel = ""
			}
			if rel == ".git" || strings.HasPrefix(rel, ".git/") {
				return nil, fmt.Errorf("%s: is inside .git", p)
			}
			if err := w.walk(ctx, rel, w.ig.base, false); err != nil {
				return nil, err
			}
			continue
		}
		if err := add(rel, fi); err != nil {
			return nil, err
		}
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	set.HeadFS = r.FS()
	set.Sort()
	return set, nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
