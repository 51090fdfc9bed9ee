package resultcache

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func key(s string) Key { return sha256.Sum256([]byte(s)) }

func open(t *testing.T, opts Options) *Cache {
	t.Helper()
	c, err := Open(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestGetPut(t *testing.T) {
	c := open(t, Options{})
	if _, ok := c.Get(key("a")); ok {
		t.Fatal("hit in an empty cache")
	}
	for _, payload := range [][]byte{nil, []byte("x"), []byte("line\nbreaks\n\nand more")} {
		if err := c.Put(key("a"), payload); err != nil {
			t.Fatal(err)
		}
		got, ok := c.Get(key("a"))
		if !ok || !bytes.Equal(got, payload) {
			t.Errorf("Get = %q, %v; want %q", got, ok, payload)
		}
	}
	if _, ok := c.Get(key("b")); ok {
		t.Error("hit for a key never stored")
	}
}

// TestCorruptEntries: an entry that is not exactly what Put wrote for its key is a miss,
// and is removed.
func TestCorruptEntries(t *testing.T) {
	c := open(t, Options{})
	k := key("a")
	good := encode(k, []byte("payload"))
	for name, data := range map[string][]byte{
		"empty":          nil,
		"torn":           good[:len(good)-3],
		"flipped byte":   append(bytes.Clone(good[:len(good)-1]), 'X'),
		"another key":    encode(key("b"), []byte("payload")),
		"another format": append([]byte("agentverify-result 0\n"), good[len(header):]...),
	} {
		if err := os.MkdirAll(filepath.Dir(c.path(k)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(c.path(k), data, 0o600); err != nil {
			t.Fatal(err)
		}
		if got, ok := c.Get(k); ok {
			t.Errorf("%s: trusted, payload %q", name, got)
		}
		if _, err := os.Stat(c.path(k)); err == nil {
			t.Errorf("%s: not removed", name)
		}
	}
}

// TestConcurrent: writers and readers of the same keys never see a partial entry.
func TestConcurrent(t *testing.T) {
	c := open(t, Options{})
	payload := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%4)}, 64<<10) }
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				k := key(fmt.Sprint(i % 4))
				if g%2 == 0 {
					if err := c.Put(k, payload(i)); err != nil {
						t.Error(err)
					}
					continue
				}
				if got, ok := c.Get(k); ok && !bytes.Equal(got, payload(i%4)) {
					t.Errorf("partial or mixed entry of %d bytes", len(got))
				}
			}
		}()
	}
	wg.Wait()
	leftovers, _ := filepath.Glob(filepath.Join(c.Dir(), "*", ".tmp-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// TestTrim removes the least recently used entries once the store is over its bound, at
// most once per trimEvery.
func TestTrim(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := open(t, Options{MaxBytes: 10 << 10, Now: func() time.Time { return now }})
	for i := range 8 {
		k := key(fmt.Sprint(i))
		if err := c.Put(k, make([]byte, 2<<10)); err != nil {
			t.Fatal(err)
		}
		at := now.Add(time.Duration(i-10) * time.Hour) // entry 0 is the oldest
		if err := os.Chtimes(c.path(k), at, at); err != nil {
			t.Fatal(err)
		}
	}
	stale := filepath.Join(filepath.Dir(c.path(key("0"))), ".tmp-dead")
	if err := os.WriteFile(stale, []byte("half an entry"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(stale, now.Add(-2*time.Hour), now.Add(-2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(key("0")); !ok { // a hit refreshes the oldest entry
		t.Fatal("miss")
	}
	if err := c.Trim(); err != nil {
		t.Fatal(err)
	}
	st, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Bytes > 10<<10*3/4 {
		t.Errorf("after Trim: %d bytes, over three quarters of the bound", st.Bytes)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a dead writer's temporary file survived Trim")
	}
	for i, want := range map[int]bool{0: true, 1: false, 2: false, 7: true} {
		if _, ok := c.Get(key(fmt.Sprint(i))); ok != want {
			t.Errorf("entry %d kept = %v, want %v", i, ok, want)
		}
	}
	if err := c.Put(key("big"), make([]byte, 20<<10)); err != nil {
		t.Fatal(err)
	}
	if err := c.Trim(); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(key("big")); !ok {
		t.Error("a second Trim within the hour walked the store")
	}
}

func TestClean(t *testing.T) {
	c := open(t, Options{})
	for i := range 5 {
		if err := c.Put(key(fmt.Sprint(i)), []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	other := filepath.Join(c.Dir(), "README")
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := c.Clean(); err != nil {
		t.Fatal(err)
	}
	if st, _ := c.Stats(); st.Entries != 0 {
		t.Errorf("%d entries after Clean", st.Entries)
	}
	if _, err := os.Stat(other); err != nil {
		t.Error("Clean removed a file that is no entry")
	}
}

func TestDefaultDir(t *testing.T) {
	got, err := DefaultDir(func(k string) string {
		if k == EnvDir {
			return "/tmp/x"
		}
		return ""
	})
	if err != nil || got != "/tmp/x" {
		t.Errorf("DefaultDir = %q, %v", got, err)
	}
}

// FuzzDecode: an entry file is outside input (any process of the user may write it):
// decoding never panics, and yields a payload only for exactly what encode wrote.
func FuzzDecode(f *testing.F) {
	f.Add(encode(key("a"), []byte("payload")))
	f.Add([]byte(header))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		payload, ok := decode(key("a"), data)
		if ok && !bytes.Equal(encode(key("a"), payload), data) {
			t.Errorf("accepted %q, which encode does not write", data)
		}
	})
}

func BenchmarkGet(b *testing.B) {
	c, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Put(key("a"), make([]byte, 512)); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, ok := c.Get(key("a")); !ok {
			b.Fatal("miss")
		}
	}
}
