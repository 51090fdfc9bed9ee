package load

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
)

// TestWarmNeverStale changes a module behind a warm loader's back, on the disk (as
// another editor, git or a build would), and requires every later check to report what a
// fresh loader reports: a long-lived server must never answer from a stale cache. Each
// case starts from a module whose app package calls dep.Answer, warmed by a first check.
func TestWarmNeverStale(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	const app = "package app\n\nimport \"example.com/dep\"\n\nfunc F() int { return dep.Answer() }\n"
	const dep = "package dep\n\n// Answer is the answer.\nfunc Answer() int { return 42 }\n"
	// layouts put package dep in the module itself, in a module it replaces with a local
	// directory, and in another module of a go.work workspace.
	layouts := map[string]map[string]string{
		"in module": {
			"m/go.mod": "module example.com\n\ngo 1.22\n", "m/app/app.go": app, "m/dep/dep.go": dep,
		},
		"local replace": {
			"m/go.mod":     "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n",
			"m/app/app.go": app, "dep/go.mod": "module example.com/dep\n\ngo 1.22\n", "dep/dep.go": dep,
		},
		"workspace": {
			"go.work":  "go 1.22\n\nuse (\n\t./m\n\t./dep\n)\n",
			"m/go.mod": "module example.com/m\n\ngo 1.22\n", "m/app/app.go": app,
			"dep/go.mod": "module example.com/dep\n\ngo 1.22\n", "dep/dep.go": dep,
		},
	}
	renamed := strings.Replace(dep, "Answer() int", "Extra()  int", 1) // same size
	changes := []struct {
		name   string
		change func(t *testing.T, depFile string)
	}{
		{"edited keeping size and modification time", func(t *testing.T, depFile string) {
			fi, _ := os.Stat(depFile)
			write(t, depFile, renamed)
			os.Chtimes(depFile, fi.ModTime(), fi.ModTime())
		}},
		{"edited", func(t *testing.T, depFile string) { write(t, depFile, renamed+"\n") }},
		{"file added", func(t *testing.T, depFile string) {
			write(t, depFile, renamed)
			write(t, filepath.Join(filepath.Dir(depFile), "more.go"), "package dep\n\nfunc Answer() int { return 1 }\n")
		}},
		{"file deleted", func(t *testing.T, depFile string) { os.Remove(depFile) }},
	}
	// -short runs one case in three: each layout and each change once.
	for li, name := range slices.Sorted(maps.Keys(layouts)) {
		files := layouts[name]
		depDir := "dep"
		if name == "in module" {
			depDir = "m/dep"
		}
		t.Run(name, func(t *testing.T) {
			t.Setenv("GOWORK", "")
			if name != "workspace" {
				t.Setenv("GOWORK", "off")
			}
			for ci, c := range changes {
				t.Run(c.name, func(t *testing.T) {
					shorttest.Sample(t, li*len(changes)+ci, 3)
					t.Parallel()
					root := writeModule(t, files)
					mod, appFile := filepath.Join(root, "m"), filepath.Join(root, "m", "app", "app.go")
					req := Request{Dir: mod, Files: []string{appFile}}
					warm := New(Options{})
					check(t, warm, req)
					c.change(t, filepath.Join(root, depDir, "dep.go"))
					got := check(t, warm, req)
					want := check(t, New(Options{}), req)
					if !slices.Equal(got, want) {
						t.Errorf("warm loader: %q\nfresh loader: %q", got, want)
					}
					// And once more, now that the warm loader has seen the change.
					if got := check(t, warm, req); !slices.Equal(got, want) {
						t.Errorf("warm loader, again: %q\nfresh loader: %q", got, want)
					}
				})
			}
		})
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func check(t *testing.T, l *Loader, req Request) []string {
	t.Helper()
	res, err := l.Check(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return msgs(res)
}

// TestFingerprint pins what identifies a dependency directory: the names and content of
// its Go files, not their timestamps; and a file changed after a load started makes the
// directory match nothing, since the load may have read either content.
func TestFingerprint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := filepath.Join(dir, "a.go")
	write(t, a, "package a\n")
	write(t, filepath.Join(dir, "notes.txt"), "x")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(a, old, old)
	c := newStampCache()
	ref := c.fingerprint(dir, nil, time.Time{})
	steps := []struct {
		name   string
		change func()
		same   bool
	}{
		{"nothing", func() {}, true},
		{"touched", func() { now := time.Now(); os.Chtimes(a, now, now) }, true},
		{"rewritten with the same content", func() { write(t, a, "package a\n") }, true},
		{"a file that is not Go", func() { write(t, filepath.Join(dir, "notes.txt"), "y") }, true},
		{"same size, time restored", func() { write(t, a, "package b\n"); os.Chtimes(a, old, old) }, false},
		{"reverted", func() { write(t, a, "package a\n") }, true},
		{"file added", func() { write(t, filepath.Join(dir, "b.go"), "package a\n") }, false},
		{"file removed", func() { os.Remove(filepath.Join(dir, "b.go")) }, true},
	}
	for _, s := range steps {
		s.change()
		for _, cache := range []*stampCache{c, newStampCache()} {
			if got := cache.fingerprint(dir, nil, time.Time{}); (got == ref) != s.same {
				t.Errorf("%s: same=%t, want %t", s.name, got == ref, s.same)
			}
		}
	}
	if got := c.fingerprint(dir, map[string][]byte{a: []byte("package z\n")}, time.Time{}); got == ref {
		t.Error("overlaid content: same fingerprint as the disk's")
	}
	if got := c.fingerprint(dir, nil, time.Now().Add(-time.Minute)); got != "" {
		t.Errorf("file changed after the load started: fingerprint %q, want none", got)
	}
}

// TestSnapshotsPerPackage: a loader keeps the last few loads, so an agent that moves
// between packages finds each warm; and a package no snapshot holds, edited in memory,
// is loaded from the disk (export data) and re-checked warm, not loaded from source.
func TestSnapshotsPerPackage(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	dir := writeModule(t, module)
	l := New(Options{})
	app, auth := filepath.Join(dir, "app", "app.go"), filepath.Join(dir, "auth", "auth.go")
	edit := func(path, content string) Request {
		return Request{Dir: dir, Files: []string{path}, Overlay: map[string][]byte{path: []byte(content)}}
	}
	steps := []struct {
		req         Request
		cold, warm  int
		wantWarm    bool
		errContains string
	}{
		{Request{Dir: dir, Files: []string{app}}, 1, 0, false, ""},
		{edit(auth, module["auth/auth.go"]+"\nvar _ int = \"s\"\n"), 2, 1, true, "auth.go:6: cannot use"},
		{edit(app, module["app/app.go"]+"\nvar _ = auth.Nope\n"), 2, 2, true, "undefined: auth.Nope"},
		{edit(auth, module["auth/auth.go"]), 2, 3, true, ""},
	}
	for i, s := range steps {
		res, err := l.Check(context.Background(), s.req)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(msgs(res), "\n")
		if cold, warm := l.Stats(); cold != s.cold || warm != s.warm || res.Warm != s.wantWarm {
			t.Errorf("step %d: cold=%d warm=%d (this one warm: %t), want cold=%d warm=%d", i, cold, warm, res.Warm, s.cold, s.warm)
		}
		if (s.errContains == "") != (got == "") || !strings.Contains(got, s.errContains) {
			t.Errorf("step %d: errors %q, want %q", i, got, s.errContains)
		}
	}
}
