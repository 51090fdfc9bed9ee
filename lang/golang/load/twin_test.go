package load

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStandIns edits a package with in-package tests on the warm path with its test
// variant standing in for it, and requires the errors a check without stand-ins reports:
// the package is left out only where its variant says all its own check would, and is
// checked on its own where the variant hides one of its errors (a name or a method only
// a test file declares).
func TestStandIns(t *testing.T) {
	t.Parallel()
	const test = "package app\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { _ = F() }\n"
	cases := []struct {
		name      string
		test, app string            // the test file, and the edited app.go
		more      map[string]string // more files of the module
		also      map[string]string // more edited files, checked beside app.go
		alone     bool              // the package is checked on its own
		want      string            // an error the edit must be reported with, or none
	}{
		{name: "clean edit", test: test,
			app: "package app\n\nfunc F() int { return helper() }\n\nfunc helper() int { return 1 }\n"},
		{name: "error in the package", test: test, alone: true, want: "app.go:3: undefined: nope",
			app: "package app\n\nfunc F() int { return nope() }\n"},
		{name: "name only a test file declares", alone: true, want: "app.go:3: undefined: testHelper",
			test: test + "\nfunc testHelper() int { return 2 }\n",
			app:  "package app\n\nfunc F() int { return testHelper() }\n"},
		{name: "method only a test file declares", alone: true, want: "app.go:7: cannot use T{} (value of struct type T) as Sizer value in variable declaration: T does not implement Sizer (missing method Size)",
			test: test + "\nfunc (T) Size() int { return 0 }\n",
			app:  "package app\n\ntype T struct{}\n\ntype Sizer interface{ Size() int }\n\nvar _ Sizer = T{}\n\nfunc F() int { return 1 }\n"},
		{name: "test file shadows a builtin", alone: true,
			test: test + "\nfunc min(a, b int) int { return a }\n",
			app:  "package app\n\nfunc F() int { return min(1, 2) }\n"},
		{name: "method on a test type", test: test + "\ntype fake struct{}\n\nfunc (fake) Size() int { return 0 }\n",
			app: "package app\n\nfunc F() int { return 3 }\n"},
		{name: "imported by another checked package", alone: true,
			more: map[string]string{"use/use.go": "package use\n\nimport \"example.com/m/app\"\n\nvar _ = app.F()\n"},
			also: map[string]string{"use/use.go": "package use\n\nimport \"example.com/m/app\"\n\nvar _ = app.G()\n"},
			test: test, app: "package app\n\nfunc F() int { return 0 }\n\nfunc G() int { return 1 }\n"},
		// go vet skips most analyzers on an ill-typed variant: the package's own check
		// still gives its files' findings and its facts to its importers.
		{name: "error in a test file", alone: true, want: "app_test.go:7: cannot use \"x\" (untyped string constant) as int value in variable declaration",
			test: test + "\nvar _ int = \"x\"\n",
			app:  "package app\n\nfunc F() int { return 3 }\n"},
		// go/types drops an error about an invalid type after a first error, here a
		// test file's unused variable.
		{name: "follow-on error after a test file's", alone: true,
			want: "app.go:7: cannot use q.T{} (value of struct type q.T) as I value in variable declaration: q.T does not implement I (wrong type for method M)\n\t\thave M() invalid type\n\t\twant M() int",
			more: map[string]string{"q/q.go": "package q\n\ntype T struct{}\n\nfunc (T) M() Undefined { return nil }\n",
				"app/a_test.go": "package app\n\nfunc unused() { x := 1 }\n",
				"app/app.go":    "package app\n\nimport \"example.com/m/q\"\n\nvar _ q.T\n\nfunc F() int { return 0 }\n"},
			test: test,
			app:  "package app\n\nimport \"example.com/m/q\"\n\ntype I interface{ M() int }\n\nfunc F() int { var _ I = q.T{}; return 0 }\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{
				"go.mod":          "module example.com/m\n\ngo 1.22\n",
				"app/app.go":      "package app\n\nfunc F() int { return 0 }\n",
				"app/app_test.go": tc.test,
			}
			maps.Copy(files, tc.more)
			dir := writeModule(t, files)
			edits := map[string]string{"app/app.go": tc.app}
			maps.Copy(edits, tc.also)
			edit := editOf(dir, edits)
			ctx := context.Background()
			l := New(Options{})
			if _, err := l.Check(ctx, Request{Dir: dir, Files: edit.Files}); err != nil {
				t.Fatal(err)
			}
			stand := edit
			stand.StandIns = true
			got, err := l.Check(ctx, stand)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Warm {
				t.Fatal("the edit was not re-checked on the warm path")
			}
			want, err := New(Options{}).Check(ctx, edit)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := distinct(got), distinct(want); !slices.Equal(g, w) {
				t.Errorf("errors with stand-ins:\n%s\nwithout:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
			}
			if tc.want != "" && !slices.Contains(distinct(got), tc.want) {
				t.Errorf("errors %q lack %q", distinct(got), tc.want)
			}
			alone := slices.ContainsFunc(got.Packages, func(p *Package) bool { return p.ID == "example.com/m/app" })
			if alone != tc.alone {
				t.Errorf("package checked on its own = %v, want %v", alone, tc.alone)
			}
		})
	}
}

// editOf returns the request that checks the files of edits (module-relative) with
// their content.
func editOf(dir string, edits map[string]string) Request {
	req := Request{Dir: dir, Overlay: map[string][]byte{}}
	for _, name := range slices.Sorted(maps.Keys(edits)) {
		abs := filepath.Join(dir, filepath.FromSlash(name))
		req.Files, req.Overlay[abs] = append(req.Files, abs), []byte(edits[name])
	}
	return req
}

// distinct returns the result's errors, each once, sorted.
func distinct(res *Result) []string {
	out := msgs(res)
	slices.Sort(out)
	return slices.Compact(out)
}

// TestSortFiles: a re-check lists a package's files as go list does, the package's own
// before its tests', each by name, whatever the names.
func TestSortFiles(t *testing.T) {
	t.Parallel()
	files := []string{"/m/p/x_test.go", "/m/p/b.go", "/m/p/a_test.go", "/m/p/z.go"}
	sortFiles(files)
	if want := []string{"/m/p/b.go", "/m/p/z.go", "/m/p/a_test.go", "/m/p/x_test.go"}; !slices.Equal(files, want) {
		t.Fatalf("order %v, want %v", files, want)
	}
}
