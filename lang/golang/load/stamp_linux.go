package load

import (
	"os"
	"syscall"
	"time"
)

// statKey is the stat data that identifies a file's content (with git's racy rule).
type statKey struct {
	size, ino    int64
	mtime, ctime int64 // UnixNano
	dev          uint64
}

func statKeyOf(fi os.FileInfo) statKey {
	k := statKey{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		k.ino, k.dev = int64(st.Ino), uint64(st.Dev)
		k.ctime = st.Ctim.Nano()
	}
	return k
}

// complete reports whether the key has the change time: without it, an edit that keeps
// the size and restores the modification time would go unseen.
func (k statKey) complete() bool { return k.ctime != 0 }

// lastChange is the later of the modification and change times.
func (k statKey) lastChange() time.Time { return time.Unix(0, max(k.mtime, k.ctime)) }
