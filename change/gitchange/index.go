package gitchange

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// index reads the index git hands the caller (GIT_INDEX_FILE when set: the temporary index
// of 'git commit -a' or 'git commit PATH'). An index go-git cannot decode — a sparse index
// (extension sdir), a split index — is listed by git itself, expanded to files.
func (r *Repo) index() (*index.Index, error) {
	f, err := os.Open(r.indexFile)
	if errors.Is(err, os.ErrNotExist) {
		return &index.Index{Version: 2}, nil // a repository with nothing staged yet
	}
	if err != nil {
		return nil, fmt.Errorf("reading the git index: %w", err)
	}
	defer f.Close()
	idx := &index.Index{}
	err = index.NewDecoder(bufio.NewReader(f)).Decode(idx)
	if errors.Is(err, index.ErrUnknownExtension) { // "sdir", "link": required, and unknown to go-git
		return r.listIndex()
	}
	if err != nil {
		return nil, fmt.Errorf("reading the git index %s: %w", r.indexFile, err)
	}
	return idx, nil
}

// listIndex lists the index with 'git ls-files', which expands a sparse index into files.
func (r *Repo) listIndex() (*index.Index, error) {
	out, err := r.env.git(context.Background(), r.root, nil, "ls-files", "--stage", "-t", "-z", "--full-name")
	if err != nil {
		return nil, fmt.Errorf("reading the git index: %w", err)
	}
	idx := &index.Index{Version: 2}
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if rec == "" {
			continue
		}
		e, err := parseLsFiles(rec)
		if err != nil {
			return nil, fmt.Errorf("reading the git index: git ls-files: %w", err)
		}
		idx.Entries = append(idx.Entries, e)
	}
	return idx, nil
}

// parseLsFiles parses one record of 'git ls-files --stage -t': "TAG MODE HASH STAGE\tPATH".
func parseLsFiles(rec string) (*index.Entry, error) {
	meta, name, ok := strings.Cut(rec, "\t")
	f := strings.Fields(meta)
	if !ok || len(f) != 4 {
		return nil, fmt.Errorf("unexpected line %q", rec)
	}
	mode, err := filemode.New(f[1])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	stage, err := strconv.Atoi(f[3])
	if err != nil {
		return nil, fmt.Errorf("%s: stage %q", name, f[3])
	}
	return &index.Entry{Name: name, Mode: mode, Hash: plumbing.NewHash(f[2]), Stage: index.Stage(stage), SkipWorktree: f[0] == "S"}, nil
}
