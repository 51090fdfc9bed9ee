package load

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
)

// writeModule writes files (relative path → content) under a new temporary directory.
func writeModule(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var module = map[string]string{
	"go.mod":          "module example.com/m\n\ngo 1.22\n",
	"auth/auth.go":    "package auth\n\n// VerifyToken reports whether s is valid.\nfunc VerifyToken(s string) bool { return s != \"\" }\n",
	"app/app.go":      "package app\n\nimport (\n\t\"strings\"\n\n\t\"example.com/m/auth\"\n)\n\nfunc F(s string) bool { return auth.VerifyToken(strings.TrimSpace(s)) }\n",
	"app/app_test.go": "package app\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { _ = F(\"x\") }\n",
	"app/x_test.go":   "package app_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/app\"\n)\n\nfunc TestX(t *testing.T) { _ = app.F(\"x\") }\n",
}

func msgs(res *Result) []string {
	var out []string
	for _, p := range res.Packages {
		for _, e := range p.Errors {
			out = append(out, filepath.Base(e.Pos.Filename)+":"+strconv.Itoa(e.Pos.Line)+": "+e.Msg)
		}
	}
	return out
}

func TestColdThenWarmEdit(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, module)
	l := New(Options{})
	ctx := context.Background()
	app := filepath.Join(dir, "app", "app.go")
	res, err := l.Check(ctx, Request{Dir: dir, Files: []string{app}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Warm || len(msgs(res)) != 0 {
		t.Fatalf("cold check: warm=%v errors=%v", res.Warm, msgs(res))
	}
	var ids []string
	for _, p := range res.Packages {
		ids = append(ids, p.ID)
	}
	if got := strings.Join(ids, ","); got != "example.com/m/app,example.com/m/app [example.com/m/app.test],example.com/m/app_test [example.com/m/app.test]" {
		t.Fatalf("packages = %s", got)
	}
	if res.Module.Path != "example.com/m" || res.Module.GoVersion != "1.22" {
		t.Fatalf("module = %+v", res.Module)
	}

	// An in-memory edit with a mistake: the warm path must see it, not the disk.
	bad := strings.Replace(module["app/app.go"], "auth.VerifyToken(", "auth.VerifyTokne(", 1)
	res, err = l.Check(ctx, Request{Dir: dir, Files: []string{app}, Overlay: map[string][]byte{app: []byte(bad)}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Warm {
		t.Fatal("second check of an edited package did not reuse the cache")
	}
	got := msgs(res)
	if len(got) == 0 || !strings.Contains(got[0], "app.go:9: undefined: auth.VerifyTokne") {
		t.Fatalf("warm errors = %v", got)
	}
	// The external test package is re-checked against the edited package.
	if cold, warm := l.Stats(); cold != 1 || warm != 1 {
		t.Fatalf("stats cold=%d warm=%d", cold, warm)
	}
}

func TestWarmPathInvalidation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name   string
		change func(t *testing.T, dir string) map[string][]byte
	}{
		{"new import needs go list", func(t *testing.T, dir string) map[string][]byte {
			src := strings.Replace(module["app/app.go"], "\"strings\"\n", "\"strings\"\n\t\"os\"\n", 1)
			return map[string][]byte{filepath.Join(dir, "app", "app.go"): []byte(src)}
		}},
		{"go.mod changed", func(t *testing.T, dir string) map[string][]byte {
			return map[string][]byte{filepath.Join(dir, "go.mod"): []byte("module example.com/m\n\ngo 1.23\n")}
		}},
		{"dependency file changed on disk", func(t *testing.T, dir string) map[string][]byte {
			p := filepath.Join(dir, "auth", "auth.go")
			if err := os.WriteFile(p, []byte(module["auth/auth.go"]+"\nfunc Extra() {}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return nil
		}},
		{"dependency edited in overlay", func(t *testing.T, dir string) map[string][]byte {
			return map[string][]byte{filepath.Join(dir, "auth", "auth.go"): []byte("package auth\n")}
		}},
		{"go.work of a parent directory added", func(t *testing.T, dir string) map[string][]byte {
			work := "go 1.22\n\nuse ./" + filepath.Base(dir) + "\n"
			if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "go.work"), []byte(work), 0o644); err != nil {
				t.Fatal(err)
			}
			return nil
		}},
		{"file added to the package on disk", func(t *testing.T, dir string) map[string][]byte {
			if err := os.WriteFile(filepath.Join(dir, "app", "more.go"), []byte("package app\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return nil
		}},
		{"first test file of a package added in overlay", func(t *testing.T, dir string) map[string][]byte {
			return map[string][]byte{filepath.Join(dir, "auth", "auth_test.go"): []byte("package auth\n")}
		}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			shorttest.Sample(t, i, 8)
			t.Parallel()
			dir := writeModule(t, module)
			l := New(Options{})
			app := filepath.Join(dir, "app", "app.go")
			if _, err := l.Check(ctx, Request{Dir: dir, Files: []string{app}}); err != nil {
				t.Fatal(err)
			}
			res, err := l.Check(ctx, Request{Dir: dir, Files: []string{app}, Overlay: c.change(t, dir)})
			if err != nil {
				t.Fatal(err)
			}
			if res.Warm {
				t.Fatal("check after an invalidating change was served from the cache")
			}
		})
	}
}

// A package recompiled for a test ("obs [core.test]": core's external test imports obs,
// which imports core) names the types of the cold load's core test variant; a warm
// re-check of core would make new ones ("cannot use core.Entry as core.Entry"). Only a
// load with go list checks such a package again.
func TestRecompiledForTestIsCold(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	ext := "package core_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/core\"\n\t\"example.com/m/obs\"\n)\n\n" +
		"func TestX(t *testing.T) {\n\tl := obs.New()\n\t_ = l\n}\n"
	dir := writeModule(t, map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.22\n",
		"core/core.go":      "package core\n\ntype Entry struct{ M string }\n",
		"core/core_test.go": "package core\n\nimport \"testing\"\n\nfunc TestE(t *testing.T) { _ = Entry{} }\n",
		"core/x_test.go":    ext,
		"obs/obs.go":        "package obs\n\nimport \"example.com/m/core\"\n\ntype Logs struct{ All []core.Entry }\n\nfunc New() *Logs { return &Logs{} }\n",
	})
	l := New(Options{})
	ctx := context.Background()
	x := filepath.Join(dir, "core", "x_test.go")
	if _, err := l.Check(ctx, Request{Dir: dir, Files: []string{x}}); err != nil {
		t.Fatal(err)
	}
	edit := strings.Replace(ext, "\t_ = l\n", "\tl.All = append(l.All, core.Entry{M: \"m\"})\n", 1)
	res, err := l.Check(ctx, Request{Dir: dir, Files: []string{x}, Overlay: map[string][]byte{x: []byte(edit)}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Warm || len(msgs(res)) != 0 {
		t.Fatalf("warm=%v errors=%v; want a cold check without errors", res.Warm, msgs(res))
	}
}

// TestViews checks trees other than the disk: files the overlay adds and files that are
// absent. The warm path (after a cold load of the disk) and a cold load must report the
// same errors.
func TestViews(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	helper := "package app\n\nfunc helper() int { return 1 }\n"
	caller := "package app\n\nvar _ = helper()\n"
	cases := []struct {
		name    string
		disk    map[string]string // written on top of module
		overlay map[string]string
		absent  []string
		want    string // a substring of the errors, "" for none
	}{
		{"helper absent", map[string]string{"app/helper.go": helper, "app/caller.go": caller}, nil, []string{"app/helper.go"}, "caller.go:3: undefined: helper"},
		{"helper absent, test file absent too", map[string]string{"app/helper.go": helper, "app/caller.go": caller, "app/h_test.go": "package app\n\nvar _ = nope\n"}, nil, []string{"app/helper.go", "app/h_test.go"}, "caller.go:3: undefined: helper"},
		{"helper added by the overlay", map[string]string{"app/caller.go": caller}, map[string]string{"app/helper.go": helper}, nil, ""},
		{"added file with an error", nil, map[string]string{"app/more.go": "package app\n\nvar _ int = \"s\"\n"}, nil, "more.go:3"},
		{"added file excluded by its build constraint", nil, map[string]string{"app/more.go": "//go:build ignore\n\npackage app\n\nvar _ int = \"s\"\n"}, nil, ""},
		{"added in-package test file", nil, map[string]string{"app/more_test.go": "package app\n\nvar _ int = F\n"}, nil, "more_test.go:3"},
		{"added external test file", nil, map[string]string{"app/more_test.go": "package app_test\n\nimport \"example.com/m/app\"\n\nvar _ int = app.F\n"}, nil, "more_test.go:5"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			shorttest.Sample(t, i, 8)
			t.Parallel()
			files := map[string]string{}
			for p, s := range module {
				files[p] = s
			}
			for p, s := range c.disk {
				files[p] = s
			}
			dir := writeModule(t, files)
			req := Request{Dir: dir, Files: []string{filepath.Join(dir, "app", "app.go")}, Overlay: map[string][]byte{}}
			for p, s := range c.overlay {
				req.Overlay[filepath.Join(dir, filepath.FromSlash(p))] = []byte(s)
			}
			for _, p := range c.absent {
				req.Absent = append(req.Absent, filepath.Join(dir, filepath.FromSlash(p)))
			}
			warm := New(Options{})
			if _, err := warm.Check(ctx, Request{Dir: dir, Files: req.Files}); err != nil {
				t.Fatal(err)
			}
			wres, err := warm.Check(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if !wres.Warm {
				t.Error("not served by the warm path")
			}
			cres, err := New(Options{}).Check(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			for name, res := range map[string]*Result{"warm": wres, "cold": cres} {
				got := strings.Join(msgs(res), "\n")
				if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
					t.Errorf("%s errors = %q, want %q", name, got, c.want)
				}
			}
		})
	}
}

func TestDependencyEditSeenByWarmDependent(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	// Both packages are checked: the dependent must see the edited dependency's new API.
	dir := writeModule(t, module)
	l := New(Options{})
	ctx := context.Background()
	app, auth := filepath.Join(dir, "app", "app.go"), filepath.Join(dir, "auth", "auth.go")
	if _, err := l.Check(ctx, Request{Dir: dir, Files: []string{app, auth}}); err != nil {
		t.Fatal(err)
	}
	renamed := strings.Replace(module["auth/auth.go"], "VerifyToken", "Verify", -1)
	res, err := l.Check(ctx, Request{Dir: dir, Files: []string{app, auth}, Overlay: map[string][]byte{auth: []byte(renamed)}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Warm {
		t.Fatal("not warm")
	}
	if got := strings.Join(msgs(res), "\n"); !strings.Contains(got, "undefined: auth.VerifyToken") {
		t.Fatalf("errors = %q", got)
	}
}

func TestCollectsAllErrorsAndOutsideModule(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"main.go": "package main\n\nimport \"os\"\n\nfunc main() {\n\tos.GetEnv(\"A\")\n\tos.Exitt(1)\n\tundefinedThing()\n}\n",
	})
	res, err := New(Options{}).Check(context.Background(), Request{Dir: dir, Files: []string{filepath.Join(dir, "main.go")}})
	if err != nil {
		t.Fatal(err)
	}
	got := msgs(res)
	if len(got) != 3 {
		t.Fatalf("want 3 errors, got %q", got)
	}
}

func TestBrokenGoModIsAnError(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\nrequire (\n",
		"main.go": "package main\n\nfunc main() {}\n",
	})
	_, err := New(Options{}).Check(context.Background(), Request{Dir: dir, Files: []string{filepath.Join(dir, "main.go")}})
	if err == nil || !strings.Contains(err.Error(), "go.mod") {
		t.Fatalf("err = %v, want a go list error naming go.mod", err)
	}
}

func TestCancelled(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, module)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New(Options{}).Check(ctx, Request{Dir: dir, Files: []string{filepath.Join(dir, "app", "app.go")}}); err == nil {
		t.Fatal("a cancelled check succeeded")
	}
}

func TestModuleRoot(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod":     {Data: []byte("module a\n")},
		"sub/go.mod": {Data: []byte("module b\n")},
		"sub/x/y.go": {},
		"z/w.go":     {},
	}
	for file, want := range map[string]string{"sub/x/y.go": "sub", "z/w.go": ".", "main.go": "."} {
		if got, ok := ModuleRoot(fsys, file); !ok || got != want {
			t.Errorf("ModuleRoot(%s) = %q, %v; want %q", file, got, ok, want)
		}
	}
	if _, ok := ModuleRoot(fstest.MapFS{"a/b.go": {}}, "a/b.go"); ok {
		t.Error("file outside any module has a module root")
	}
}

func BenchmarkWarmEdit(b *testing.B) {
	dir := writeModule(b, module)
	l := New(Options{})
	ctx := context.Background()
	app := filepath.Join(dir, "app", "app.go")
	if _, err := l.Check(ctx, Request{Dir: dir, Files: []string{app}}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		src := module["app/app.go"] + "\nfunc G" + strconv.Itoa(i) + "() {}\n"
		res, err := l.Check(ctx, Request{Dir: dir, Files: []string{app}, Overlay: map[string][]byte{app: []byte(src)}})
		if err != nil || !res.Warm {
			b.Fatalf("warm=%v err=%v", res != nil && res.Warm, err)
		}
	}
}

// FuzzParsePos checks that positions from go list output never panic the parser and
// that what parses as a position is absolute.
func FuzzParsePos(f *testing.F) {
	for _, s := range []string{"", "-", "a.go:1:2", "/x/a.go:3", "dir/a.go:1:2:3", "a.go:x:1", "::", "C:\\a.go:1:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := parsePos(s, "/root")
		if p.Filename != "" && !filepath.IsAbs(p.Filename) {
			t.Fatalf("parsePos(%q) = %+v: relative file", s, p)
		}
		if p.Line < 0 || p.Column < 0 {
			t.Fatalf("parsePos(%q) = %+v: negative", s, p)
		}
	})
}

