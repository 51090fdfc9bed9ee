package pydeps

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestCache(t *testing.T) {
	root := t.TempDir()
	site := filepath.Join(root, ".venv", "lib", "python3.12", "site-packages")
	if err := os.MkdirAll(site, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".venv", "pyvenv.cfg"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	l := Locator{Getenv: func(string) string { return "" }, Python: "agentverify-no-python"}
	var c Cache
	first, err := c.Env(t.Context(), l, root)
	if err != nil || first.Installed("six") != nil {
		t.Fatalf("Env = %v, %v", first, err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if again, err := c.Env(t.Context(), l, root); err != nil || again != first {
				t.Errorf("unchanged environment not reused: %p %p %v", again, first, err)
			}
		})
	}
	wg.Wait()
	// Installing a distribution changes site-packages; the next call sees it.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(site, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Env(t.Context(), l, root); err != nil {
		t.Fatal(err)
	}
	meta := filepath.Join(site, "six-1.16.0.dist-info")
	if err := os.MkdirAll(meta, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(meta, "METADATA"), []byte("Name: six\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if env, err := c.Env(t.Context(), l, root); err != nil || env.Installed("six") == nil {
		t.Errorf("after an install: six installed = %v (err %v)", env.Installed("six") != nil, err)
	}
}
