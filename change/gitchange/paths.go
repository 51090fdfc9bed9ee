package gitchange

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/regular"
)

// Paths returns the files under paths as they are, with no base: every line counts as
// new (agentverify check). Directories are walked; inside a git repository, files git
// ignores are skipped unless named explicitly. It works outside repositories too, with
// dir as the root. A named pipe, socket or device is an error, never opened.
func Paths(ctx context.Context, dir string, paths []string) (*change.Set, error) {
	return PathsLimit(ctx, dir, paths, 0)
}

// PathsLimit is Paths with the size limit of the policy in force (0: the default): the
// content of a file over limit bytes is not loaded (change.File.TooLarge).
func PathsLimit(ctx context.Context, dir string, paths []string, limit int64) (*change.Set, error) {
	if limit <= 0 {
		limit = change.DefaultMaxFileSize
	}
	root, l, idx, err := pathsRoot(dir)
	if err != nil {
		return nil, err
	}
	set := &change.Set{Root: root, NoBase: true, OnDisk: true}
	seen := map[string]bool{}
	add := func(rel string, fi fs.FileInfo) error {
		if seen[rel] {
			return nil
		}
		seen[rel] = true
		f, err := asIs(root, rel, fi, limit)
		if f != nil {
			set.Files = append(set.Files, f)
		}
		return err
	}
	// A file the walk found that is gone when it is read (an editor's temporary file, a
	// build's output) was never part of what is checked: it is skipped with a note, not
	// an abort of the whole run.
	vanished := func(rel string, err error) error {
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		set.Notes = append(set.Notes, rel+": vanished while it was read (a temporary file?); skipped")
		return nil
	}
	w := newWalker(newIgnorer(root, l), idx)
	w.visit = func(rel string, d fs.DirEntry, _ *index.Entry) error {
		if d.IsDir() {
			return nil // a submodule: its own repository, checked there
		}
		fi, err := d.Info()
		if err != nil {
			return vanished(rel, err)
		}
		return vanished(rel, add(rel, fi))
	}
	for _, p := range paths {
		rel, fi, err := locate(root, goPattern(p))
		if err != nil {
			return nil, err
		}
		if fi.IsDir() {
			if rel == "." {
				rel = ""
			}
			err = w.walk(ctx, rel, w.ig.base, false)
		} else if err = add(rel, fi); err == nil {
			// A pipe among the Go files next to it would block the toolchain loading them.
			err = regular.CheckDir(filepath.Dir(filepath.Join(root, filepath.FromSlash(rel))), path.Dir(rel), ".go")
		}
		if err != nil {
			return nil, err
		}
	}
	headFS, err := regular.NewFS(root)
	if err != nil {
		return nil, err
	}
	set.HeadFS = headFS
	set.Sort()
	return set, nil
}

// goPattern turns a Go package pattern into the directory it walks: "./..." and
// "./pkg/..." are the directories "." and "./pkg", which are walked recursively, as the
// go command would match them.
func goPattern(p string) string {
	if p == "..." {
		return "."
	}
	if strings.HasSuffix(p, "/...") {
		return strings.TrimSuffix(p, "/...")
	}
	return p
}

// pathsRoot is the repository root containing dir with its index, or dir itself.
func pathsRoot(dir string) (string, layout, *index.Index, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return "", layout{}, nil, err
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	if r, err := Open(dir); err == nil {
		idx, _ := r.index()
		return r.root, r.layout, idx, nil
	}
	return root, layout{}, nil, nil
}

// locate returns p relative to root ("." for root itself) and its file info; p must be
// inside root and not inside .git.
func locate(root, p string) (string, fs.FileInfo, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", nil, err
	}
	if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(real, filepath.Base(abs))
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", nil, fmt.Errorf("%s: outside the repository %s", p, root)
	}
	rel = filepath.ToSlash(rel)
	if rel == ".git" || strings.HasPrefix(rel, ".git/") {
		return "", nil, fmt.Errorf("%s: is inside .git", p)
	}
	fi, err := os.Lstat(abs)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", p, unwrapPathError(err))
	}
	return rel, fi, nil
}

// asIs builds the change of one file as it is: created with all its lines; a symbolic
// link's content is its target; a named pipe, socket or device is an error.
func asIs(root, rel string, fi fs.FileInfo, limit int64) (*change.File, error) {
	full := filepath.Join(root, filepath.FromSlash(rel))
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(full)
		if err != nil {
			return nil, err
		}
		f := change.NewFile(rel, "", nil, []byte(target))
		f.Symlink = true
		return f, nil
	case !fi.Mode().IsRegular():
		return nil, regular.NotRegularError(rel, fi.Mode())
	}
	data, size, err := regular.ReadFile(full, limit)
	if err != nil {
		return nil, err
	}
	if data == nil {
		return change.NewLargeFile(rel, "", change.Create, size), nil
	}
	return change.NewFileLimit(rel, "", nil, data, limit), nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
