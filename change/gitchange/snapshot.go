package gitchange

import (
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// maxSnapshotFile bounds what Snapshot.Read returns; the files read this way are
// configuration (the policy), a page of text.
const maxSnapshotFile = 1 << 20

// Snapshot reads files of one commit from the git objects, never from the disk: the
// trusted side of a change, which the change itself cannot alter.
type Snapshot struct {
	repo *Repo
	tree *object.Tree // nil: the empty tree of a repository with no commits
	// Rev is the commit's hash, empty for the empty tree.
	Rev string
}

// Snapshot returns the commit a base revision names (as ResolveBase: "" means HEAD).
func (r *Repo) Snapshot(rev string) (*Snapshot, error) {
	c, err := r.ResolveBase(rev)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{repo: r}
	if c == nil {
		return s, nil
	}
	if s.tree, err = c.Tree(); err != nil {
		return nil, fmt.Errorf("reading tree of %s: %w", c.Hash, err)
	}
	s.Rev = c.Hash.String()
	return s, nil
}

// Read returns the content of the file at path (repository-relative, '/'-separated).
// found is false when the commit has no file there. A symbolic link is returned as its
// target, with link set; it is never followed.
func (s *Snapshot) Read(path string) (data []byte, link, found bool, err error) {
	if s.tree == nil {
		return nil, false, false, nil
	}
	e, err := s.tree.FindEntry(path)
	if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
		return nil, false, false, nil
	}
	if err != nil {
		return nil, false, false, fmt.Errorf("%s at %.12s: %w", path, s.Rev, err)
	}
	if e.Mode == filemode.Dir || e.Mode == filemode.Submodule {
		return nil, false, false, fmt.Errorf("%s at %.12s: not a file", path, s.Rev)
	}
	b, err := s.repo.repo.BlobObject(e.Hash)
	if err != nil {
		return nil, false, false, fmt.Errorf("%s at %.12s: %w", path, s.Rev, err)
	}
	if b.Size > maxSnapshotFile {
		return nil, false, false, fmt.Errorf("%s at %.12s: larger than 1 MiB", path, s.Rev)
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, false, false, err
	}
	defer rd.Close()
	data, err = io.ReadAll(rd)
	return data, e.Mode == filemode.Symlink, true, err
}
