//go:build unix

package gitchange

import (
	"io"
	"io/fs"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/agentverify/agentverify/change/regular"
)

// hashRegular hashes the regular file full with bare system calls — open (non-blocking),
// fstat, read, close — and none of the poller set-up an os.File costs: the scan hashes
// every file of the working tree, so this is its hot path.
func hashRegular(full, rel string, buf []byte) (hash plumbing.Hash, size int64, exec bool, err error) {
	var fd int
	for {
		fd, err = syscall.Open(full, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return plumbing.ZeroHash, 0, false, &fs.PathError{Op: "open", Path: full, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return plumbing.ZeroHash, 0, false, &fs.PathError{Op: "stat", Path: full, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return plumbing.ZeroHash, 0, false, regular.NotRegularError(rel, modeOf(uint32(st.Mode)))
	}
	hash, err = hashStream(fdReader(fd), st.Size, rel, buf)
	return hash, st.Size, st.Mode&0o111 != 0, err
}

// fdReader reads a file descriptor.
type fdReader int

func (r fdReader) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(int(r), p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// modeOf is the fs.FileMode type of a stat mode, for messages.
func modeOf(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFDIR:
		return fs.ModeDir
	}
	return fs.ModeIrregular
}
