// Package patch builds a change set from a unified diff (agentverify diff --patch): the
// base is the repository's HEAD, the head is the patch applied to it in memory. Nothing is
// written to the working tree.
package patch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/editset"
)

// maxPatch bounds the patch read.
const maxPatch = 64 << 20

// Base reads files at the base of the patch (the repository's HEAD).
type Base interface {
	// ReadBase returns the content of path at the base, or fs.ErrNotExist.
	ReadBase(path string) ([]byte, error)
}

// Load parses the unified diff from r (name is used in errors) and returns the change of
// applying it to base. root is the repository root; base and head file systems are given
// by baseFS (the tree of HEAD) and the patched files over it.
func Load(ctx context.Context, root string, baseFS fs.FS, r io.Reader, name string) (*change.Set, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxPatch+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxPatch {
		return nil, fmt.Errorf("%s: patch larger than 64 MiB", name)
	}
	files, _, err := gitdiff.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: not a unified diff: %v", name, oneLine(err))
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no file changes in the patch", name)
	}
	if !gitHeader(data) {
		for _, f := range files {
			traditional(f)
		}
	}
	set := &change.Set{Root: root, BaseFS: baseFS, BaseRev: "HEAD"}
	var edits []editset.Edit
	seen := map[string]bool{}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cf, fileEdits, err := apply(baseFS, f, seen)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		set.Files = append(set.Files, cf)
		edits = append(edits, fileEdits...)
	}
	set.HeadFS = editset.Overlay(baseFS, edits)
	set.Sort()
	return set, nil
}

// apply applies one file's patch to its base content and returns the changed file and the
// edits that make the head file system. seen guards against a file patched twice.
func apply(baseFS fs.FS, f *gitdiff.File, seen map[string]bool) (*change.File, []editset.Edit, error) {
	oldPath, newPath, err := paths(f)
	if err != nil {
		return nil, nil, err
	}
	key := newPath
	if key == "" {
		key = oldPath
	}
	if seen[key] {
		return nil, nil, fmt.Errorf("%s is patched twice", key)
	}
	seen[key] = true
	var base []byte
	if !f.IsNew {
		if base, err = fs.ReadFile(baseFS, oldPath); errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%s does not exist at HEAD", oldPath)
		} else if err != nil {
			return nil, nil, fmt.Errorf("reading %s at HEAD: %v", oldPath, err)
		}
	}
	if f.IsBinary {
		cf := &change.File{Path: key, OldPath: oldPath, Op: op(f), Binary: true}
		if cf.Op == change.Create {
			cf.OldPath = ""
		}
		return cf, nil, nil
	}
	if f.IsDelete {
		return change.NewFile(key, oldPath, base, nil), []editset.Edit{{Path: oldPath, Delete: true}}, nil
	}
	var out bytes.Buffer
	if err := gitdiff.Apply(&out, bytes.NewReader(base), f); err != nil {
		return nil, nil, fmt.Errorf("%s: the patch does not apply to HEAD: %v", key, oneLine(err))
	}
	head := append([]byte{}, out.Bytes()...)
	edits := []editset.Edit{{Path: newPath, Content: head}}
	if f.IsRename {
		edits = append(edits, editset.Edit{Path: oldPath, Delete: true})
	}
	if f.IsNew {
		base = nil
	}
	return change.NewFile(key, oldPath, base, head), edits, nil
}

func op(f *gitdiff.File) change.Op {
	switch {
	case f.IsNew:
		return change.Create
	case f.IsDelete:
		return change.Delete
	case f.IsRename:
		return change.Rename
	}
	return change.Modify
}

// paths validates the patch's file names: relative, clean, no "..", not inside .git.
func paths(f *gitdiff.File) (oldPath, newPath string, err error) {
	check := func(p string) (string, error) {
		if p == "" {
			return "", nil
		}
		if strings.HasPrefix(p, "/") || strings.Contains(p, `\`) {
			return "", fmt.Errorf("%s: absolute or non-slash path in patch", p)
		}
		for _, part := range strings.Split(p, "/") {
			if part == ".." {
				return "", fmt.Errorf("%s: path with '..' in patch", p)
			}
		}
		c := path.Clean(p)
		if c == "." || c == ".git" || strings.HasPrefix(c, ".git/") {
			return "", fmt.Errorf("%s: not a file path inside the repository", p)
		}
		return c, nil
	}
	if oldPath, err = check(f.OldName); err != nil {
		return "", "", err
	}
	if newPath, err = check(f.NewName); err != nil {
		return "", "", err
	}
	if oldPath == "" && newPath == "" {
		return "", "", errors.New("a file in the patch has no name")
	}
	if oldPath == "" {
		oldPath = newPath
	}
	return oldPath, newPath, nil
}

// gitHeader reports whether the patch has a "diff --git" header: git's own format,
// whose names gitdiff already reads without their a/ and b/ prefixes.
func gitHeader(data []byte) bool {
	return bytes.HasPrefix(data, []byte("diff --git ")) || bytes.Contains(data, []byte("\ndiff --git "))
}

// traditional reads the names of a plain unified diff (diff -u, or a diff whose header
// was cut) as 'git apply' does by default (-p1): the first component of each name is
// dropped (a/m.go and b/m.go are m.go; a name with no directory is kept as it is), and
// the file keeps one name, the shorter of the two (m.go.orig and m.go are m.go): a plain
// diff never renames.
func traditional(f *gitdiff.File) {
	f.OldName, f.NewName = stripOne(f.OldName), stripOne(f.NewName)
	if f.IsNew || f.IsDelete || f.OldName == "" || f.NewName == "" {
		return
	}
	name := f.OldName
	if len(f.NewName) < len(name) {
		name = f.NewName
	}
	f.OldName, f.NewName, f.IsRename = name, name, false
}

// stripOne drops the first component of a patch name, as -p1 does.
func stripOne(name string) string {
	if _, rest, ok := strings.Cut(name, "/"); ok && rest != "" && !strings.HasPrefix(name, "/") {
		return rest
	}
	return name
}

func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }
