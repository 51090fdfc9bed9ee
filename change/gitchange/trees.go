package gitchange

import (
	"bytes"
	"maps"
	"sync"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Trees keeps the file listings of recently read commit trees for a long-lived process
// (the shared server): a pre-commit hook diffs the index against the same HEAD on every
// commit, and walking a tree of a thousand files is most of building that change. A tree
// is named by the hash of its content, so a listing kept under that hash is never stale.
// The zero value is ready; a nil *Trees keeps nothing.
type Trees struct {
	mu    sync.Mutex
	kept  map[plumbing.Hash]map[string]entry
	order []plumbing.Hash // least recently stored first
	walks int             // trees walked (not found here), for tests
	// blobs keeps the content of blobs read through the change's file systems, which
	// several dimensions read in turn on every request (the changed package's files), up
	// to maxBlobBytes; a blob is named by its content's hash too.
	blobs     map[plumbing.Hash][]byte
	blobOrder []plumbing.Hash
	blobBytes int
}

// maxTrees bounds the listings kept: the bases of the diffs a repository's server
// answers at a time (HEAD, a branch's merge base).
const maxTrees = 4

// maxBlobBytes bounds the content of the blobs kept.
const maxBlobBytes = 32 << 20

// blob reads the blob h of repo, from t when it holds it. The bytes are the caller's own.
func (t *Trees) blob(repo *git.Repository, h plumbing.Hash) ([]byte, error) {
	if t == nil {
		return readBlob(repo, h)
	}
	t.mu.Lock()
	data, ok := t.blobs[h]
	t.mu.Unlock()
	if ok {
		return bytes.Clone(data), nil
	}
	data, err := readBlob(repo, h)
	if err != nil || len(data) > maxBlobBytes/8 {
		return data, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.blobs == nil {
		t.blobs = map[plumbing.Hash][]byte{}
	}
	if _, dup := t.blobs[h]; !dup {
		t.blobs[h] = bytes.Clone(data)
		t.blobOrder = append(t.blobOrder, h)
		t.blobBytes += len(data)
		for t.blobBytes > maxBlobBytes {
			t.blobBytes -= len(t.blobs[t.blobOrder[0]])
			delete(t.blobs, t.blobOrder[0])
			t.blobOrder = t.blobOrder[1:]
		}
	}
	return data, nil
}

// Walks returns how many trees were walked rather than found in t.
func (t *Trees) Walks() int {
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.walks
}

// entries lists every file of c's tree (treeEntries), from t when it holds the tree's
// listing. The map is the caller's own.
func (t *Trees) entries(c *object.Commit) (map[string]entry, *object.Tree, error) {
	if t == nil || c == nil {
		return treeEntries(c)
	}
	t.mu.Lock()
	kept, ok := t.kept[c.TreeHash]
	t.mu.Unlock()
	if ok {
		tree, err := c.Tree()
		if err != nil {
			return nil, nil, err
		}
		return maps.Clone(kept), tree, nil
	}
	files, tree, err := treeEntries(c)
	if err != nil {
		return nil, nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.walks++
	if t.kept == nil {
		t.kept = map[plumbing.Hash]map[string]entry{}
	}
	if _, dup := t.kept[c.TreeHash]; !dup {
		t.kept[c.TreeHash] = maps.Clone(files)
		t.order = append(t.order, c.TreeHash)
		if len(t.order) > maxTrees {
			delete(t.kept, t.order[0])
			t.order = t.order[1:]
		}
	}
	return files, tree, nil
}
