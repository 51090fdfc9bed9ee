package engine

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/check"
)

// RelativePaths makes s repository-relative as relativePaths does a message, for text
// that does not go through the processors (the reason of an unverified report).
func RelativePaths(root, s string) string {
	if r := newPathRewriter(root); r != nil {
		return r.Replace(s)
	}
	return s
}

// relativePaths makes every message repository-relative (golangci-lint's path
// prettifier): a tool's message that names a file by its absolute path ("found packages
// m (a.go) and n (b.go) in /tmp/ci-1234/repo/pkg") names it from the repository root,
// and the caches and temporary directory a toolchain works in are named by their
// variables ($GOMODCACHE, $GOCACHE, $TMPDIR), so a finding reads, and fingerprints, the
// same on every machine.
func relativePaths(pass *check.Pass, items []item) []item {
	r := newPathRewriter(pass.Changes.Root)
	if r == nil {
		return items
	}
	for i := range items {
		f := &items[i].f
		f.Message = r.Replace(f.Message)
		f.Suggestion = r.Replace(f.Suggestion)
		if len(f.Related) > 0 {
			rel := append([]check.Related(nil), f.Related...)
			for j := range rel {
				rel[j].Message = r.Replace(rel[j].Message)
			}
			f.Related = rel
		}
	}
	return items
}

// newPathRewriter replaces the repository root (as given and with its symbolic links
// resolved) and the Go caches and temporary directory, longest first so that a root
// inside the temporary directory is named from the root.
func newPathRewriter(root string) *strings.Replacer {
	type dir struct{ path, name string }
	var dirs []dir
	add := func(path, name string) {
		if path == "" || !filepath.IsAbs(path) || filepath.Dir(path) == path {
			return
		}
		path = filepath.Clean(path)
		dirs = append(dirs, dir{path, name})
		if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
			dirs = append(dirs, dir{real, name})
		}
	}
	if root != "" {
		add(root, "")
	}
	add(goDir("GOMODCACHE", "pkg/mod"), "$GOMODCACHE")
	add(goDir("GOCACHE", ""), "$GOCACHE")
	add(os.TempDir(), "$TMPDIR")
	if len(dirs) == 0 {
		return nil
	}
	sort.SliceStable(dirs, func(i, j int) bool { return len(dirs[i].path) > len(dirs[j].path) })
	var pairs []string
	sep := string(filepath.Separator)
	for _, d := range dirs {
		if d.name == "" { // the root: "root/a.go" is "a.go", "root" alone is "."
			pairs = append(pairs, d.path+sep, "", d.path, ".")
			continue
		}
		pairs = append(pairs, d.path, d.name)
	}
	return strings.NewReplacer(pairs...)
}

// goDir is the Go cache directory a variable names, or its default: GOMODCACHE under
// the first GOPATH entry (default ~/go), GOCACHE in the user's cache directory.
func goDir(env, underGOPATH string) string {
	if v := os.Getenv(env); v != "" {
		return v
	}
	if underGOPATH != "" {
		gopath := filepath.SplitList(os.Getenv("GOPATH"))
		if len(gopath) > 0 && gopath[0] != "" {
			return filepath.Join(gopath[0], underGOPATH)
		}
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, "go", underGOPATH)
		}
		return ""
	}
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "go-build")
	}
	return ""
}
