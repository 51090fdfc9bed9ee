// Package memfs holds the in-memory fs.File and fs.DirEntry values that the virtual file
// systems of change sets (git trees, the index, proposed edits) hand out.
package memfs

import (
	"errors"
	"io"
	"io/fs"
	"sort"
	"time"
)

// File is an open in-memory file.
type File struct {
	name string
	data []byte
	off  int
}

// NewFile returns an open file named name (a base name) holding data.
func NewFile(name string, data []byte) *File { return &File{name: name, data: data} }

// Stat implements fs.File.
func (f *File) Stat() (fs.FileInfo, error) { return info{f.name, int64(len(f.data)), 0o644}, nil }

// Close implements fs.File.
func (f *File) Close() error { return nil }

// Read implements fs.File.
func (f *File) Read(b []byte) (int, error) {
	if f.off >= len(f.data) {
		return 0, io.EOF
	}
	n := copy(b, f.data[f.off:])
	f.off += n
	return n, nil
}

// Dir is an open in-memory directory.
type Dir struct {
	name    string
	entries []fs.DirEntry
	off     int
}

// NewDir returns an open directory named name with the given entries, sorted by name.
func NewDir(name string, entries []fs.DirEntry) *Dir {
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return &Dir{name: name, entries: entries}
}

// Stat implements fs.File.
func (d *Dir) Stat() (fs.FileInfo, error) { return info{d.name, 0, fs.ModeDir | 0o755}, nil }

// Close implements fs.File.
func (d *Dir) Close() error { return nil }

// Read implements fs.File; a directory cannot be read.
func (d *Dir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errors.New("is a directory")}
}

// ReadDir implements fs.ReadDirFile.
func (d *Dir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.off:]
	if n <= 0 {
		d.off = len(d.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.off += n
	return rest[:n], nil
}

// FileEntry is the directory entry of a file of the given size.
func FileEntry(name string, size int64) fs.DirEntry {
	return fs.FileInfoToDirEntry(info{name, size, 0o644})
}

// DirEntry is the directory entry of a directory.
func DirEntry(name string) fs.DirEntry {
	return fs.FileInfoToDirEntry(info{name, 0, fs.ModeDir | 0o755})
}

type info struct {
	name string
	size int64
	mode fs.FileMode
}

func (i info) Name() string       { return i.name }
func (i info) Size() int64        { return i.size }
func (i info) Mode() fs.FileMode  { return i.mode }
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return i.mode.IsDir() }
func (i info) Sys() any           { return nil }
