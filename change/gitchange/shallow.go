package gitchange

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// A shallow clone (git clone --depth, the default checkout of most CI systems) has the
// history of its commits only down to the commits listed in its shallow file; their
// parents are missing. go-git's merge-base walks every ancestor and stops at the first
// missing one, so in a shallow clone the merge-base is asked of git, which knows where the
// history ends: it is found whenever the history fetched contains it.

// shallow reports whether the repository is a shallow clone, and its boundary commits.
func (r *Repo) shallow() (bool, []string) {
	b, err := os.ReadFile(filepath.Join(r.layout.commonDir, "shallow"))
	if err != nil {
		return false, nil
	}
	return true, strings.Fields(string(b))
}

// mergeBase returns the merge-base of HEAD and the tip of the branch rev.
func (r *Repo) mergeBase(rev string, head, tip *object.Commit) (*object.Commit, error) {
	if ok, _ := r.shallow(); !ok {
		bases, err := head.MergeBase(tip)
		if err != nil {
			return nil, fmt.Errorf("base %q: finding the merge-base with HEAD: %w", rev, err)
		}
		if len(bases) == 0 {
			return nil, fmt.Errorf("base %q: no common ancestor with HEAD", rev)
		}
		return bases[0], nil
	}
	out, err := r.env.git(context.Background(), r.root, nil, "merge-base", head.Hash.String(), tip.Hash.String())
	if err != nil || !plumbing.IsHash(strings.TrimSpace(string(out))) {
		if err != nil && !strings.Contains(err.Error(), "exit status 1") {
			return nil, fmt.Errorf("base %q: %w", rev, err)
		}
		return nil, fmt.Errorf("base %q: no common ancestor with HEAD in the history fetched%s", rev, r.shallowHint(head, rev))
	}
	c, err := r.repo.CommitObject(plumbing.NewHash(strings.TrimSpace(string(out))))
	if err != nil {
		return nil, fmt.Errorf("base %q: reading the merge-base: %w", rev, err)
	}
	return c, nil
}

// shallowHint says, in a shallow clone, how much more history to fetch: as many commits
// again as HEAD has here (the fetch to repeat until the base is found), or all of it.
func (r *Repo) shallowHint(head *object.Commit, rev string) string {
	ok, _ := r.shallow()
	if !ok || head == nil {
		return ""
	}
	depth := historyDepth(head)
	remote, branch := "origin", rev
	if before, after, found := strings.Cut(rev, "/"); found {
		if _, err := r.repo.Remote(before); err == nil {
			remote, branch = before, after
		}
	}
	return fmt.Sprintf(": this is a shallow clone with %d commit(s) of history behind HEAD; fetch more with 'git fetch --deepen=%d %s %s' (repeat until the base is found) or all of it with 'git fetch --unshallow %s'", depth, depth, remote, branch, remote)
}

// historyDepth counts the commits reachable from c in the history fetched (at most
// 100,000).
func historyDepth(c *object.Commit) int {
	seen := map[plumbing.Hash]bool{}
	queue := []*object.Commit{c}
	for len(queue) > 0 && len(seen) < 100000 {
		c := queue[0]
		queue = queue[1:]
		if seen[c.Hash] {
			continue
		}
		seen[c.Hash] = true
		err := c.Parents().ForEach(func(p *object.Commit) error {
			queue = append(queue, p)
			return nil
		})
		if err != nil && !errors.Is(err, plumbing.ErrObjectNotFound) {
			break
		}
	}
	return len(seen)
}
