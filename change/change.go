// Package change describes a change to a repository: the files it touches, with their
// content on both sides and the lines it changed. Dimensions read file content only from a
// Set, never from the disk, so a proposed edit can be verified before it is written.
package change

import (
	"context"
	"io/fs"
	"sort"
)

// Op is what a change does to a file.
type Op string

// The operations of a change (design.md §1).
const (
	Create Op = "create"
	Modify Op = "modify"
	Delete Op = "delete"
	Rename Op = "rename"
)

// Ops lists every operation in a stable order.
var Ops = []Op{Create, Modify, Delete, Rename}

// Side names one side of a change.
type Side int

// Sides of a change.
const (
	Head Side = iota // the new content (working tree, index, proposed edit)
	Base             // the content before the change
)

// Range is an inclusive range of 1-based line numbers.
type Range struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Contains reports whether line falls inside r.
func (r Range) Contains(line int) bool { return line >= r.Start && line <= r.End }

// File is one file of a change. Paths are relative to the repository root with '/'
// separators.
type File struct {
	Path    string // path at the head (for a delete: the deleted path)
	OldPath string // path at the base; equals Path except for renames; empty for creates
	Op      Op

	// Base and Head hold the content; nil on the side where the file does not exist.
	Base []byte
	Head []byte

	// Changed lists the head lines the change added or modified (sorted, disjoint).
	// For a create every line is changed; for a delete it is empty.
	Changed []Range

	// Binary is set when either side holds a NUL byte in its first 8000 bytes (as git
	// decides); binary files get scope checks only.
	Binary bool
	// Symlink is set when the file is a symbolic link; its content is the link target,
	// which is never followed.
	Symlink bool
	// TooLarge is set when a side is over the size limit; its content is then nil and only
	// scope checks run.
	TooLarge bool
	Size     int64 // size in bytes of the larger side
	// Submodule is set when the path is a submodule on either side (a gitlink: git records
	// a commit hash there, shown as the content "Subproject commit HASH"). Its files are
	// another repository's: it gets scope checks, and the content it brings is reported
	// as not verified here.
	Submodule bool
	// SubmoduleDirty is set when the submodule's working tree holds changes no commit of
	// the submodule records.
	SubmoduleDirty bool
}

// DefaultMaxFileSize is the default size over which a file's content is not loaded (the
// policy's limits.max_file_size). Such a file is never passed silently: scope reports it,
// and a file of a verified language is an error (hallucination/unverified-file).
const DefaultMaxFileSize = 5 << 20

// MaxFileSize is DefaultMaxFileSize.
//
// Deprecated: builders take the limit of the policy in force; use DefaultMaxFileSize.
const MaxFileSize = 5 << 20

// Content returns the file's content on side s.
func (f *File) Content(s Side) []byte {
	if s == Base {
		return f.Base
	}
	return f.Head
}

// LineChanged reports whether head line n was added or modified by the change.
func (f *File) LineChanged(n int) bool {
	i := sort.Search(len(f.Changed), func(i int) bool { return f.Changed[i].End >= n })
	return i < len(f.Changed) && f.Changed[i].Contains(n)
}

// Analyzable reports whether the file's head content can be given to a language frontend.
func (f *File) Analyzable() bool {
	return f.Op != Delete && !f.Binary && !f.Symlink && !f.TooLarge && !f.Submodule
}

// Set is a whole change. It is immutable once built: dimensions share it.
type Set struct {
	// Root is the absolute path of the repository root (or, for check mode outside a
	// repository, of the directory checked).
	Root string
	// Files is sorted by Path.
	Files []*File

	// Base and HeadFS give read access to every file of the tree on each side (not only
	// the changed ones), so that a dimension can load a whole package. Base is nil when
	// there is no base (check mode). HeadFS reflects the head of the change: the working
	// tree, the index, or the working tree with in-memory edits applied.
	BaseFS fs.FS
	HeadFS fs.FS

	// BaseRev names the base (a commit hash), empty when there is none.
	BaseRev string
	// Notes say what building the set skipped that a reader should know (a file that
	// vanished while it was read); the report carries them.
	Notes []string
	// NoBase is set in check mode: everything counts as new.
	NoBase bool
	// OnDisk is set when the directory at Root holds the head tree except for the files
	// of the change (the working tree, proposed edits over it), so a tool that reads the
	// disk (a compiler) sees the head once it is given those files. It is not set for the
	// index or a patch, where any file may differ from the disk. A base view keeps it: the
	// base differs from the head only in the files of the change.
	OnDisk bool
	// Ignored, when set, returns those of the given repository-relative paths that git
	// ignores: untracked files an ignore rule matches, on the disk but never in a commit.
	// Builders whose head is the disk (working tree, edits) set it, so a tool that reads
	// the disk can leave such files out of the head, as the commit will.
	Ignored func(ctx context.Context, paths []string) ([]string, error)
}

// SameOnDisk reports whether the disk holds the file at path as the tree being read has
// it: when OnDisk, every file but the change's, so a reader need not read nor compare it.
func (s *Set) SameOnDisk(path string) bool { return s.OnDisk && s.File(path) == nil }

// File returns the file with the given head or base path, or nil.
func (s *Set) File(path string) *File {
	i := sort.Search(len(s.Files), func(i int) bool { return s.Files[i].Path >= path })
	if i < len(s.Files) && s.Files[i].Path == path {
		return s.Files[i]
	}
	for _, f := range s.Files {
		if f.OldPath == path {
			return f
		}
	}
	return nil
}

// Limit marks the files over limit bytes TooLarge and drops their content, for builders
// that load content before they know the policy's limit (patches). Builders call it
// before handing the Set out.
func (s *Set) Limit(limit int64) {
	for _, f := range s.Files {
		if limit > 0 && f.Size > limit && !f.TooLarge {
			f.TooLarge, f.Binary = true, false
			f.Base, f.Head, f.Changed = nil, nil, nil
		}
	}
}

// Sort orders Files by Path; builders call it once before handing the Set out.
func (s *Set) Sort() {
	sort.Slice(s.Files, func(i, j int) bool { return s.Files[i].Path < s.Files[j].Path })
}

// BaseView returns the change seen from its base: HeadFS is the base tree, each file's
// Head is its base content (at its base path) and its Changed lines are the base lines the
// change removed or rewrote. Verifying the view yields what the base already had, so that
// a finding of the change can be told new from pre-existing wherever it lands. The view of
// a change with no base is nil.
func (s *Set) BaseView() *Set {
	if s.NoBase {
		return nil
	}
	v := &Set{Root: s.Root, BaseFS: s.HeadFS, HeadFS: s.BaseFS, OnDisk: s.OnDisk, Ignored: s.Ignored, Files: make([]*File, 0, len(s.Files))}
	for _, f := range s.Files {
		v.Files = append(v.Files, f.reversed())
	}
	v.Sort()
	return v
}

// reversed returns f as seen from its base.
func (f *File) reversed() *File {
	r := *f
	r.Base, r.Head = f.Head, f.Base
	r.Changed = nil
	switch f.Op {
	case Create:
		r.Op, r.OldPath = Delete, f.Path
	case Delete:
		r.Op, r.OldPath = Create, ""
	case Rename:
		r.Path, r.OldPath = f.OldPath, f.Path
	}
	if r.Head != nil && !r.Binary && !r.TooLarge {
		r.Changed = ChangedLines(r.Base, r.Head)
	}
	return &r
}
