package pathenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHideOneProgram: a program hidden is not found; one beside it in the same directory
// still is.
func TestHideOneProgram(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"tool-a", "tool-b"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(filepath.ListSeparator)+os.Getenv("PATH"))
	Hide(t, "tool-a")
	if _, err := exec.LookPath("tool-a"); err == nil {
		t.Error("tool-a still found")
	}
	if p, err := exec.LookPath("tool-b"); err != nil || !strings.HasSuffix(p, "tool-b") {
		t.Errorf("tool-b beside it lost: %v", err)
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Errorf("sh lost: %v", err)
	}
}
