package resolve

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"
)

// TestMirror: the mirror pyright checks holds the project's Python files and pyright's
// configuration, and nothing of hidden directories, virtual environments, caches,
// node_modules or links.
func TestMirror(t *testing.T) {
	fsys := fstest.MapFS{
		"pyproject.toml":             {Data: []byte("[project]\n")},
		"pyrightconfig.json":         {Data: []byte("{}")},
		"README.md":                  {Data: []byte("x")},
		"pkg/__init__.py":            {Data: []byte("")},
		"pkg/mod.py":                 {Data: []byte("x = 1\n")},
		"pkg/mod.pyi":                {Data: []byte("x: int\n")},
		"pkg/py.typed":               {Data: []byte("")},
		"pkg/sub/pyproject.toml":     {Data: []byte("")},
		"pkg/link.py":                {Data: []byte("/etc/passwd"), Mode: fs.ModeSymlink},
		".git/hooks/x.py":            {Data: []byte("")},
		".venv/lib/site.py":          {Data: []byte("")},
		"env/pyvenv.cfg":             {Data: []byte("")},
		"env/lib/python3/site.py":    {Data: []byte("")},
		"web/node_modules/x/a.py":    {Data: []byte("")},
		"pkg/__pycache__/mod.py":     {Data: []byte("")},
		"lib/site-packages/thing.py": {Data: []byte("")},
		"tests/test_mod.py":          {Data: []byte("def test(): pass\n")},
	}
	dir := t.TempDir()
	if err := mirror(fsys, dir); err != nil {
		t.Fatal(err)
	}
	var got []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"pkg/__init__.py", "pkg/mod.py", "pkg/mod.pyi", "pkg/py.typed", "pyproject.toml", "pyrightconfig.json", "tests/test_mod.py"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("mirrored %q\nwant %q", got, want)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "pkg", "mod.py")); string(data) != "x = 1\n" {
		t.Errorf("pkg/mod.py mirrored as %q", data)
	}
}