func TestParsePos(t *testing.T) {
	for in, want := range map[string]string{
		"app/a.go:7:2": "/root/app/a.go:7:2",
		"/abs/b.go:3":  "/abs/b.go:3",
		"c.go":         "/root/c.go",
		"":             "-",
		"app/a.go:x:2": "/root/app/a.go:x:2",
	} {
		if got := parsePos(in, "/root").String(); got != want {
			t.Errorf("parsePos(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestAbsentFileComesBack: a cache built from a tree without a file must not hide the
// file from a later check of the disk, which has it.
func TestAbsentFileComesBack(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	ctx := context.Background()
	files := map[string]string{"app/helper.go": "package app\n\nfunc helper() int { return 1 }\n", "app/caller.go": "package app\n\nvar _ = helper()\n"}
	for p, s := range module {
		files[p] = s
	}
	dir := writeModule(t, files)
	app := filepath.Join(dir, "app", "app.go")
	// A new import sends the first check to a cold load with the overlay.
	withOS := strings.Replace(module["app/app.go"], "\"strings\"\n", "\"strings\"\n\t\"os\"\n", 1) + "\nvar _ = os.Args\n"
	l := New(Options{})
	res, err := l.Check(ctx, Request{Dir: dir, Files: []string{app}, Overlay: map[string][]byte{app: []byte(withOS)},
		Absent: []string{filepath.Join(dir, "app", "helper.go")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(msgs(res), "\n"); !strings.Contains(got, "undefined: helper") {
		t.Fatalf("with the helper absent: errors %q, want undefined: helper", got)
	}
	res, err = l.Check(ctx, Request{Dir: dir, Files: []string{app}})
	if err != nil {
		t.Fatal(err)
	}
	if got := msgs(res); len(got) != 0 {
		t.Fatalf("the disk has the helper: errors %q, want none", got)
	}
}

// A file the host build excludes is in no package of a host check, and is type-checked,
// errors and all, in a build configuration that includes it; each configuration has its
// own cache entry.
func TestBuildConfiguration(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"go.mod":             "module example.com/m\n\ngo 1.22\n",
		"app/app.go":         "package app\n\nfunc Name() string { return \"app\" }\n",
		"app/app_windows.go": "package app\n\nimport \"os\"\n\nfunc Home() string { return os.GetEnv(\"USERPROFILE\") }\n",
		"app/app_tagged.go":  "//go:build special\n\npackage app\n\nfunc Special() int { return undefinedThing }\n",
	})
	l := New(Options{})
	ctx := context.Background()
	files := []string{filepath.Join(dir, "app", "app.go")}
	cases := []struct {
		build Build
		want  string // the error expected, "" for none
	}{
		{Build{}, ""},
		{Build{GOOS: "windows", GOARCH: "amd64"}, "app_windows.go:5: undefined: os.GetEnv"},
		{Build{Tags: []string{"special"}}, "app_tagged.go:5: undefined: undefinedThing"},
		{Build{}, ""},
	}
	for _, c := range cases {
		res, err := l.Check(ctx, Request{Dir: dir, Files: files, Build: c.build})
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(msgs(res), "\n")
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%+v: errors %q, want %q", c.build, got, c.want)
		}
	}
	if cold, warm := l.Stats(); cold != 3 || warm != 1 {
		t.Errorf("cold=%d warm=%d, want 3 cold loads (one per configuration) and 1 warm", cold, warm)
	}
}

// A dependency that does not compile for another port (it would have no export data
// there) still gives the checked package its types, and the checked package gets exactly
// its own errors, never the dependency's.
func TestBuildConfigurationBrokenDependency(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"go.mod":             "module example.com/m\n\ngo 1.22\n",
		"lib/lib.go":         "package lib\n\n// Name names the platform.\nfunc Name() string { return name }\n",
		"lib/lib_windows.go": "package lib\n\nconst name = undefinedOnWindows\n",
		"lib/lib_other.go":   "//go:build !windows\n\npackage lib\n\nconst name = \"other\"\n",
		"app/app.go":         "package app\n",
		"app/app_windows.go": "package app\n\nimport (\n\t\"strings\"\n\n\t\"example.com/m/lib\"\n)\n\nfunc Home() string { return strings.ToUpper(lib.Name()) + lib.Nmae() }\n",
	})
	l := New(Options{Forget: true})
	res, err := l.Check(context.Background(), Request{Dir: dir, Files: []string{filepath.Join(dir, "app", "app_windows.go")}, Build: Build{GOOS: "windows", GOARCH: "amd64"}})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(msgs(res), "\n")
	if !strings.Contains(got, "app_windows.go:9:") || !strings.Contains(got, "Nmae") || strings.Contains(got, "undefinedOnWindows") {
		t.Errorf("errors %q, want only app_windows.go's undefined lib.Nmae", got)
	}
}

// The warm path decides again, from the overlaid content, whether a file on the disk is
// in the package: an edit that adds a build constraint takes the file out, an edit that
// removes one brings an excluded file in (a warm check used the load's file list).
func TestWarmOverlayChangesConstraint(t *testing.T) {
	shorttest.Slow(t, "loads real modules with go list, several times")
	t.Parallel()
	ctx := context.Background()
	files := map[string]string{
		"app/helper.go": "package app\n\nfunc helper() int { return 1 }\n",
		"app/off.go":    "//go:build never\n\npackage app\n\nfunc off() int { return undefinedOff }\n",
	}
	for p, s := range module {
		files[p] = s
	}
	dir := writeModule(t, files)
	app, helper, off := filepath.Join(dir, "app", "app.go"), filepath.Join(dir, "app", "helper.go"), filepath.Join(dir, "app", "off.go")
	l := New(Options{})
	if _, err := l.Check(ctx, Request{Dir: dir, Files: []string{app}}); err != nil {
		t.Fatal(err)
	}
	caller := module["app/app.go"] + "\nvar _ = helper()\n"
	for _, c := range []struct {
		name    string
		overlay map[string][]byte
		want    string
	}{
		{"constraint added", map[string][]byte{app: []byte(caller), helper: []byte("//go:build never\n\n" + files["app/helper.go"])}, "undefined: helper"},
		{"constraint removed", map[string][]byte{off: []byte("\n\npackage app\n\nfunc off() int { return undefinedOff }\n")}, "undefined: undefinedOff"},
	} {
		res, err := l.Check(ctx, Request{Dir: dir, Files: []string{app}, Overlay: c.overlay})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(msgs(res), "\n"); !res.Warm || !strings.Contains(got, c.want) {
			t.Errorf("%s: warm %v, errors %q; want a warm check reporting %q", c.name, res.Warm, got, c.want)
		}
	}
}
