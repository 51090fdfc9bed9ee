package load

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// A long-lived loader (the shared server, design.md §9) must never answer from a stale
// snapshot, whatever happens to the files behind its back: an editor that keeps the size
// and restores the modification time, a git checkout that reverts, files added and
// deleted. So dependency directories are identified by the content of their Go files,
// and the file system's stat data only says when the content need not be read again:
// when size, modification time, change time and inode are what they were when the
// content was hashed, and that was long enough after the last change for the timestamps
// to tell two writes apart (git's "racily clean" rule).

// racyWindow is how old a file's last change must be, when its content is hashed, for
// its stat data to identify that content later: coarser than any file system's timestamp
// granularity.
const racyWindow = time.Second

// stampCache remembers the content hash of files by their stat data.
type stampCache struct {
	mu    sync.Mutex
	files map[string]stamp
}

type stamp struct {
	stat    statKey
	sum     [sha256.Size]byte
	trusted bool // the stat data identifies the content (see racyWindow)
}

func newStampCache() *stampCache { return &stampCache{files: map[string]stamp{}} }

// sum returns the content hash of the file at path, whose stat data is fi. changed
// reports whether the file changed at or after since (the start of the load whose
// snapshot is being recorded): that snapshot may hold either content.
func (c *stampCache) sum(path string, fi os.FileInfo, since time.Time) (sum [sha256.Size]byte, changed bool, err error) {
	key := statKeyOf(fi)
	last := key.lastChange()
	// A change after the load started may have come after go list read the file. One
	// before it cannot have, even with a timestamp a clock tick coarse: that tick is
	// earlier than the write, and so than the start.
	changed = !since.IsZero() && last.After(since)
	c.mu.Lock()
	st, ok := c.files[path]
	c.mu.Unlock()
	if ok && st.trusted && st.stat == key && key.complete() {
		return st.sum, changed, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return sum, changed, err
	}
	sum = sha256.Sum256(b)
	c.mu.Lock()
	c.files[path] = stamp{stat: key, sum: sum, trusted: time.Since(last) > racyWindow}
	c.mu.Unlock()
	return sum, changed, nil
}

// fingerprint identifies the Go files of dir, by name and content, on disk and in the
// overlay. It is "" — equal to no later fingerprint — when a file changed during the load
// that started at since (zero: no load), or could not be read.
func (c *stampCache) fingerprint(dir string, overlay map[string][]byte, since time.Time) string {
	h := sha256.New()
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".go") || e.IsDir() {
				continue
			}
			path := filepath.Join(dir, e.Name())
			if _, over := overlay[path]; over {
				continue // the overlay's content is the one checked
			}
			info, err := e.Info()
			if err != nil {
				return ""
			}
			sum, changed, err := c.sum(path, info, since)
			if err != nil || changed {
				return ""
			}
			fmt.Fprintf(h, "d %s %x\n", e.Name(), sum)
		}
	}
	var over []string
	for p := range overlay {
		if filepath.Dir(p) == dir {
			over = append(over, p)
		}
	}
	sort.Strings(over)
	for _, p := range over {
		fmt.Fprintf(h, "o %s %x\n", filepath.Base(p), sha256.Sum256(overlay[p]))
	}
	return hex.EncodeToString(h.Sum(nil))
}
