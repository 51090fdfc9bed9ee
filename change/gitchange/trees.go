package gitchange

import (
	"bytes"
	"fmt"
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
	kept  kept[map[string]entry] // tree listings, at most maxTrees
	walks int                    // trees walked (not found here), for tests
	// blobs keeps the content of blobs read through the change's file systems, which
	// several dimensions read in turn on every request (the changed package's files), up
	// to maxBlobBytes; a blob is named by its content's hash too.
	blobs kept[[]byte]
}

// maxTrees bounds the listings kept: the bases of the diffs a repository's server
// answers at a time (HEAD, a branch's merge base).
const maxTrees = 4

// maxBlobBytes bounds the content of the blobs kept.
const maxBlobBytes = 32 << 20

// kept holds values named by a content hash up to a total cost, dropping the oldest
// first. A value under a hash never changes, so there is nothing to refresh.
type kept[V any] struct {
	vals  map[plumbing.Hash]V
	costs map[plumbing.Hash]int
	order []plumbing.Hash // oldest first
	cost  int
}

func (k *kept[V]) get(h plumbing.Hash) (V, bool) {
	v, ok := k.vals[h]
	return v, ok
}

// add keeps v under h at cost, then drops the oldest values until the total is at most max.
func (k *kept[V]) add(h plumbing.Hash, v V, cost, max int) {
	if _, dup := k.vals[h]; dup {
		return
	}
	if k.vals == nil {
		k.vals, k.costs = map[plumbing.Hash]V{}, map[plumbing.Hash]int{}
	}
	k.vals[h], k.costs[h] = v, cost
	k.order = append(k.order, h)
	k.cost += cost
	for k.cost > max {
		old := k.order[0]
		k.cost -= k.costs[old]
		delete(k.vals, old)
		delete(k.costs, old)
		k.order = k.order[1:]
	}
}

// blob reads the blob h of repo, from t when it holds it. The bytes are the caller's own.
func (t *Trees) blob(repo *git.Repository, h plumbing.Hash) ([]byte, error) {
	if t == nil {
		return readBlob(repo, h)
	}
	t.mu.Lock()
	data, ok := t.blobs.get(h)
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
	t.blobs.add(h, bytes.Clone(data), len(data), maxBlobBytes)
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
	listing, ok := t.kept.get(c.TreeHash)
	t.mu.Unlock()
	if ok {
		tree, err := c.Tree()
		if err != nil {
			return nil, nil, fmt.Errorf("reading tree of %s: %w", c.Hash, err)
		}
		return maps.Clone(listing), tree, nil
	}
	files, tree, err := treeEntries(c)
	if err != nil {
		return nil, nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.walks++
	t.kept.add(c.TreeHash, maps.Clone(files), 1, maxTrees)
	return files, tree, nil
}
