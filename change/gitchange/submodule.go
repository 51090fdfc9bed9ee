package gitchange

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/agentverify/agentverify/change"
)

// A submodule is, for the repository that holds it, one path whose content is a commit
// hash (a gitlink, mode 160000): that is all a commit of the superproject records. Its
// files are another repository's, verified there.

// submoduleHead returns the commit checked out in the submodule at dir, or the zero hash
// when none is (a submodule that was never initialised, a repository with no commit).
func submoduleHead(dir string) plumbing.Hash {
	l, ok, err := dotGit(dir)
	if !ok || err != nil {
		return plumbing.ZeroHash
	}
	r, err := openLayout(l)
	if err != nil {
		return plumbing.ZeroHash
	}
	ref, err := r.Head()
	if err != nil {
		return plumbing.ZeroHash
	}
	return ref.Hash()
}

// submoduleDirty reports whether the working tree of the submodule at dir holds changes
// of its own (edited, added or deleted files) that no commit of the submodule records.
func submoduleDirty(ctx context.Context, dir string) (bool, error) {
	sub, err := OpenEnv(dir, []string{})
	if err != nil {
		return false, nil // not a repository of its own (never initialised): nothing inside
	}
	set, err := sub.WorkingTree(ctx, "")
	if err != nil {
		return false, fmt.Errorf("submodule %s: %w", filepath.Base(dir), err)
	}
	return len(set.Files) > 0, nil
}

// gitlinkContent is how a gitlink reads on one side of a change, as git diff shows it.
func gitlinkContent(h plumbing.Hash) []byte {
	return []byte("Subproject commit " + h.String() + "\n")
}

// newGitlink builds the change of a submodule path.
func newGitlink(path, oldPath string, op change.Op, base, head entry) *change.File {
	f := &change.File{Path: path, OldPath: oldPath, Op: op, Submodule: true, SubmoduleDirty: head.dirty}
	if op != change.Create {
		f.Base = gitlinkContent(base.hash)
	}
	if op != change.Delete {
		f.Head = gitlinkContent(head.hash)
	}
	if op == change.Create {
		f.OldPath = ""
	}
	return f
}

// isGitlink reports whether either side of a changed path is a submodule.
func isGitlink(base, head entry) bool {
	return base.mode == filemode.Submodule || head.mode == filemode.Submodule
}
