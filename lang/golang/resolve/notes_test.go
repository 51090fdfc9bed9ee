package resolve

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A file outside the repository is read once while it stays as it was, and again once
// it changes; a nil Notes reads every time.
func TestNotesKeptWhileUnchanged(t *testing.T) {
	file := filepath.Join(t.TempDir(), "dep.go")
	if err := os.WriteFile(file, []byte("package dep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reads := 0
	read := func(string) map[int]string { reads++; return map[int]string{3: "Deprecated: use G."} }
	n := NewNotes()
	for range 3 {
		if got := n.get(file, read); got[3] != "Deprecated: use G." {
			t.Fatalf("notes = %v", got)
		}
	}
	if reads != 1 {
		t.Errorf("read %d times, want once", reads)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
	n.get(file, read)
	if reads != 2 {
		t.Errorf("a changed file was not read again (%d reads)", reads)
	}
	var none *Notes
	none.get(file, read)
	none.get(file, read)
	if reads != 4 {
		t.Errorf("a nil Notes kept notes (%d reads)", reads)
	}
}
