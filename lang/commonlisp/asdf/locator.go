package asdf

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// Root is one entry of a source registry: a directory whose .asd files are found
// directly in it, or (Tree) anywhere below it.
type Root struct {
	Dir  string
	Tree bool
}

// String prints the root as ASDF configuration does: "(:tree \"/x/\")".
func (r Root) String() string {
	if r.Tree {
		return `(:tree "` + r.Dir + `")`
	}
	return `(:directory "` + r.Dir + `")`
}

// Env is what DefaultRoots needs of the environment.
type Env struct {
	Home string
	// Getenv reads an environment variable (os.Getenv when nil).
	Getenv func(string) string
}

// DefaultRoots returns the source registry ASDF 3 uses: CL_SOURCE_REGISTRY first (either
// a colon-separated list where a directory ending in "//" is a tree and an empty entry
// inherits the defaults, or a (:source-registry …) form), then the defaults:
// ~/common-lisp/ (tree), ~/.sbcl/systems/, $XDG_DATA_HOME/common-lisp/systems/ and
// source/ (tree), each of $XDG_DATA_DIRS (default /usr/local/share:/usr/share) likewise
// (Debian installs to /usr/share/common-lisp/source/), and Quicklisp's
// ~/quicklisp/local-projects/ and ~/quicklisp/dists/*/software/ (trees).
func DefaultRoots(env Env) []Root {
	getenv := env.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	roots, inherit := parseRegistry(getenv("CL_SOURCE_REGISTRY"), env.Home)
	if !inherit {
		return roots
	}
	return append(roots, defaultRoots(env.Home, getenv)...)
}

func defaultRoots(home string, getenv func(string) string) []Root {
	var roots []Root
	if home != "" {
		roots = append(roots, Root{Dir: filepath.Join(home, "common-lisp"), Tree: true},
			Root{Dir: filepath.Join(home, ".sbcl", "systems")})
	}
	data := getenv("XDG_DATA_HOME")
	if data == "" && home != "" {
		data = filepath.Join(home, ".local", "share")
	}
	dirs := []string{data}
	if d := getenv("XDG_DATA_DIRS"); d != "" {
		dirs = append(dirs, filepath.SplitList(d)...)
	} else {
		dirs = append(dirs, "/usr/local/share", "/usr/share")
	}
	for _, d := range dirs {
		if d != "" {
			roots = append(roots, Root{Dir: filepath.Join(d, "common-lisp", "systems")},
				Root{Dir: filepath.Join(d, "common-lisp", "source"), Tree: true})
		}
	}
	if home != "" {
		ql := filepath.Join(home, "quicklisp")
		roots = append(roots, Root{Dir: filepath.Join(ql, "local-projects"), Tree: true})
		dists, _ := filepath.Glob(filepath.Join(ql, "dists", "*", "software"))
		for _, d := range dists {
			roots = append(roots, Root{Dir: d, Tree: true})
		}
	}
	return roots
}

// parseRegistry parses CL_SOURCE_REGISTRY; inherit says whether the defaults follow.
func parseRegistry(v, home string) (roots []Root, inherit bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, true
	}
	if strings.HasPrefix(v, "(") {
		return parseRegistryForm(v, home)
	}
	for _, p := range strings.Split(v, ":") {
		switch {
		case p == "":
			inherit = true
		case strings.HasSuffix(p, "//"):
			roots = append(roots, Root{Dir: trimSlash(p), Tree: true})
		default:
			roots = append(roots, Root{Dir: p})
		}
	}
	return roots, inherit
}

// parseRegistryForm parses (:source-registry (:tree dir) (:directory dir)
// :inherit-configuration …), where dir is a string or (:home "rel").
func parseRegistryForm(v, home string) (roots []Root, inherit bool) {
	rf := reader.Read([]byte(v), reader.Options{})
	if len(rf.Forms) != 1 || rf.Forms[0].Kind != reader.List {
		return nil, true
	}
	for _, d := range rf.Forms[0].Items {
		switch {
		case d.IsKeyword("INHERIT-CONFIGURATION"):
			inherit = true
		case d.Kind == reader.List && len(d.Items) == 2 && (d.Items[0].IsKeyword("TREE") || d.Items[0].IsKeyword("DIRECTORY")):
			if dir := registryDir(d.Items[1], home); dir != "" {
				roots = append(roots, Root{Dir: dir, Tree: d.Items[0].IsKeyword("TREE")})
			}
		}
	}
	return roots, inherit
}

func registryDir(f *reader.Form, home string) string {
	switch {
	case f.Kind == reader.String || f.Kind == reader.Pathname:
		return trimSlash(f.Name)
	case f.Kind == reader.List && len(f.Items) == 2 && f.Items[0].IsKeyword("HOME") && f.Items[1].Kind == reader.String && home != "":
		return filepath.Join(home, f.Items[1].Name)
	}
	return ""
}

// Locator finds systems' .asd files in a source registry. It scans each root once, on
// first need, and is safe for concurrent use.
type Locator struct {
	roots []Root
	mu    sync.Mutex
	found []map[string]string // per root: system name → .asd path, nil until scanned
}

// NewLocator returns a locator over roots, searched in order.
func NewLocator(roots []Root) *Locator {
	return &Locator{roots: roots, found: make([]map[string]string, len(roots))}
}

// Roots returns the roots searched, in order.
func (l *Locator) Roots() []Root { return append([]Root(nil), l.roots...) }

// Find returns the .asd file that defines system name: the file named after the
// primary system (the part of name before the first '/'), found in the first root that
// has one.
func (l *Locator) Find(name string) (string, bool) {
	primary, _, _ := strings.Cut(name, "/")
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, r := range l.roots {
		if l.found[i] == nil {
			l.found[i] = scan(r)
		}
		if p, ok := l.found[i][primary]; ok {
			return p, true
		}
	}
	return "", false
}

// scan lists the .asd files of a root; in a tree the first found in lexical walk
// order wins, and directories ASDF excludes (version control, hidden) are skipped.
func scan(r Root) map[string]string {
	out := map[string]string{}
	add := func(p string) {
		name := strings.TrimSuffix(filepath.Base(p), ".asd")
		if _, dup := out[name]; !dup {
			out[name] = p
		}
	}
	if !r.Tree {
		matches, _ := filepath.Glob(filepath.Join(r.Dir, "*.asd"))
		sort.Strings(matches)
		for _, m := range matches {
			add(m)
		}
		return out
	}
	walkTree(r.Dir, map[string]bool{}, add)
	return out
}

// walkTree calls add with every .asd file below dir in lexical order, following
// symbolic links to directories (as ASDF does; Quicklisp's local-projects is often
// links) and visiting each real directory once.
func walkTree(dir string, seen map[string]bool, add func(string)) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil || seen[real] {
		return
	}
	seen[real] = true
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	var subdirs []string
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			st, err := os.Stat(p)
			isDir = err == nil && st.IsDir()
		}
		switch {
		case isDir && !excluded(e.Name()):
			subdirs = append(subdirs, p)
		case !isDir && strings.HasSuffix(e.Name(), ".asd"):
			add(p)
		}
	}
	for _, d := range subdirs {
		walkTree(d, seen, add)
	}
}

func excluded(dir string) bool {
	return strings.HasPrefix(dir, ".") || dir == "_darcs" || dir == "CVS" || dir == "~.dep" || dir == "~.dot"
}

// trimSlash drops trailing slashes but keeps the root directory.
func trimSlash(p string) string {
	if t := strings.TrimRight(p, "/"); t != "" {
		return t
	}
	return "/"
}
