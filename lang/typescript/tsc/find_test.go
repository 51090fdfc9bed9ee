package tsc

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// fakeTsc writes a `tsc` into dir that answers --version with version.
func fakeTsc(t *testing.T, dir, version string) string {
	t.Helper()
	p := filepath.Join(dir, "tsc")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho 'Version "+version+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFindSkipsTooOld: a project's own TypeScript 4 does not hide a TypeScript 5 on
// PATH, and with nothing newer than 4 anywhere the compiler is not installed.
func TestFindSkipsTooOld(t *testing.T) {
	root := project(t, map[string]string{
		"node_modules/typescript/package.json": `{"name": "typescript", "version": "4.9.5"}`,
		"node_modules/typescript/bin/tsc":      "",
	})
	pathDir := t.TempDir()
	t.Setenv(EnvVar, "")
	t.Setenv(EnvVar+"_FALLBACK", "")
	t.Setenv("PATH", pathDir)
	if _, err := Find(root); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("only TypeScript 4: Find = %v, want ErrNotInstalled", err)
	}
	if got := FindOlder(root); got != nil {
		t.Errorf("only TypeScript 4: FindOlder = %s, want none", got.Version)
	}
	fakeTsc(t, pathDir, "5.4.5")
	got, err := Find(root)
	if err != nil || got.Version != "5.4.5" {
		t.Fatalf("TypeScript 4 in the project, 5 on PATH: Find = %v, %v; want 5.4.5", got, err)
	}
	if got := FindOlder(root); got == nil || got.Version != "5.4.5" {
		t.Errorf("TypeScript 4 in the project, 5 on PATH: FindOlder = %v, want 5.4.5", got)
	}
}
