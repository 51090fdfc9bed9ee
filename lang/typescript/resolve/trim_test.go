package resolve

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/tsc"
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

// A verification to be computed afresh (--no-cache) runs the compiler without a record:
// none is read, set in its options or kept.
func TestFreshKeepsNoRecord(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("AGENTVERIFY_CACHE_DIR", cache)
	for _, fresh := range []bool{true, false} {
		j := &job{req: &lang.Request{Changes: &change.Set{Root: t.TempDir()}, Fresh: fresh}}
		w := map[string]any{"compilerOptions": map[string]any{}, "files": []string{"a.ts"}}
		bi := j.incremental(&tsc.Tool{Exe: "tsc", Version: "7.0.2"}, j.req.Changes.Root, false, w, &group{})
		_, set := w["compilerOptions"].(map[string]any)["incremental"]
		if (bi != nil) == fresh || set == fresh {
			t.Errorf("fresh %v: record %v, incremental option set %v", fresh, bi, set)
		}
		if bi != nil {
			os.Remove(bi.work)
		}
		if fresh {
			if entries, _ := os.ReadDir(filepath.Join(cache, "tsc")); len(entries) > 0 {
				t.Errorf("a fresh verification left %d files in the record directory", len(entries))
			}
		}
	}
}
