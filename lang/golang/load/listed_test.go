package load

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
)

// TestListedDiskLoad: an overlaid check of packages no snapshot holds loads the disk
// from go list's answer and export data, without type-checking the disk's packages, and
// finds what the check on a type-checked disk load finds; when a dependency has no
// export data (it does not compile), it loads cold, with the same answer.
func TestListedDiskLoad(t *testing.T) {
	t.Parallel()
	broken := map[string]string{
		"auth/broken.go": "package auth\n\nvar _ int = \"not an int\"\n",
	}
	cases := []struct {
		name     string
		extra    map[string]string
		fromList int
		once     int // of those, the loads that asked go list once (walkOnce)
	}{
		{"dependencies compile", nil, 1, 1},
		{"a dependency does not compile", broken, 1, 0}, // no export data: the two-list load says why
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			shorttest.Sample(t, i, 2)
			files := map[string]string{}
			for p, s := range module {
				files[p] = s
			}
			for p, s := range c.extra {
				files[p] = s
			}
			dir := writeModule(t, files)
			app := filepath.Join(dir, "app", "app.go")
			bad := strings.Replace(module["app/app.go"], "strings.TrimSpace(s)", "strings.TrimSpace(s, 1)", 1)
			req := Request{Dir: dir, Files: []string{app}, Overlay: map[string][]byte{app: []byte(bad)}}
			l := New(Options{})
			res, err := l.Check(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if l.fromList != c.fromList || l.walkedOnce != c.once || !res.Warm {
				t.Errorf("disk loads from go list alone: %d (%d walking once), want %d (%d) (warm %t)", l.fromList, l.walkedOnce, c.fromList, c.once, res.Warm)
			}
			got, want := msgs(res), msgs(typeCheckedDisk(t, req))
			if !slices.Equal(got, want) || len(got) == 0 || !strings.Contains(got[0], "too many arguments") {
				t.Errorf("errors %q, want %q", got, want)
			}
		})
	}
}

// TestTaggedFileAdded: a file the overlay adds that only the configuration's build tags
// include belongs to the package on the warm path, as in a cold load.
func TestTaggedFileAdded(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	dir := writeModule(t, module)
	app := filepath.Join(dir, "app", "app.go")
	tagged := filepath.Join(dir, "app", "tagged.go")
	build := Build{Tags: []string{"special"}}
	over := map[string][]byte{tagged: []byte("//go:build special\n\npackage app\n\nvar _ int = \"s\"\n")}
	l := New(Options{})
	if _, err := l.Check(context.Background(), Request{Dir: dir, Files: []string{app}, Build: build}); err != nil {
		t.Fatal(err)
	}
	req := Request{Dir: dir, Files: []string{app}, Build: build, Overlay: over}
	got, err := l.Check(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := New(Options{}).cold(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := msgs(got), msgs(want); !slices.Equal(g, w) || len(w) == 0 {
		t.Errorf("warm: %q\ncold: %q", g, w)
	}
}

// TestListedOwnThroughOutside: when two checked packages are linked through one that
// is not checked (top imports base directly and through mid), mid's types refer to the
// base the disk had while the warm check re-checks base: the packages are loaded anew
// instead, and a value of base's type passes between them without a false "cannot use
// *base.T as *base.T".
func TestListedOwnThroughOutside(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"base/base.go": "package base\n\n// T is a thing.\ntype T struct{ N int }\n",
		"mid/mid.go":   "package mid\n\nimport \"example.com/m/base\"\n\n// Get returns a thing.\nfunc Get() *base.T { return &base.T{} }\n",
		"top/top.go":   "package top\n\nimport (\n\t\"example.com/m/base\"\n\t\"example.com/m/mid\"\n)\n\nvar x *base.T = mid.Get()\n",
	})
	top := filepath.Join(dir, "top", "top.go")
	over := "package top\n\nimport (\n\t\"example.com/m/base\"\n\t\"example.com/m/mid\"\n)\n\nvar x *base.T = mid.Get()\n\nvar y = []*base.T{mid.Get(), x}\n"
	req := Request{Dir: dir, Files: []string{filepath.Join(dir, "base", "base.go"), top}, Overlay: map[string][]byte{top: []byte(over)}}
	res, err := New(Options{}).Check(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := msgs(res); len(got) != 0 {
		t.Errorf("errors %q, want none", got)
	}
}

// TestListedCompilesOnlyDependencies: a check of the disk's packages asks go list for the
// export data of their dependencies alone: the checked packages and their test variants
// are type-checked from source on the warm path, so compiling them (seconds on a large
// package, the bulk of a one-file diff on a fresh edit) would be thrown away. A
// dependency that imports a checked package declines the listed load (its export data
// would name the old types) and the cold load answers, with the same errors.
func TestListedCompilesOnlyDependencies(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	stale := func(t *testing.T, dir, pkg string) bool {
		t.Helper()
		cmd := exec.Command("go", "list", "-f", "{{.Stale}}", pkg)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -f {{.Stale}} %s: %v", pkg, err)
		}
		return strings.TrimSpace(string(out)) == "true"
	}
	cases := []struct {
		name     string
		extra    map[string]string
		fromList int
	}{
		{"dependencies only", nil, 1},
		{"a dependency imports the package", map[string]string{
			"mid/mid.go":      "package mid\n\nimport \"example.com/m/app\"\n\n// G calls app.F.\nfunc G() bool { return app.F(\"y\") }\n",
			"app/mid_test.go": "package app_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/mid\"\n)\n\nfunc TestMid(t *testing.T) { _ = mid.G() }\n",
		}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{}
			for p, s := range module {
				files[p] = s
			}
			// a declaration no earlier build compiled, so the package is new to the cache
			files["app/fresh.go"] = "package app\n\n// Fresh is new: " + t.Name() + " " + strconv.FormatInt(time.Now().UnixNano(), 10) + "\nvar Fresh = 1\n"
			for p, s := range c.extra {
				files[p] = s
			}
			dir := writeModule(t, files)
			app := filepath.Join(dir, "app", "app.go")
			l := New(Options{})
			res, err := l.Check(context.Background(), Request{Dir: dir, Files: []string{app}})
			if err != nil {
				t.Fatal(err)
			}
			if l.fromList != c.fromList || res.Warm || len(msgs(res)) != 0 {
				t.Fatalf("disk loads from go list alone: %d, want %d (warm %t, errors %q)", l.fromList, c.fromList, res.Warm, msgs(res))
			}
			if stale(t, dir, "./auth") {
				t.Error("the dependency auth has no export data: go list -export was not asked for it")
			}
			if c.fromList == 1 && !stale(t, dir, "./app") {
				t.Error("the checked package app was compiled: its export data is never read")
			}
		})
	}
}

// TestListExportsInChunks: split over many go list runs (a command line's size is
// bounded), the export data files are the ones one run gives, for every package asked.
func TestListExportsInChunks(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "m.go": "package m\n"})
	ids := []string{"bufio", "bytes", "errors", "fmt", "io", "os", "sort", "strconv", "strings", "unicode/utf8"}
	env := os.Environ()
	whole, err := listExportsIn(context.Background(), dir, env, nil, ids, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	chunked, err := listExportsIn(context.Background(), dir, env, nil, ids, 12)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole) != len(ids) || !maps.Equal(whole, chunked) {
		t.Errorf("chunked %v, want %v (one run, %d packages)", chunked, whole, len(ids))
	}
	for id, file := range whole {
		if file == "" {
			t.Errorf("%s: no export data file", id)
		}
	}
}
