package resolve

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// trim removes records unused for a month and a dead run's leftovers after a day, and
// nothing else.
func TestTrimRecords(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	ages := map[string]time.Duration{
		"fresh.tsbuildinfo":   time.Hour,
		"old.tsbuildinfo":     31 * 24 * time.Hour,
		"run-1.tsbuildinfo":   2 * time.Hour,
		"run-2.tsbuildinfo":   25 * time.Hour,
		"new-3.tsbuildinfo":   25 * time.Hour,
		"month.tsbuildinfo":   29 * 24 * time.Hour,
		"other-file-not-ours": 60 * 24 * time.Hour,
	}
	for name, age := range ages {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	trim(dir, now)
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := []string{"fresh.tsbuildinfo", "month.tsbuildinfo", "other-file-not-ours", "run-1.tsbuildinfo"}
	if !slices.Equal(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
}
