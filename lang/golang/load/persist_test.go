package load

import (
	"context"
	"encoding/json"
	"fmt"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/resultcache"
)

func newStore(t testing.TB) *Store {
	t.Helper()
	c, err := resultcache.Open(t.TempDir(), resultcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return NewStore(c)
}

// describe renders what a check found, for comparing two checks: every package's
// files, errors and declarations with their types, and every import's declarations.
func describe(res *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "module %+v\n", res.Module)
	for _, p := range res.Packages {
		fmt.Fprintf(&b, "package %s %s %s\n", p.ID, p.Name, strings.Join(p.Files, ","))
		for _, e := range p.Errors {
			fmt.Fprintf(&b, "  error %d %s soft=%t\n", e.Kind, e.Error(), e.Soft)
		}
		if p.Types != nil {
			b.WriteString(scope(p.Types))
		}
		paths := make([]string, 0, len(p.Imports))
		for path := range p.Imports {
			paths = append(paths, path)
		}
		sort.Strings(paths)
		for _, path := range paths {
			im := p.Imports[path]
			fmt.Fprintf(&b, "  import %q %s %s errors=%v\n", path, im.ID, im.Path, im.Errors)
			if im.Types != nil && !strings.Contains(im.ID, " [") {
				b.WriteString(scope(im.Types))
			}
		}
	}
	return b.String()
}

func scope(p *types.Package) string {
	var b strings.Builder
	for _, name := range p.Scope().Names() {
		if obj := p.Scope().Lookup(name); obj.Exported() || p.Scope().Len() < 50 {
			fmt.Fprintf(&b, "    %s\n", types.ObjectString(obj, nil))
		}
	}
	return b.String()
}

