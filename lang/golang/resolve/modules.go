package resolve

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lang/golang/modfetch"
)

// Modules is what bringing the modules of one verification into the module cache found
// (PrepareModules), shared by its passes through the Memo.
type Modules struct {
	once sync.Once
	set  *change.Set // the change set of the head pass that prepared them
	err  error
	dirs map[string]*modState // by repository-relative module directory
}

// modState is what was fetched for one module of the change.
type modState struct {
	trusted *modfile.File // the trusted go.mod; nil when there is none
	added   modfetch.Added
	// infos are the proxies' answers about the module paths only the change requires.
	infos map[string]modfetch.Info
	// youngAge is the policy's threshold for young-package.
	youngAge time.Duration
}

// modulesKey is the key of the verification's Modules in a lang.Memo.
const modulesKey = "golang.modules"

// PrepareModules brings what the Go modules of the change need into the module cache,
// once per verification, before any package is loaded (design.md §4.5): for each module
// the change's Go files or module files are in, what its trusted go.mod and go.sum require
// (Fetcher.Trusted), then, when the head go.mod differs, what only the change requires
// (Fetcher.Added) and what the proxies say of the new module paths. A vendored module
// fetches nothing. The error is a lang.SetupError when something could not be fetched
// here. A base-view pass fetches nothing: its tree is the trusted one, which its head
// pass already fetched.
func PrepareModules(req *lang.Request, f *modfetch.Fetcher, loader *load.Loader) (*Modules, error) {
	if req.Memo == nil {
		m := &Modules{}
		m.set, m.err = req.Changes, m.prepare(req, f, loader)
		return m, m.err
	}
	m := req.Memo.Get(modulesKey, func() any { return &Modules{} }).(*Modules)
	if req.Focus != nil {
		return m, nil
	}
	m.once.Do(func() { m.set, m.err = req.Changes, m.prepare(req, f, loader) })
	return m, m.err
}

// state returns what was fetched for the module at dir, for the head pass that fetched
// it (nil for any other pass, or a module not prepared).
func (m *Modules) state(set *change.Set, dir string) *modState {
	if m == nil || m.set != set {
		return nil
	}
	return m.dirs[dir]
}

func (m *Modules) prepare(req *lang.Request, f *modfetch.Fetcher, loader *load.Loader) error {
	set := req.Changes
	head := set.HeadFS
	if head == nil {
		head = os.DirFS(set.Root)
	}
	m.dirs = map[string]*modState{}
	var dirs []string
	us, _ := units(set, head) // their problems are the resolver's to report
	for d, u := range us {
		if u.inModule {
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		st, err := prepareModule(req, f, loader, head, dir)
		if err != nil {
			return err
		}
		m.dirs[dir] = st
	}
	return nil
}

// prepareModule fetches what the module at dir (repository-relative) needs.
func prepareModule(req *lang.Request, f *modfetch.Fetcher, loader *load.Loader, head fs.FS, dir string) (*modState, error) {
	abs := filepath.Join(req.Changes.Root, filepath.FromSlash(dir))
	st := &modState{youngAge: req.Policy.Hallucination.YoungPackageAge()}
	trustedMod, trustedSum := trustedModFiles(req, head, dir)
	if trustedMod != nil {
		st.trusted, _ = modfile.Parse("go.mod", trustedMod, nil)
	}
	if loader.Vendored(abs) {
		return st, nil
	}
	if trustedMod != nil {
		if err := f.Trusted(req.Context, abs, trustedMod, trustedSum); err != nil {
			return nil, err
		}
	}
	headMod, err := fs.ReadFile(head, path.Join(dir, "go.mod"))
	if req.Changes.NoBase || err != nil || bytes.Equal(headMod, trustedMod) {
		return st, nil
	}
	if st.added, err = f.Added(req.Context, abs, headMod, trustedMod, trustedSum, req.Policy.Limits.DownloadSize()); err != nil {
		return nil, err
	}
	paths := newModulePaths(st.added, st.trusted)
	for _, m := range st.added.NotFound {
		paths = append(paths, m.Path) // has the module no such version, or no versions at all?
	}
	st.infos, err = f.Lookup(req.Context, paths)
	return st, err
}

// trustedModFiles returns the go.mod and go.sum of the module at dir as the trusted side
// has them: the trusted base's (lang.Request.Trusted, for in-memory edits over the
// working tree), the base's, or, in check mode (no base), the files checked.
func trustedModFiles(req *lang.Request, head fs.FS, dir string) (goMod, goSum []byte) {
	read := func(name string) []byte {
		p := path.Join(dir, name)
		switch {
		case req.Trusted != nil:
			if b, ok := req.Trusted(p); ok {
				return b
			}
			return nil
		case req.Changes.NoBase || req.Changes.BaseFS == nil:
			b, _ := fs.ReadFile(head, p)
			return b
		}
		b, _ := fs.ReadFile(req.Changes.BaseFS, p)
		return b
	}
	return read("go.mod"), read("go.sum")
}

// newModulePaths returns the module paths the change requires that the trusted go.mod
// requires at no version: the proxies are asked whether they exist and how old they are.
func newModulePaths(added modfetch.Added, trusted *modfile.File) []string {
	have := map[string]bool{}
	if trusted != nil {
		for _, r := range trusted.Require {
			have[r.Mod.Path] = true
		}
		for _, r := range trusted.Replace {
			have[r.New.Path] = true
		}
	}
	var out []string
	for _, m := range added.Modules {
		if !have[m.Path] {
			have[m.Path] = true
			out = append(out, m.Path)
		}
	}
	return out
}
