package gitchange

import (
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// readOnlyExtensions are repository extensions that change nothing of what this package
// reads (objects, references, the index it decodes itself): worktreeConfig only adds a
// per-worktree configuration file, which 'git sparse-checkout set' turns on. go-git
// refuses every extension it does not implement, so they are hidden from it.
var readOnlyExtensions = map[string]bool{"worktreeconfig": true}

// openLayout opens the repository at l with go-git.
func openLayout(l layout) (*git.Repository, error) {
	var dot billy.Filesystem = osfs.New(l.gitDir)
	if l.commonDir != l.gitDir {
		dot = dotgit.NewRepositoryFilesystem(dot, osfs.New(l.commonDir))
	}
	st := filesystem.NewStorage(dot, cache.NewObjectLRUDefault())
	return git.Open(&storage{st}, osfs.New(l.root))
}

// storage is go-git's file-system storage with the read-only extensions hidden.
type storage struct {
	*filesystem.Storage
}

// Config returns the repository's configuration without the read-only extensions.
func (s *storage) Config() (*config.Config, error) {
	cfg, err := s.Storage.Config()
	if err != nil || cfg.Raw == nil || !cfg.Raw.HasSection("extensions") {
		return cfg, err
	}
	ext := cfg.Raw.Section("extensions")
	for _, o := range ext.Options {
		if readOnlyExtensions[strings.ToLower(o.Key)] {
			ext.RemoveOption(o.Key)
		}
	}
	if len(ext.Options) == 0 {
		cfg.Raw.RemoveSection("extensions")
	}
	return cfg, nil
}
