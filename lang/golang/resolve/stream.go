package resolve

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// way is how a diff checks the host build of a unit.
type way int

const (
	byCost     way = iota // streamWay decides
	perPackage            // the per-package load (loadView)
	streamed              // the stream, whatever its cost
)

// streamWay says how checkHost may check the host build of u: by streaming the module
// (load.Loader.CheckEach) and, when choose is set, only if choose agrees at the cost
// CheckEach estimates.
//
// A check of the disk with no base view always streams (design.md §9). A diff streams
// when its head (or base view) is the disk but for the files of the change, which the
// overlay then carries, and it spans more than one package: then the per-package load
// may have go list compile every changed package and everything importing one, where
// the stream type-checks the module's packages from source once. A head that is not
// the disk (the index, a patch, a commit) keeps the per-package load, which compares
// the packages the checked ones import with the head tree (loadView); so does a head
// with git-ignored Go files in packages the change does not touch, which the stream
// would read.
func streamWay(p *lang.Request, u *unit, req load.Request) (stream bool, choose func(load.Cost) bool) {
	set := p.Changes
	switch {
	case set.NoBase:
		return set.OnDisk, nil
	case !set.OnDisk || !u.inModule || u.way == perPackage || u.way == byCost && dirCount(req.Files) < 2:
		return false, nil
	}
	if ign, err := ignoredElsewhere(p, u); err != nil || ign {
		return false, nil
	}
	if u.way == streamed {
		return true, nil
	}
	return true, load.Cost.StreamCheaper
}

// dirCount counts the directories of files.
func dirCount(files []string) int {
	dirs := map[string]bool{}
	for _, f := range files {
		dirs[filepath.Dir(f)] = true
	}
	return len(dirs)
}

// ignoredElsewhere reports whether the module of u holds git-ignored Go files besides
// those of the changed packages (which newRequest leaves out already): the head does
// not have them, and the stream, which reads the disk, would.
func ignoredElsewhere(p *lang.Request, u *unit) (bool, error) {
	set := p.Changes
	if set.Ignored == nil {
		return false, nil
	}
	var paths []string
	root := filepath.Join(set.Root, filepath.FromSlash(u.dir))
	err := fs.WalkDir(os.DirFS(root), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: go list will say so
		}
		name := d.Name()
		if d.IsDir() && rel != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return fs.SkipDir
		}
		if full := path.Join(u.dir, rel); !d.IsDir() && strings.HasSuffix(name, ".go") && set.File(full) == nil && !slices.Contains(u.ignored, full) {
			paths = append(paths, full)
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	ign, err := set.Ignored(p.Context, paths)
	return len(ign) > 0, err
}