// TestPersistedSnapshotIsCold: a check that a new loader starts from a snapshot an
// earlier one kept (no go list) finds exactly what a loader without a store finds, for
// the disk's tree, an edit with mistakes, and an added file.
func TestPersistedSnapshotIsCold(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	edited := strings.Replace(module["app/app.go"], "auth.VerifyToken(strings.TrimSpace(s))", "auth.VerifyTokne(strings.Trim(s))", 1)
	cases := []struct {
		name    string
		overlay map[string]string
	}{
		{"disk", nil},
		{"edit with mistakes", map[string]string{"app/app.go": edited}},
		{"edit using more of an import", map[string]string{"app/app.go": module["app/app.go"] + "\nvar _ = strings.NewReader(\"\").Len() + len(strings.Fields(\"a b\"))\n"}},
		{"file added", map[string]string{"app/more.go": "package app\n\nimport \"strings\"\n\nvar _ int = strings.ToUpper\n"}},
		{"external test edited", map[string]string{"app/x_test.go": strings.Replace(module["app/x_test.go"], "app.F(\"x\")", "app.G()", 1)}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			shorttest.Sample(t, i, 8)
			t.Parallel()
			dir := writeModule(t, module)
			store := newStore(t)
			files := []string{filepath.Join(dir, "app", "app.go")}
			if _, err := New(Options{Store: store}).Check(ctx, Request{Dir: dir, Files: files}); err != nil {
				t.Fatal(err)
			}
			req := Request{Dir: dir, Files: files, Overlay: map[string][]byte{}}
			for p, s := range c.overlay {
				req.Overlay[filepath.Join(dir, filepath.FromSlash(p))] = []byte(s)
			}
			l := New(Options{Store: store})
			got, err := l.Check(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if l.restored != 1 || l.colds != 0 {
				t.Fatalf("restored=%d cold=%d, want the kept snapshot used", l.restored, l.colds)
			}
			want, err := New(Options{}).Check(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := describe(got), describe(want); g != w {
				t.Errorf("from the store:\n%s\nwithout a store:\n%s", g, w)
			}
			if g, w := describe(got), describe(typeCheckedDisk(t, req)); g != w {
				t.Errorf("from the store:\n%s\nfrom the type-checked disk:\n%s", g, w)
			}
		})
	}
}

// typeCheckedDisk checks req as Loader.Check did before listed.go: on the snapshot of a
// cold load of the disk, whose packages go/packages type-checked.
func typeCheckedDisk(t *testing.T, req Request) *Result {
	t.Helper()
	disk := req
	disk.Overlay = nil
	_, snap, err := New(Options{}).cold(context.Background(), disk)
	if err != nil || snap == nil {
		t.Fatalf("cold load of the disk: %v", err)
	}
	res, ok, err := snap.warm(context.Background(), req)
	if err != nil || !ok {
		t.Fatalf("warm check on the cold snapshot: ok=%t %v", ok, err)
	}
	return res
}

// TestPersistedSnapshotInvalidation changes what a kept snapshot depends on, and
// requires the next loader to load cold and find what a loader without a store finds.
// The module's app package calls auth.VerifyToken; auth.Extra exists only with the build
// tag "extra".
func TestPersistedSnapshotInvalidation(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	files := map[string]string{
		"auth/extra.go": "//go:build extra\n\npackage auth\n\n// Extra is there with the tag extra.\nfunc Extra() {}\n",
		"app/use.go":    "package app\n\nimport \"example.com/m/auth\"\n\nvar _ = auth.Extra\n",
	}
	for p, s := range module {
		files[p] = s
	}
	type env struct {
		opts  Options
		build Build
	}
	cases := []struct {
		name   string
		serial bool // the change sets the process's environment
		change func(t *testing.T, dir string) env
	}{
		{"dependency file edited", false, func(t *testing.T, dir string) env {
			write(t, filepath.Join(dir, "auth", "auth.go"), strings.Replace(files["auth/auth.go"], "VerifyToken", "Verify", 2))
			return env{}
		}},
		{"file added to a dependency", false, func(t *testing.T, dir string) env {
			write(t, filepath.Join(dir, "auth", "more.go"), "package auth\n\nfunc Extra() {}\n")
			return env{}
		}},
		{"file added to the package", false, func(t *testing.T, dir string) env {
			write(t, filepath.Join(dir, "app", "more.go"), "package app\n\nfunc F() {}\n")
			return env{}
		}},
		{"file deleted from the package", false, func(t *testing.T, dir string) env {
			os.Remove(filepath.Join(dir, "app", "use.go"))
			return env{}
		}},
		{"go.mod changed", false, func(t *testing.T, dir string) env {
			write(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.21\n")
			return env{}
		}},
		{"GOFLAGS", false, func(t *testing.T, dir string) env {
			return env{opts: Options{Env: []string{"GOFLAGS=-tags=extra"}}}
		}},
		{"go env file", true, func(t *testing.T, dir string) env {
			f := filepath.Join(t.TempDir(), "env")
			write(t, f, "GOFLAGS=-tags=extra\n")
			t.Setenv("GOENV", f)
			return env{}
		}},
		{"build tags", false, func(t *testing.T, dir string) env { return env{build: Build{Tags: []string{"extra"}}} }},
		{"another port", false, func(t *testing.T, dir string) env { return env{build: Build{GOOS: "windows", GOARCH: "amd64"}} }},
		{"another go command", true, func(t *testing.T, dir string) env {
			goBin, err := exec.LookPath("go")
			if err != nil {
				t.Fatal(err)
			}
			bin := t.TempDir()
			write(t, filepath.Join(bin, "go"), "#!/bin/sh\nexec "+goBin+" \"$@\"\n")
			os.Chmod(filepath.Join(bin, "go"), 0o755)
			t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			return env{}
		}},
	}
	ctx := context.Background()
	// No user go env file; the cases that change the process's environment run one at a
	// time, before the others run side by side.
	t.Setenv("GOENV", "off")
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			shorttest.Sample(t, i, 8)
			if !c.serial {
				t.Parallel()
			}
			dir := writeModule(t, files)
			store := newStore(t)
			app := []string{filepath.Join(dir, "app", "app.go")}
			first := New(Options{Store: store})
			if _, err := first.Check(ctx, Request{Dir: dir, Files: app}); err != nil {
				t.Fatal(err)
			}
			e := c.change(t, dir)
			req := Request{Dir: dir, Files: app, Build: e.build}
			opts := e.opts
			opts.Store = store
			l := New(opts)
			got, err := l.Check(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if l.restored != 0 {
				t.Fatal("a kept snapshot served the check after a change it depends on")
			}
			opts.Store = nil
			want, err := New(opts).Check(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := msgs(got), msgs(want); !slices.Equal(g, w) {
				t.Errorf("with a store: %q\nwithout: %q", g, w)
			}
		})
	}
}

// TestKeptAcrossShells: what differs between a user's shells without changing the go
// command or its configuration (the search path of a virtual environment, the working
// directory) keeps the entries valid.
func TestKeptAcrossShells(t *testing.T) {
	dir := writeModule(t, module)
	store := newStore(t)
	req := Request{Dir: dir, Files: []string{filepath.Join(dir, "app", "app.go")}}
	keptEntry(t, Options{Store: store}, req)
	t.Setenv("PATH", t.TempDir()+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Chdir(t.TempDir())
	t.Setenv("PWD", "/elsewhere")
	l := New(Options{Store: store})
	if _, err := l.Check(context.Background(), req); err != nil || l.restored != 1 {
		t.Errorf("restored=%d err=%v, want the kept snapshot used", l.restored, err)
	}
}

// TestNotKept: a load whose go list answer depends on files a snapshot does not
// fingerprint (GOFLAGS -modfile, -overlay) is not kept.
func TestNotKept(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	for _, flags := range []string{"", "-modfile=alt.mod", "-overlay=overlay.json"} {
		dir := writeModule(t, module)
		write(t, filepath.Join(dir, "alt.mod"), module["go.mod"])
		write(t, filepath.Join(dir, "overlay.json"), "{\"Replace\": {}}")
		store := newStore(t)
		req := Request{Dir: dir, Files: []string{filepath.Join(dir, "app", "app.go")}}
		opts := Options{Store: store, Env: []string{"GOFLAGS=" + flags}}
		res, err := New(opts).Check(context.Background(), req)
		if err != nil || len(msgs(res)) > 0 {
			t.Fatalf("GOFLAGS=%s: %v %q", flags, err, msgs(res))
		}
		if st, err := store.cache.Stats(); err != nil || (st.Entries == 0) != (flags != "") {
			t.Errorf("GOFLAGS=%q: %d entries kept (%v)", flags, st.Entries, err)
		}
	}
}

// TestCorruptEntries: an entry that does not decode, is of another version or module,
// or names export data that is gone or is not export data, is a miss, never a panic or
// a wrong answer.
func TestCorruptEntries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name   string
		mangle func(t *testing.T, dir string, e *entry) []byte
	}{
		{"not json", func(*testing.T, string, *entry) []byte { return []byte("{\"Version\": 1, \"Pack") }},
		{"another version", func(_ *testing.T, _ string, e *entry) []byte { e.Version++; return nil }},
		{"another module", func(t *testing.T, _ string, e *entry) []byte { e.Dir = t.TempDir(); return nil }},
		{"bad module hash", func(_ *testing.T, _ string, e *entry) []byte { e.ModHash = "zz"; return nil }},
		{"unknown sizes", func(_ *testing.T, _ string, e *entry) []byte { e.Packages[0].Arch = "pdp11"; return nil }},
		{"file outside its directory", func(_ *testing.T, dir string, e *entry) []byte {
			e.Packages[0].Files = append(e.Packages[0].Files, filepath.Join(dir, "auth", "auth.go"))
			return nil
		}},
		{"export data deleted", func(t *testing.T, _ string, e *entry) []byte {
			exportOf(t, e, "strings", func(si *savedImport) { si.Export = filepath.Join(t.TempDir(), "gone") })
			return nil
		}},
		{"export data not export data", func(t *testing.T, dir string, e *entry) []byte {
			junk := filepath.Join(t.TempDir(), "junk")
			write(t, junk, strings.Repeat("junk", 100))
			exportOf(t, e, "strings", func(si *savedImport) { si.Export, si.Size = junk, 400 })
			return nil
		}},
		{"export data of another size", func(t *testing.T, _ string, e *entry) []byte {
			exportOf(t, e, "strings", func(si *savedImport) { si.Size++ })
			return nil
		}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			shorttest.Sample(t, i, 8)
			t.Parallel()
			dir := writeModule(t, module)
			store := newStore(t)
			req := Request{Dir: dir, Files: []string{filepath.Join(dir, "app", "app.go")}}
			key, e := keptEntry(t, Options{Store: store}, req)
			mangled := c.mangle(t, dir, &e)
			if mangled == nil {
				mangled, _ = json.Marshal(e)
			}
			if err := store.cache.Put(key, mangled); err != nil {
				t.Fatal(err)
			}
			bad := strings.Replace(module["app/app.go"], "TrimSpace", "TrimSpice", 1)
			req.Overlay = map[string][]byte{req.Files[0]: []byte(bad)}
			l := New(Options{Store: store})
			res, err := l.Check(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if l.restored != 0 || l.colds != 1 {
				t.Errorf("restored=%d cold=%d, want a cold load", l.restored, l.colds)
			}
			if got := strings.Join(msgs(res), "\n"); !strings.Contains(got, "undefined: strings.TrimSpice") {
				t.Errorf("errors %q", got)
			}
		})
	}
}

