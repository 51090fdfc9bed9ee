package inputs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var testModule = map[string]string{
	"go.mod":      "module example.com/m\n\ngo 1.22\n\nrequire golang.org/x/mod v0.20.0\n",
	"go.sum":      "",
	"a/a.go":      "package a\n",
	"b/b.go":      "package b\n\nimport (\n\t\"fmt\"\n\t\"example.com/m/a\"\n\t\"golang.org/x/mod/semver\"\n)\n",
	"b/b_test.go": "package b\n\nimport \"example.com/m/c\"\n",
	"c/c.go":      "package c\n",
	"d/d.go":      "package d\n",
}

var dirs = []string{"a", "b", "c", "d"}

func digests(t *testing.T, root string) map[string][]byte {
	t.Helper()
	d, err := Digests(context.Background(), root, dirs)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDigestsFollowImports: a directory's digest changes with its own Go files and those
// of the packages it imports, tests included, transitively, and with go.mod; not with an
// unrelated package.
func TestDigestsFollowImports(t *testing.T) {
	for _, c := range []struct {
		name    string
		edit    map[string]string
		changed map[string]bool
	}{
		{"a dependency", map[string]string{"a/a.go": "package a\n\nconst X = 1\n"}, map[string]bool{"a": true, "b": true}},
		{"a test's dependency", map[string]string{"c/c.go": "package c\n\nconst Y = 1\n"}, map[string]bool{"b": true, "c": true}},
		{"a file git may ignore", map[string]string{"d/gen.go": "package d\n"}, map[string]bool{"d": true}},
		{"an assembly file", map[string]string{"a/a_amd64.s": "TEXT ·f(SB),0,$0\n"}, map[string]bool{"a": true, "b": true}},
		{"go.mod", map[string]string{"go.mod": testModule["go.mod"] + "\n"}, map[string]bool{"a": true, "b": true, "c": true, "d": true}},
		{"go.sum", map[string]string{"go.sum": "x\n"}, map[string]bool{"a": true, "b": true, "c": true, "d": true}},
	} {
		root := t.TempDir()
		write(t, root, testModule)
		before := digests(t, root)
		write(t, root, c.edit)
		after := digests(t, root)
		for _, d := range dirs {
			if before[d] == nil || after[d] == nil {
				t.Fatalf("%s: %s has no digest", c.name, d)
			}
			if changed := !bytes.Equal(before[d], after[d]); changed != c.changed[d] {
				t.Errorf("%s: digest of %s changed = %v, want %v", c.name, d, changed, c.changed[d])
			}
		}
	}
}

// TestDigestsUncacheable: what the digest cannot name leaves the directories that depend
// on it without one.
func TestDigestsUncacheable(t *testing.T) {
	for _, c := range []struct {
		name    string
		edit    map[string]string
		without []string
	}{
		{"an import no requirement covers", map[string]string{"a/a.go": "package a\n\nimport \"github.com/nobody/x\"\n"}, []string{"a", "b"}},
		{"a local replace", map[string]string{"go.mod": testModule["go.mod"] + "\nreplace golang.org/x/mod => ../mod\n"}, dirs},
		{"a vendor directory", map[string]string{"vendor/modules.txt": ""}, dirs},
		{"a workspace", map[string]string{"go.work": "go 1.22\n\nuse .\n"}, dirs},
		{"a nested module", map[string]string{"a/go.mod": "module example.com/m/a\n"}, []string{"b"}},
	} {
		root := t.TempDir()
		write(t, root, testModule)
		write(t, root, c.edit)
		got := digests(t, root)
		for _, d := range c.without {
			if got[d] != nil {
				t.Errorf("%s: %s has a digest", c.name, d)
			}
		}
		if len(c.without) < len(dirs) && got["d"] == nil {
			t.Errorf("%s: the unrelated d lost its digest", c.name)
		}
	}
}

// BenchmarkDigests names the inputs of every package of this repository, as a
// whole-repository check does before it can replay anything.
func BenchmarkDigests(b *testing.B) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		b.Fatal(err)
	}
	var all []string
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == ".git" || d.Name() == "testdata" {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, p)
		all = append(all, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Digests(context.Background(), root, all); err != nil {
			b.Fatal(err)
		}
	}
}
