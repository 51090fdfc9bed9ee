// Package regular reads files of a working tree without ever blocking or leaving it: only
// regular files are read (a named pipe, socket or device named x.go is an error, never a
// hang), every open is non-blocking, and the file system over a directory refuses paths
// that leave it through a symbolic link.
package regular

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
)

// ErrNotRegular is wrapped by the errors for files that are neither regular files nor
// directories.
var ErrNotRegular = errors.New("not a regular file")

// Kind names what a file mode describes, for messages: "named pipe", "socket", ….
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsDir():
		return "directory"
	case m.IsRegular():
		return "regular file"
	}
	return "special file"
}

// Special reports whether m is neither a regular file, a directory nor a symbolic link.
func Special(m fs.FileMode) bool {
	return m&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice|fs.ModeCharDevice|fs.ModeIrregular) != 0
}

// NotRegularError is the error for the file name of mode m.
func NotRegularError(name string, m fs.FileMode) error {
	return fmt.Errorf("%s: is a %s, %w: agentverify reads only regular files and cannot verify it (remove it)", name, Kind(m), ErrNotRegular)
}

// CheckDir fails when the directory dir holds an entry whose name ends in suffix and that
// is a named pipe, socket or device (display names dir in the error): a toolchain loading
// the directory as a package would block on it. A directory that does not exist passes.
func CheckDir(dir, display, suffix string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, e := range ents {
		if Special(e.Type()) && strings.HasSuffix(e.Name(), suffix) {
			return NotRegularError(path.Join(display, e.Name()), e.Type())
		}
	}
	return nil
}

// Open opens the regular file name for reading, following symbolic links, without
// blocking; anything that is not a regular file is an error wrapping ErrNotRegular.
func Open(name string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = NotRegularError(name, fi.Mode())
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadFile reads the regular file name, following symbolic links. A file over limit bytes
// (limit > 0) is not read: data is nil and size says how large it is. Anything that is not
// a regular file is an error wrapping ErrNotRegular, found without blocking.
func ReadFile(name string, limit int64) (data []byte, size int64, err error) {
	f, fi, err := Open(name)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	if limit > 0 && fi.Size() > limit {
		return nil, fi.Size(), nil
	}
	r := io.Reader(f)
	if limit > 0 {
		r = io.LimitReader(f, limit+1) // a file that grows while read stays bounded
	}
	data, err = io.ReadAll(r)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	if limit > 0 && int64(len(data)) > limit {
		return nil, int64(len(data)), nil
	}
	return data, int64(len(data)), nil
}

// FS is a read-only file system over a directory: opens are non-blocking, only regular
// files and directories open, and paths that leave the directory (through "..", or a
// symbolic link pointing outside) are refused.
type FS struct {
	root *os.Root
}

// NewFS returns the file system over dir.
func NewFS(dir string) (*FS, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &FS{root: r}, nil
}

// Open implements fs.FS.
func (s *FS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := s.root.OpenFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: NotRegularError(name, fi.Mode())}
	}
	return f, nil
}

// Stat implements fs.StatFS without opening the file.
func (s *FS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	return s.root.Stat(name)
}