// keptEntry checks req cold with a new loader of opts and returns the entry its store
// kept, with the entry's key.
func keptEntry(t *testing.T, opts Options, req Request) (resultcache.Key, entry) {
	t.Helper()
	l := New(opts)
	if _, err := l.Check(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	key, ok := entryKey(req, l.loadEnv(req), targetDirs(req.Files))
	if !ok {
		t.Fatal("no key")
	}
	data, ok := opts.Store.cache.Get(key)
	if !ok {
		t.Fatal("the cold load kept nothing")
	}
	var e entry
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	return key, e
}

// exportOf changes the import of path in every package of e.
func exportOf(t *testing.T, e *entry, path string, f func(*savedImport)) {
	t.Helper()
	n := 0
	for _, p := range e.Packages {
		if si, ok := p.Imports[path]; ok {
			f(&si)
			p.Imports[path] = si
			n++
		}
	}
	if n == 0 {
		t.Fatalf("no package imports %s", path)
	}
}

// TestExportDataTrimmed: when the Go build cache no longer has an export data file a
// kept snapshot names (go clean -cache, its trimming), the check is cold and right. The
// module uses a build cache of its own, and imports nothing of the standard library,
// so that building it is quick.
func TestExportDataTrimmed(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n",
		"lib/lib.go": "package lib\n\n// N is a number.\nconst N = 1\n",
		"app/app.go": "package app\n\nimport \"example.com/m/lib\"\n\nvar _ = lib.N\n",
	})
	ctx := context.Background()
	store := newStore(t)
	opts := Options{Store: store, Env: []string{"GOCACHE=" + t.TempDir()}}
	req := Request{Dir: dir, Files: []string{filepath.Join(dir, "app", "app.go")}}
	_, e := keptEntry(t, opts, req)
	l := New(opts)
	exportOf(t, &e, "example.com/m/lib", func(si *savedImport) {
		if err := os.Remove(si.Export); err != nil {
			t.Fatal(err)
		}
	})
	req.Overlay = map[string][]byte{req.Files[0]: []byte("package app\n\nimport \"example.com/m/lib\"\n\nvar _ = lib.M\n")}
	res, err := l.Check(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if l.restored != 0 {
		t.Error("a snapshot whose export data is gone served the check")
	}
	if got := strings.Join(msgs(res), "\n"); !strings.Contains(got, "undefined: lib.M") {
		t.Errorf("errors %q", got)
	}
}

