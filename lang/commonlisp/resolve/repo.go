package resolve

import (
	"io/fs"
	"path"
	"strings"

	"github.com/agentverify/agentverify/lang/commonlisp/asdf"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// maxRepoEntries bounds the directory entries walked to find the repository's systems.
const maxRepoEntries = 200000

// repoSystems finds the systems the repository itself defines: a dependency on one of
// them is the repository's code, read from the change's head, not a system installed
// elsewhere. It walks the tree once, when first asked.
type repoSystems struct {
	features []string
	dirs     map[string]string // system name → directory of its .asd file
}

// dir returns the directory of the .asd file that defines system name (or, for
// "primary/sub", primary) in the repository.
func (r *repoSystems) dir(head fs.FS, name string) (string, bool) {
	if r.dirs == nil {
		r.scan(head)
	}
	if d, ok := r.dirs[name]; ok {
		return d, true
	}
	primary, _, _ := strings.Cut(name, "/")
	d, ok := r.dirs[primary]
	return d, ok
}

func (r *repoSystems) scan(head fs.FS) {
	r.dirs = map[string]string{}
	n := 0
	_ = fs.WalkDir(head, ".", func(p string, e fs.DirEntry, err error) error {
		n++
		switch {
		case err != nil:
			return nil
		case n > maxRepoEntries:
			return fs.SkipAll
		case e.IsDir() && p != "." && (strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules"):
			return fs.SkipDir
		case e.IsDir() || !strings.HasSuffix(strings.ToLower(p), ".asd") || !e.Type().IsRegular():
			return nil
		}
		src, err := fs.ReadFile(head, p)
		if err != nil {
			return nil
		}
		for _, s := range asdf.Parse(p, src, reader.Options{Features: r.features}).Systems {
			if _, dup := r.dirs[s.Name]; !dup {
				r.dirs[s.Name] = path.Dir(p)
			}
		}
		return nil
	})
}
