package pydeps

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakePython writes an executable shell script standing for an interpreter.
func fakePython(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "python3")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSysPathFailures: an interpreter that fails, hangs, or is stopped by the end of the
// verification is an error saying which, never an empty environment (every import would
// then be "not installed").
func TestSysPathFailures(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name, body string
		ctx        context.Context
		want       []string
		wantCtx    bool
	}{
		{"fails", "echo 'Fatal Python error: init_fs_encoding' >&2\nexit 1", context.Background(),
			[]string{"failed to print its sys.path", "exit status 1: Fatal Python error: init_fs_encoding", "-c 'import sys; print(sys.path)'` answers"}, false},
		{"hangs", "exec sleep 5", context.Background(),
			[]string{"did not print its sys.path within 100ms", "overloaded", "-c 'import sys; print(sys.path)'` answers"}, false},
		{"verification ended", "exec sleep 5", cancelled, []string{"asking", "context canceled"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			py := fakePython(t, c.body)
			l := Locator{Getenv: func(string) string { return "" }, Python: py, wait: 100 * time.Millisecond}
			start := time.Now()
			_, dirs, err := l.Locate(c.ctx, t.TempDir())
			if err == nil {
				t.Fatalf("Locate = %v, nil; want an error", dirs)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if got := errors.Is(err, context.Canceled); got != c.wantCtx {
				t.Errorf("errors.Is(%v, context.Canceled) = %v, want %v", err, got, c.wantCtx)
			}
			if d := time.Since(start); d > 4*time.Second {
				t.Errorf("Locate took %v: the time-out did not stop the interpreter", d)
			}
		})
	}
}
