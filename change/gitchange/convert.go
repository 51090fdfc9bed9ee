package gitchange

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Git converts a file when it records it: end-of-line normalisation (core.autocrlf,
// core.eol, the text and eol attributes), clean filters (the filter attribute: Git LFS),
// ident, working-tree-encoding. Which conversion applies depends on every level of git's
// configuration and attributes, and a filter is a program git runs: only git can say what
// it would record. So the working-tree files that differ from the base as they are on
// the disk are hashed again by 'git hash-object --stdin-paths', which applies exactly
// those conversions; a file whose converted content is the base's is unchanged (a tree
// git calls clean has no changed file), and a changed file is verified with the content
// git would record.

// cleaned holds what git would record for the converted files that changed.
type cleaned struct {
	content map[string][]byte
	size    map[string]int64
}

// read returns the recorded content of path.
func (c *cleaned) read(path string) ([]byte, int64, error) {
	if c == nil {
		return nil, 0, fmt.Errorf("%s: no converted content", path)
	}
	data, ok := c.content[path]
	if !ok {
		return nil, 0, fmt.Errorf("%s: no converted content", path)
	}
	return data, c.size[path], nil
}

// converted replaces the hash of each regular working-tree file that differs from the
// base by the hash git would record, and returns the recorded content of the converted
// files that still differ. Without a git command there is no conversion to apply.
func (r *Repo) converted(ctx context.Context, base, head map[string]entry) (*cleaned, error) {
	var paths []string
	for p, e := range head {
		b, inBase := base[p]
		if (e.mode == filemode.Regular || e.mode == filemode.Executable) && !e.fromIndex && (!inBase || b.hash != e.hash) {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, nil
	}
	hashes, err := r.hashObjects(ctx, paths, nil)
	if err != nil {
		return nil, err
	}
	var changed []string
	for i, p := range paths {
		e := head[p]
		if hashes[i] == e.hash {
			continue
		}
		e.hash, e.clean = hashes[i], true
		head[p] = e
		if b, ok := base[p]; !ok || b.hash != e.hash {
			changed = append(changed, p)
		}
	}
	if len(changed) == 0 {
		return nil, nil
	}
	return r.recorded(ctx, changed, head)
}

// hashObjects runs 'git hash-object --stdin-paths' on paths (relative to the root) with
// the extra variables env, and returns one hash per path.
func (r *Repo) hashObjects(ctx context.Context, paths []string, env []string) ([]plumbing.Hash, error) {
	var in bytes.Buffer
	for _, p := range paths {
		in.WriteString(cQuote(p))
		in.WriteByte('\n')
	}
	args := []string{"hash-object", "--stdin-paths"}
	if env != nil {
		args = []string{"hash-object", "-w", "--stdin-paths"}
	}
	g := r.env
	if env != nil {
		g = newCallerEnv(append(append([]string{}, r.env.list...), env...))
	}
	out, err := g.git(ctx, r.root, in.Bytes(), args...)
	if err != nil {
		return nil, err
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(paths) {
		return nil, fmt.Errorf("git hash-object: %d hashes for %d files", len(lines), len(paths))
	}
	hashes := make([]plumbing.Hash, len(lines))
	for i, l := range lines {
		if !plumbing.IsHash(l) {
			return nil, fmt.Errorf("git hash-object: %q is not a hash", l)
		}
		hashes[i] = plumbing.NewHash(l)
	}
	return hashes, nil
}

// recorded returns the content git would record for paths: git writes the converted
// blobs into a temporary object directory of this run (never the repository's), from
// which they are read.
func (r *Repo) recorded(ctx context.Context, paths []string, head map[string]entry) (*cleaned, error) {
	tmp, err := os.MkdirTemp("", "agentverify-objects-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	env := []string{"GIT_OBJECT_DIRECTORY=" + tmp, "GIT_ALTERNATE_OBJECT_DIRECTORIES=" + filepath.Join(r.layout.commonDir, "objects")}
	hashes, err := r.hashObjects(ctx, paths, env)
	if err != nil {
		return nil, err
	}
	c := &cleaned{content: map[string][]byte{}, size: map[string]int64{}}
	for i, p := range paths {
		if hashes[i] != head[p].hash {
			return nil, fmt.Errorf("%s: changed while it was read", p)
		}
		data, size, err := r.looseBlob(tmp, hashes[i])
		if errors.Is(err, os.ErrNotExist) { // the repository had it already
			data, size, err = r.blob(hashes[i])
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		c.content[p], c.size[p] = data, size
	}
	return c, nil
}

// looseBlob reads a loose blob from an object directory: zlib over "blob SIZE\x00DATA".
// A blob over the size limit gives its size alone.
func (r *Repo) looseBlob(dir string, h plumbing.Hash) ([]byte, int64, error) {
	s := h.String()
	f, err := os.Open(filepath.Join(dir, s[:2], s[2:]))
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	z, err := zlib.NewReader(f)
	if err != nil {
		return nil, 0, err
	}
	defer z.Close()
	br := bufio.NewReader(z)
	hdr, err := br.ReadString(0)
	if err != nil {
		return nil, 0, fmt.Errorf("object %s: %w", s, err)
	}
	size, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSuffix(hdr, "\x00"), "blob "), 10, 64)
	if err != nil || !strings.HasPrefix(hdr, "blob ") {
		return nil, 0, fmt.Errorf("object %s: not a blob", s)
	}
	if size > r.maxFileSize() {
		return nil, size, nil
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(br, data); err != nil {
		return nil, 0, fmt.Errorf("object %s: %w", s, err)
	}
	return data, size, nil
}

// cQuote quotes a path the way git unquotes a line that starts with '"'.
func cQuote(p string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
