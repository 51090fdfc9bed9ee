package gitchange

import (
	"maps"
	"sync"

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
}

// maxTrees bounds the listings kept: the bases of the diffs a repository's server
// answers at a time (HEAD, a branch's merge base).
const maxTrees = 4

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
