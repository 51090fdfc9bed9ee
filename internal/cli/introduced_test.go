package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
)

// TestBreaksOnUnchangedLines: what a change breaks is reported where it breaks, even on
// lines and in files the change did not touch; what was broken before is not.
func TestBreaksOnUnchangedLines(t *testing.T) {
	shorttest.Slow(t, "runs the CLI through real git repositories and Go loads; siblings cover the path in -short")
	t.Parallel()
	const use = "package m\n\n// Double doubles the count.\nfunc Double() int { return count * 2 }\n"
	cases := []struct {
		name   string
		base   map[string]string
		change func(t *testing.T, dir string)
		code   int
		want   []string // substrings of the output
		absent []string // substrings the output must not have
	}{
		{
			name:   "type change breaks a use on an unchanged line",
			base:   map[string]string{"m.go": "package m\n\nvar count = 1\n", "use.go": use},
			change: writeStep(map[string]string{"m.go": "package m\n\nvar count = \"one\"\n"}),
			code:   1, want: []string{"use.go:4", "mismatched types string and untyped int"},
		},
		{
			name:   "removing the only use of an import",
			base:   map[string]string{"m.go": "package m\n\nimport \"strings\"\n\n// Trim trims.\nfunc Trim(s string) string {\n\treturn strings.TrimSpace(s)\n}\n"},
			change: writeStep(map[string]string{"m.go": "package m\n\nimport \"strings\"\n\n// Trim trims.\nfunc Trim(s string) string {\n\treturn s\n}\n"}),
			code:   1, want: []string{"m.go:3", `"strings" imported and not used`},
		},
		{
			name:   "deleting a helper's file",
			base:   map[string]string{"helper.go": "package m\n\nfunc helper() int { return 1 }\n", "caller.go": "package m\n\n// Caller calls.\nfunc Caller() int { return helper() }\n"},
			change: remove("helper.go"),
			code:   1, want: []string{"caller.go:4", "helper is not declared"},
		},
		{
			name:   "renaming a helper breaks a caller in another file",
			base:   map[string]string{"helper.go": "package m\n\nfunc helper() int { return 1 }\n", "caller.go": "package m\n\n// Caller calls.\nfunc Caller() int { return helper() }\n"},
			change: writeStep(map[string]string{"helper.go": "package m\n\nfunc helper2() int { return 1 }\n"}),
			code:   1, want: []string{"caller.go:4", "helper is not declared"},
		},
		{
			name:   "a compile error the base had is not reported",
			base:   map[string]string{"broken.go": "package m\n\nvar _ int = \"x\"\n", "m.go": "package m\n\n// A is a.\nconst A = 1\n"},
			change: writeStep(map[string]string{"m.go": "package m\n\n// A is a.\nconst A = 1\n\n// B is b.\nconst B = 2\n"}),
			code:   0, absent: []string{"broken.go"},
		},
		{
			name:   "a pre-existing error moved by an edit above it is not reported",
			base:   map[string]string{"m.go": "package m\n\nvar _ int = \"x\"\n"},
			change: writeStep(map[string]string{"m.go": "package m\n\n// A is a.\nconst A = 1\n\nvar _ int = \"x\"\n"}),
			code:   0, absent: []string{"m.go:6"},
		},
		{
			name:   "a second copy of a pre-existing error is reported once",
			base:   map[string]string{"m.go": "package m\n\nvar x = 1\n", "a.go": "package m\n\nvar _ int = \"x\"\n\nvar _ string = x\n", "b.go": "package m\n\nvar _ string = x\n"},
			change: writeStep(map[string]string{"m.go": "package m\n\nvar x = \"s\"\n"}),
			// At the base a.go:5 and b.go:3 are broken (x is an int); at the head they are
			// fine and a.go:3 stays as broken as before: nothing new.
			code: 0, absent: []string{"a.go:3"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"go.mod": goMod}
			for p, s := range c.base {
				files[p] = s
			}
			r := newRepo(t, files)
			c.change(t, r.Dir)
			code, out, errs := run(t, r.Dir, "", "diff")
			if code != c.code {
				t.Errorf("exit %d, want %d\n%s%s", code, c.code, out, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, a := range c.absent {
				if strings.Contains(out, a) {
					t.Errorf("output has %q:\n%s", a, out)
				}
			}
		})
	}
}

// TestIdenticalErrorsCountedOnce: two identical errors at the head against one at the base
// leave one new error, whatever lines they are on.
func TestIdenticalErrorsCountedOnce(t *testing.T) {
	t.Parallel()
	const shadowed = "package m\n\nfunc f() int {\n\thelper := func() int { return 1 }\n\treturn helper()\n}\n\nvar _ = helper()\n"
	r := newRepo(t, map[string]string{"go.mod": goMod, "a.go": shadowed})
	// Deleting the local helper breaks line 5 (now 4), an unchanged line, with the very
	// message line 8 (now 7) had at the base.
	r.Write(map[string]string{"a.go": strings.Replace(shadowed, "\thelper := func() int { return 1 }\n", "", 1)})
	code, out, _ := run(t, r.Dir, "", "diff")
	if code != 1 || strings.Count(out, "helper is not declared") != 1 {
		t.Errorf("exit %d, want 1 and one \"helper is not declared\":\n%s", code, out)
	}
}

// TestStagedSeesOnlyTheIndex: --staged verifies the tree the commit records. Untracked,
// ignored and unstaged files do not exist for it.
func TestStagedSeesOnlyTheIndex(t *testing.T) {
	t.Parallel()
	caller := "package m\n\n// Caller calls.\nfunc Caller() int { return helper() }\n"
	helper := "package m\n\nfunc helper() int { return 1 }\n"
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
	}{
		{"helper untracked", func(t *testing.T, dir string) {
			writeIn(t, dir, map[string]string{"caller.go": caller, "helper.go": helper})
			git(t, dir, "add", "caller.go")
		}},
		{"helper ignored", func(t *testing.T, dir string) {
			writeIn(t, dir, map[string]string{".gitignore": "helper.go\n"})
			git(t, dir, "add", ".gitignore")
			git(t, dir, "commit", "-q", "-m", "ignore")
			writeIn(t, dir, map[string]string{"caller.go": caller, "helper.go": helper})
			git(t, dir, "add", "caller.go")
		}},
		{"helper only in an unstaged modification", func(t *testing.T, dir string) {
			writeIn(t, dir, map[string]string{"caller.go": caller})
			git(t, dir, "add", "caller.go")
			writeIn(t, dir, map[string]string{"m.go": cleanGo + "\n" + strings.TrimPrefix(helper, "package m\n")})
		}},
		{"helper deleted from the index, still on disk", func(t *testing.T, dir string) {
			writeIn(t, dir, map[string]string{"caller.go": caller, "helper.go": helper})
			git(t, dir, "add", "caller.go", "helper.go")
			git(t, dir, "commit", "-q", "-m", "helper")
			git(t, dir, "rm", "-q", "--cached", "helper.go")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
			c.setup(t, r.Dir)
			code, out, errs := run(t, r.Dir, "", "diff", "--staged")
			if code != 1 || !strings.Contains(out, "caller.go:4") || !strings.Contains(out, "helper is not declared") {
				t.Errorf("exit %d, want 1 with helper is not declared at caller.go:4\n%s%s", code, out, errs)
			}
		})
	}
}

