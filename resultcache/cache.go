// Package resultcache is a content-addressed store of verification results on the disk,
// in the manner of the Go build cache (cmd/go/internal/cache): an entry is named by the
// hash of everything its result depends on, so an entry is never stale, only unused. The
// store is shared by concurrent processes: writes go to a temporary file renamed into
// place, so a reader sees a whole entry or none, and every entry carries its key and the
// hash of its payload, so a torn or tampered file reads as a miss, never as a result.
// Unused entries are trimmed by age (modification time) once the store outgrows its bound.
package resultcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Key names an entry: the SHA-256 of everything the entry's result depends on.
type Key [sha256.Size]byte

// String returns the key in hexadecimal.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// EnvDir is the environment variable that overrides the cache directory.
const EnvDir = "AGENTVERIFY_CACHE_DIR"

// DefaultMaxBytes bounds the store when Options.MaxBytes is 0.
const DefaultMaxBytes = 256 << 20

// header starts every entry; a new format changes it, which turns old entries into misses.
const header = "agentverify-result 1\n"

// suffix ends the name of every entry file, so trimming never removes anything else.
const suffix = "-r"

// touchAfter is how stale an entry's modification time may get before a hit refreshes
// it: trimming is by age, and refreshing on every hit would write on every read.
const touchAfter = time.Hour

// trimEvery is how often a store is walked to enforce its bound.
const trimEvery = time.Hour

// Cache is a result store in one directory. It is safe for concurrent use, within and
// between processes.
type Cache struct {
	dir      string
	maxBytes int64
	now      func() time.Time
}

// Options configure Open.
type Options struct {
	// MaxBytes bounds the entries' total size; 0 means DefaultMaxBytes.
	MaxBytes int64
	// Now is the clock for modification times; default time.Now.
	Now func() time.Time
}

// DefaultDir returns the directory of the user's result cache: $AGENTVERIFY_CACHE_DIR
// when set (getenv reads the environment), else agentverify/results in the user cache
// directory.
func DefaultDir(getenv func(string) string) (string, error) {
	if d := getenv(EnvDir); d != "" {
		return filepath.Abs(d)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("locating the result cache: %w", err)
	}
	return filepath.Join(base, "agentverify", "results"), nil
}

// Open returns the store in dir, creating the directory (private to the user) if needed.
func Open(dir string, opts Options) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("opening the result cache: %w", err)
	}
	c := &Cache{dir: dir, maxBytes: opts.MaxBytes, now: opts.Now}
	if c.maxBytes <= 0 {
		c.maxBytes = DefaultMaxBytes
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c, nil
}

// Dir returns the store's directory.
func (c *Cache) Dir() string { return c.dir }

func (c *Cache) path(k Key) string {
	s := k.String()
	return filepath.Join(c.dir, s[:2], s+suffix)
}

// Get returns the payload stored under k. A missing, torn or corrupt entry is a miss; a
// corrupt one is removed so that the next Put replaces it.
func (c *Cache) Get(k Key) ([]byte, bool) {
	p := c.path(k)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	payload, ok := decode(k, data)
	if !ok {
		_ = os.Remove(p)
		return nil, false
	}
	if fi, err := os.Stat(p); err == nil && c.now().Sub(fi.ModTime()) > touchAfter {
		now := c.now()
		_ = os.Chtimes(p, now, now)
	}
	return payload, true
}

// Put stores payload under k. The entry appears whole or not at all: it is written to a
// temporary file in the same directory and renamed into place, so concurrent readers and
// writers of the same key never see a partial entry (both writers write the same bytes).
func (c *Cache) Put(k Key, payload []byte) error {
	p := c.path(k)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("writing a result cache entry: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("writing a result cache entry: %w", err)
	}
	_, werr := tmp.Write(encode(k, payload))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("writing a result cache entry: %w", err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("writing a result cache entry: %w", err)
	}
	return nil
}

// encode frames payload: the header, the key, the payload's hash, then the payload.
func encode(k Key, payload []byte) []byte {
	sum := sha256.Sum256(payload)
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString(k.String())
	b.WriteByte('\n')
	b.WriteString(hex.EncodeToString(sum[:]))
	b.WriteByte('\n')
	b.Write(payload)
	return b.Bytes()
}

// decode returns the payload of an entry framed by encode for key k.
func decode(k Key, data []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(header))
	if !ok {
		return nil, false
	}
	key, rest, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok || string(key) != k.String() {
		return nil, false
	}
	sum, payload, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return nil, false
	}
	want := sha256.Sum256(payload)
	if string(sum) != hex.EncodeToString(want[:]) {
		return nil, false
	}
	return payload, true
}

// Stats describe a store.
type Stats struct {
	Entries int
	Bytes   int64
}

type entry struct {
	path  string
	size  int64
	mtime time.Time
}

// entries lists the store's entry files.
func (c *Cache) entries() ([]entry, error) {
	var out []entry
	err := filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), suffix) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil // removed meanwhile by a concurrent trim
		}
		out = append(out, entry{p, fi.Size(), fi.ModTime()})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the result cache: %w", err)
	}
	return out, nil
}

// Stats counts the store's entries and their size.
func (c *Cache) Stats() (Stats, error) {
	es, err := c.entries()
	var s Stats
	for _, e := range es {
		s.Entries++
		s.Bytes += e.size
	}
	return s, err
}

// Trim removes the least recently used entries until the store is within three quarters
// of its bound. It walks the store at most once per trimEvery (a marker file records the
// last walk), so calling it after every run is cheap.
func (c *Cache) Trim() error {
	marker := filepath.Join(c.dir, "trim.txt")
	if fi, err := os.Stat(marker); err == nil && c.now().Sub(fi.ModTime()) < trimEvery {
		return nil
	}
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		return fmt.Errorf("trimming the result cache: %w", err)
	}
	now := c.now()
	_ = os.Chtimes(marker, now, now)
	c.removeStaleTemps()
	return c.trimTo(c.maxBytes * 3 / 4)
}

// removeStaleTemps removes the temporary files of writers that died before their rename
// (a live writer renames within milliseconds).
func (c *Cache) removeStaleTemps() {
	temps, _ := filepath.Glob(filepath.Join(c.dir, "*", ".tmp-*"))
	for _, p := range temps {
		if fi, err := os.Stat(p); err == nil && c.now().Sub(fi.ModTime()) > trimEvery {
			_ = os.Remove(p)
		}
	}
}

// trimTo removes the oldest entries until at most limit bytes remain, if the store is
// over its bound.
func (c *Cache) trimTo(limit int64) error {
	es, err := c.entries()
	if err != nil {
		return err
	}
	var total int64
	for _, e := range es {
		total += e.size
	}
	if total <= c.maxBytes {
		return nil
	}
	sort.Slice(es, func(i, j int) bool { return es[i].mtime.Before(es[j].mtime) })
	for _, e := range es {
		if total <= limit {
			break
		}
		if err := os.Remove(e.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= e.size
		}
	}
	return nil
}

// Clean removes every entry (and leftover temporary file) of the store.
func (c *Cache) Clean() error {
	des, err := os.ReadDir(c.dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("cleaning the result cache: %w", err)
	}
	var errs []error
	for _, d := range des {
		if d.IsDir() && len(d.Name()) == 2 || d.Name() == "trim.txt" {
			errs = append(errs, os.RemoveAll(filepath.Join(c.dir, d.Name())))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("cleaning the result cache: %w", err)
	}
	return nil
}