// TestConcurrentStores: loaders of concurrent processes (here goroutines, each with its
// own loader and cache handle on one directory) write and read the same entries; every
// check is right, and a later loader starts from what they kept.
func TestConcurrentStores(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, module)
	cacheDir := t.TempDir()
	ctx := context.Background()
	app := filepath.Join(dir, "app", "app.go")
	bad := strings.Replace(module["app/app.go"], "TrimSpace", "TrimSpice", 1)
	req := Request{Dir: dir, Files: []string{app}, Overlay: map[string][]byte{app: []byte(bad)}}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := resultcache.Open(cacheDir, resultcache.Options{})
			if err != nil {
				errs <- err.Error()
				return
			}
			res, err := New(Options{Store: NewStore(c)}).Check(ctx, req)
			if err != nil {
				errs <- err.Error()
				return
			}
			if got := strings.Join(msgs(res), "\n"); !strings.Contains(got, "undefined: strings.TrimSpice") {
				errs <- got
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	c, err := resultcache.Open(cacheDir, resultcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := New(Options{Store: NewStore(c)})
	if _, err := l.Check(ctx, req); err != nil || l.restored != 1 {
		t.Errorf("later loader: restored=%d err=%v", l.restored, err)
	}
}

// TestPersistedAcrossProcesses runs the check in two processes (this test binary, run
// again): the second starts from what the first kept and prints what the first did.
func TestPersistedAcrossProcesses(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	if os.Getenv("AGENTVERIFY_LOAD_HELPER") != "" {
		return
	}
	dir := writeModule(t, module)
	cacheDir := t.TempDir()
	run := func() string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLoadHelperProcess$")
		cmd.Env = append(os.Environ(), "AGENTVERIFY_LOAD_HELPER="+dir, "AGENTVERIFY_CACHE_DIR="+cacheDir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return string(out)
	}
	first, second := run(), run()
	if !strings.Contains(first, "restored=0") || !strings.Contains(second, "restored=1") {
		t.Fatalf("first process:\n%s\nsecond process:\n%s", first, second)
	}
	if strings.Replace(first, "restored=0", "restored=1", 1) != second {
		t.Errorf("first process:\n%s\nsecond process:\n%s", first, second)
	}
}

// TestLoadHelperProcess is the process TestPersistedAcrossProcesses starts.
func TestLoadHelperProcess(t *testing.T) {
	dir := os.Getenv("AGENTVERIFY_LOAD_HELPER")
	if dir == "" {
		return // only as the process TestPersistedAcrossProcesses starts
	}
	c, err := resultcache.Open(os.Getenv("AGENTVERIFY_CACHE_DIR"), resultcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(dir, "app", "app.go")
	bad := strings.Replace(module["app/app.go"], "TrimSpace", "TrimSpice", 1)
	l := New(Options{Store: NewStore(c)})
	res, err := l.Check(context.Background(), Request{Dir: dir, Files: []string{app}, Overlay: map[string][]byte{app: []byte(bad)}})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("restored=%d\n%s", l.restored, describe(res))
}

func BenchmarkCheckPersisted(b *testing.B) { benchmarkCheck(b, true) }

func BenchmarkCheckCold(b *testing.B) { benchmarkCheck(b, false) }

// benchmarkCheck measures a new process's check of an edit: a new loader each time,
// with or without the snapshot a first one kept.
func benchmarkCheck(b *testing.B, persisted bool) {
	dir := writeModule(b, module)
	store := newStore(b)
	app := filepath.Join(dir, "app", "app.go")
	ctx := context.Background()
	if _, err := New(Options{Store: store}).Check(ctx, Request{Dir: dir, Files: []string{app}}); err != nil {
		b.Fatal(err)
	}
	opts := Options{}
	if persisted {
		opts.Store = store
	}
	for i := 0; b.Loop(); i++ {
		src := module["app/app.go"] + fmt.Sprintf("\nfunc G%d() {}\n", i)
		l := New(opts)
		if _, err := l.Check(ctx, Request{Dir: dir, Files: []string{app}, Overlay: map[string][]byte{app: []byte(src)}}); err != nil {
			b.Fatal(err)
		}
		if persisted != (l.restored == 1) {
			b.Fatalf("restored=%d", l.restored)
		}
	}
}

// FuzzRestore: whatever bytes an entry holds (the cache directory is the user's, and
// files get torn), rebuilding a snapshot from it never panics, and a snapshot it gives
// is one that validates for the request.
func FuzzRestore(f *testing.F) {
	dir := writeModule(f, module)
	store := newStore(f)
	req := Request{Dir: dir, Files: []string{filepath.Join(dir, "app", "app.go")}}
	l := New(Options{Store: store})
	if _, err := l.Check(context.Background(), req); err != nil {
		f.Fatal(err)
	}
	env := l.loadEnv(req)
	key, _ := entryKey(req, env, targetDirs(req.Files))
	data, ok := store.cache.Get(key)
	if !ok {
		f.Fatal("nothing kept")
	}
	f.Add(data)
	f.Add([]byte(`{"Version":1,"Dir":"` + dir + `","Packages":[{"Dir":"/","Files":["/x.go"],"Compiler":"gc","Arch":"amd64"}]}`))
	f.Add([]byte("null"))
	f.Fuzz(func(t *testing.T, data []byte) {
		snap, ok := New(Options{}).restore(data, req, env)
		if ok {
			if _, _, valid := snap.reusable(req); !valid {
				t.Error("restored a snapshot that does not validate")
			}
		}
	})
}