// TestStagedSeesOnlyTheIndexInImportedPackages: the packages a staged file imports are
// checked as the index has them too.
func TestStagedSeesOnlyTheIndexInImportedPackages(t *testing.T) {
	shorttest.Slow(t, "runs the CLI through real git repositories and Go loads; siblings cover the path in -short")
	t.Parallel()
	const util = "// Package util helps.\npackage util\n\n// A is a.\nfunc A() int { return 1 }\n"
	const caller = "package m\n\nimport \"example.com/m/util\"\n\n// Caller calls.\nfunc Caller() int { return util.B() }\n"
	const b = "package util\n\n// B is b.\nfunc B() int { return 2 }\n"
	cases := []struct {
		name  string
		setup map[string]string // written after caller.go is staged
	}{
		{"helper untracked in the imported package", map[string]string{"util/b.go": b}},
		{"helper in an unstaged modification of the imported package", map[string]string{"util/util.go": util + strings.TrimPrefix(b, "package util\n")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, "util/util.go": util})
			writeIn(t, r.Dir, map[string]string{"caller.go": caller})
			git(t, r.Dir, "add", "caller.go")
			writeIn(t, r.Dir, c.setup)
			code, out, errs := run(t, r.Dir, "", "diff", "--staged")
			if code != 1 || !strings.Contains(out, "caller.go:6") {
				t.Errorf("exit %d, want 1 with a finding at caller.go:6\n%s%s", code, out, errs)
			}
			// The working tree as a whole is fine.
			git(t, r.Dir, "add", "-A")
			if code, out, errs := run(t, r.Dir, "", "diff", "--staged"); code != 0 {
				t.Errorf("everything staged: exit %d, want 0\n%s%s", code, out, errs)
			}
		})
	}
}

func writeStep(files map[string]string) func(*testing.T, string) {
	return func(t *testing.T, dir string) { writeIn(t, dir, files) }
}

func remove(name string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
}

func writeIn(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	(&testrepo.Repo{Dir: dir}).GitTB(t, args...)
}

// TestPatchSeesOnlyHeadAndThePatch: --patch verifies HEAD with the patch applied; files
// only the working tree has do not exist for it.
func TestPatchSeesOnlyHeadAndThePatch(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	writeIn(t, r.Dir, map[string]string{"helper.go": "package m\n\nfunc helper() int { return 1 }\n"})
	patch := "diff --git a/caller.go b/caller.go\nnew file mode 100644\n--- /dev/null\n+++ b/caller.go\n@@ -0,0 +1,4 @@\n+package m\n+\n+// Caller calls.\n+func Caller() int { return helper() }\n"
	code, out, errs := run(t, r.Dir, patch, "diff", "--patch", "-")
	if code != 1 || !strings.Contains(out, "caller.go:4") {
		t.Errorf("exit %d, want 1 with a finding at caller.go:4\n%s%s", code, out, errs)
	}
}
