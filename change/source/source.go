// Package source builds the change set a request names: a working tree against its base,
// the index, a patch, files as they are, or in-memory edits (design.md §3). It is the
// first step of a verification; the policy in force is decided after it, from the
// trusted side (package trust).
package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/change/editset"
	"github.com/agentverify/agentverify/change/gitchange"
	"github.com/agentverify/agentverify/change/patch"
	"github.com/agentverify/agentverify/lazyregexp"
)

// Kind says which change a request verifies.
type Kind int

// Change sources (design.md §3).
const (
	WorkingTree Kind = iota // Base (default HEAD) vs the working tree, untracked files included
	Staged                  // the index vs HEAD, what a pre-commit hook sees
	Patch                   // a unified diff applied to HEAD
	Paths                   // files as they are, no base (agentverify check)
	Edits                   // proposed in-memory edits over the working tree
)

// ErrUsage marks errors in the request itself (bad flags, missing inputs).
var ErrUsage = errors.New("usage")

// Spec names one change.
type Spec struct {
	Dir       string // where the repository (or the files) is found
	Kind      Kind
	Base      string           // base revision of WorkingTree
	Patch     io.Reader        // the diff of Patch
	PatchName string           // its name in messages
	Paths     []string         // the files or directories of Paths (default Dir)
	Edits     []editset.Edit   // the proposed files of Edits
	GitEnv    []string         // the caller's git variables (gitchange.GitVars); nil: this process's
	Trees     *gitchange.Trees // a long-lived process's listings of base trees; nil: none kept
}

// Build builds the change spec names; files over limit bytes are not loaded.
func Build(ctx context.Context, spec Spec, limit int64) (*change.Set, error) {
	switch spec.Kind {
	case WorkingTree, Staged, Patch:
		if err := checkBase(spec.Base); err != nil {
			return nil, err
		}
		repo, err := gitchange.OpenEnv(spec.Dir, spec.GitEnv)
		if err != nil {
			return nil, err
		}
		repo.MaxFileSize, repo.Trees = limit, spec.Trees
		return repoChangeSet(ctx, repo, spec)
	case Paths:
		paths := spec.Paths
		if len(paths) == 0 {
			paths = []string{spec.Dir}
		}
		return gitchange.PathsLimit(ctx, spec.Dir, paths, limit)
	case Edits:
		root := spec.Dir
		if repo, err := gitchange.OpenEnv(spec.Dir, spec.GitEnv); err == nil {
			root = repo.Root()
		}
		return editset.BuildLimit(root, spec.Edits, limit)
	}
	return nil, fmt.Errorf("%w: unknown change source %d", ErrUsage, spec.Kind)
}

// reflogSuffix matches a reflog selector (main@{2}, @{yesterday}, HEAD@{2024-01-02 10:00}),
// which may hold a colon that is not a tree path's.
var reflogSuffix = lazyregexp.New(`@\{[^}]*\}`)

// peel matches a peeling suffix: ^{commit}, ^{} and ^{/message} name commits, ^{tree},
// ^{blob} and ^{tag} do not.
var peel = lazyregexp.New(`\^\{([^}]*)\}`)

// checkBase refuses a base revision that names something other than a commit — a file
// in a tree (HEAD:go.mod, :0:path), a tree (HEAD^{tree}) — which go-git would resolve to
// the commit before it and so verify against the wrong base.
func checkBase(rev string) error {
	plain := reflogSuffix.ReplaceAllString(rev, "")
	if strings.Contains(plain, ":") {
		return fmt.Errorf("%w: base %q names a file in a tree or the index, not a commit", ErrUsage, rev)
	}
	for _, m := range peel.FindAllStringSubmatch(plain, -1) {
		if kind := m[1]; kind != "" && kind != "commit" && !strings.HasPrefix(kind, "/") {
			return fmt.Errorf("%w: base %q names a %s, not a commit", ErrUsage, rev, kind)
		}
	}
	return nil
}

// repoChangeSet builds the change of a source that needs a repository.
func repoChangeSet(ctx context.Context, repo *gitchange.Repo, spec Spec) (*change.Set, error) {
	switch spec.Kind {
	case Staged:
		return repo.Staged(ctx)
	case Patch:
		if spec.Patch == nil {
			return nil, fmt.Errorf("%w: no patch given", ErrUsage)
		}
		base, err := repo.HeadFS()
		if err != nil {
			return nil, err
		}
		// The patch is in memory whole; the caller applies the policy's limit to it.
		return patch.Load(ctx, repo.Root(), base, spec.Patch, spec.PatchName)
	}
	return repo.WorkingTree(ctx, spec.Base)
}
