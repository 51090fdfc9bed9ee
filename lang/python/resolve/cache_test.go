//go:build cgo

package resolve

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentverify/agentverify/lang/python/syntax"
)

// TestCacheTrees: a content is parsed once while the cache holds it, different contents
// get their own trees, and the trees kept stay within the bound.
func TestCacheTrees(t *testing.T) {
	c, g := NewCache(), syntax.NewGrammar()
	a1, _ := c.Parse(g, []byte("x = 1\n"))
	a2, _ := c.Parse(g, []byte("x = 1\n"))
	b, _ := c.Parse(g, []byte("y = 2\n"))
	if a1 != a2 || a1 == b {
		t.Errorf("same content: %p %p, other content %p; want one tree per content", a1, a2, b)
	}
	big := bytes.Repeat([]byte("x"), maxTreeBytes/8) // one comment
	for i := range 9 {
		src := append(fmt.Appendf(nil, "v%d = 0\n#", i), big...)
		if _, err := c.Parse(g, src); err != nil {
			t.Fatal(err)
		}
	}
	if c.treeBytes > maxTreeBytes || len(c.trees) != len(c.order) {
		t.Errorf("cache holds %d bytes of source in %d trees (%d in order), want at most %d", c.treeBytes, len(c.trees), len(c.order), maxTreeBytes)
	}
	if a3, _ := c.Parse(g, []byte("x = 1\n")); a3 == a1 {
		t.Error("the oldest tree was not evicted")
	}
}

// TestCacheSysPath: the interpreter is asked again only when it or one of its
// directories changed, and a failed answer is not kept.
func TestCacheSysPath(t *testing.T) {
	dir := t.TempDir()
	py := filepath.Join(dir, "python3")
	site := filepath.Join(dir, "site-packages")
	if err := os.WriteFile(py, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(site, 0o755); err != nil {
		t.Fatal(err)
	}
	c, asked := NewCache(), 0
	ask := func() []string { asked++; return []string{site} }
	for range 3 {
		c.sysPath(py, ask)
	}
	if asked != 1 {
		t.Errorf("asked %d times with nothing changed, want 1", asked)
	}
	// Installing a distribution changes site-packages' modification time.
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(site, later, later); err != nil {
		t.Fatal(err)
	}
	if got := c.sysPath(py, ask); asked != 2 || len(got) != 1 || got[0] != site {
		t.Errorf("after an install: asked %d times, got %q; want 2 and [%s]", asked, got, site)
	}
	failed := 0
	fail := func() []string { failed++; return nil }
	c.sysPath(py+"-other", fail)
	c.sysPath(py+"-other", fail)
	if failed != 2 {
		t.Errorf("a failed answer was kept: asked %d times, want 2", failed)
	}
}
