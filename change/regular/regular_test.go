//go:build unix

package regular_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentverify/agentverify/change/regular"
)

// within fails the test when f does not return in time: the property under test is
// that nothing blocks.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("blocked for 5s")
	}
}

func TestFIFOIsAnErrorNotAHang(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "x.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	os.Symlink("x.go", filepath.Join(dir, "link.go"))
	within(t, func() {
		for _, name := range []string{fifo, filepath.Join(dir, "link.go")} {
			_, _, err := regular.ReadFile(name, 0)
			if !errors.Is(err, regular.ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
				t.Errorf("ReadFile(%s): %v, want a named-pipe error", name, err)
			}
		}
		fsys, err := regular.NewFS(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"x.go", "link.go"} {
			if _, err := fs.ReadFile(fsys, name); !errors.Is(err, regular.ErrNotRegular) {
				t.Errorf("fs.ReadFile(%s): %v, want ErrNotRegular", name, err)
			}
		}
		if fi, err := fs.Stat(fsys, "x.go"); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("Stat: %v %v, want the pipe's info", fi, err)
		}
	})
}

func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.go")
	os.WriteFile(p, []byte("0123456789"), 0o644)
	tests := []struct {
		limit    int64
		wantData bool
	}{{0, true}, {10, true}, {9, false}}
	for _, tt := range tests {
		data, size, err := regular.ReadFile(p, tt.limit)
		if err != nil || size != 10 || (data != nil) != tt.wantData {
			t.Errorf("limit %d: data %q size %d err %v", tt.limit, data, size, err)
		}
	}
}

func TestFSStaysInside(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644)
	dir := t.TempDir()
	os.Symlink(outside, filepath.Join(dir, "out"))
	os.WriteFile(filepath.Join(dir, "in.go"), []byte("package p"), 0o644)
	fsys, err := regular.NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadFile(fsys, "out/secret"); err == nil {
		t.Error("read through a symbolic link leaving the directory")
	}
	if _, err := fs.ReadFile(fsys, "../x"); err == nil {
		t.Error("read ../x")
	}
	if b, err := fs.ReadFile(fsys, "in.go"); err != nil || string(b) != "package p" {
		t.Errorf("in.go: %q %v", b, err)
	}
	if ents, err := fs.ReadDir(fsys, "."); err != nil || len(ents) != 2 {
		t.Errorf("ReadDir: %v %v", ents, err)
	}
}
