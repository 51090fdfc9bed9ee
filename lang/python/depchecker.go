package python

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/pydeps"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// DepChecker checks that every third-party package a change's Python files import is
// declared by the project and installed in its environment (design.md §5,
// hallucination). It holds no per-run state: the environment and the project
// declarations of one verification are kept in the request's Memo.
type DepChecker struct {
	g *syntax.Grammar
	// Locator finds the environment; its zero value reads VIRTUAL_ENV and runs python3.
	Locator pydeps.Locator
	// envs, when set, keeps environment indexes between verifications (NewWarmDepChecker).
	envs *pydeps.Cache
	// parse, when set, returns the trees the frontend parsed (nil: parse every file).
	parse func(src []byte) (*syntax.Node, error)
}

// NewDepChecker returns a checker that finds the environment the usual way, once per
// verification.
func NewDepChecker() *DepChecker { return &DepChecker{g: syntax.NewGrammar()} }

// NewWarmDepChecker returns a checker for long-lived processes: it keeps the index of an
// environment while its site-packages directories are unchanged, so a verification
// neither runs python3 nor reads the installed metadata again.
func NewWarmDepChecker() *DepChecker {
	return &DepChecker{g: syntax.NewGrammar(), envs: &pydeps.Cache{}}
}

// tree returns src's syntax tree, from the frontend's cache when it shares one.
func (c *DepChecker) tree(src []byte) (*syntax.Node, error) {
	if c.parse != nil {
		return c.parse(src)
	}
	return c.g.Parse(src)
}

// Problems reports, for the imports of the Python files of the change (at the head):
// unknown-package for a package neither installed nor declared, missing-dependency for
// one declared but not installed, undeclared-dependency for one installed but not
// declared. Imports of the standard library, of the project's own modules and relative
// imports are never dependencies. An optional import (in the body of a try statement
// that handles ImportError) is never reported: the code runs without the package, so it
// is neither required nor missing, and declaring an optional package is the project's
// choice. A TYPE_CHECKING import (or any import of a .pyi stub) is never executed and
// needs no runtime declaration, but what it names must exist: unknown-package still
// applies to it.
//
// A declaration file the change touches gets new-dependency for each requirement it adds
// (a supply-chain decision to review; the message says when nothing installed vouches
// for the name), and syntax-error when it cannot be read as pip would read it.
func (c *DepChecker) Problems(req *lang.Request) ([]lang.Problem, error) {
	st := &depState{c: c, req: req, projects: map[string]*pydeps.Project{}, local: map[string]bool{}, broken: map[string]bool{}}
	for _, f := range req.Changes.Files {
		if !f.Analyzable() || req.Focus != nil && !req.Focus[f.Path] {
			continue
		}
		var err error
		switch {
		case syntax.IsPython(f.Path):
			err = st.file(f)
		case pydeps.IsDeclarationFile(f.Path):
			err = st.declarations(f)
		}
		if err != nil {
			return nil, err
		}
	}
	return st.out, nil
}

// depState is one run's view of the projects and the environment.
type depState struct {
	c        *DepChecker
	req      *lang.Request
	projects map[string]*pydeps.Project // by directory of the importing file
	local    map[string]bool            // by dir + "\x00" + top-level name
	envOnce  sync.Once
	env      *pydeps.Env
	envErr   error
	// broken holds the declaration files reported as unreadable; out the problems.
	broken map[string]bool
	out    []lang.Problem
}

// declError reports a declaration file that cannot be read, once; other errors are
// returned.
func (st *depState) declError(err error) error {
	var de *pydeps.DeclError
	if !errors.As(err, &de) {
		return err
	}
	if !st.broken[de.File] {
		st.broken[de.File] = true
		st.out = append(st.out, lang.Problem{Kind: lang.SyntaxErrorKind, Location: lang.Location{File: de.File, Line: max(de.Line, 1), Column: de.Column},
			Message: de.Msg, Suggestion: "fix the declaration: pip refuses this file", Symbol: de.File})
	}
	return nil
}

// environment returns the index of the environment, built once per verification.
func (st *depState) environment() (*pydeps.Env, error) {
	st.envOnce.Do(func() {
		root := st.req.Changes.Root
		build := func() any {
			if st.c.envs != nil {
				env, err := st.c.envs.Env(st.req.Context, st.c.Locator, root)
				if err != nil {
					return err
				}
				return env
			}
			where, dirs, err := st.c.Locator.Locate(st.req.Context, root)
			if err != nil {
				return err
			}
			env, err := pydeps.ScanEnv(where, dirs)
			if err != nil {
				return err
			}
			return env
		}
		var v any
		if st.req.Memo != nil {
			v = st.req.Memo.Get("python/deps/env\x00"+root, build)
		} else {
			v = build()
		}
		if err, ok := v.(error); ok {
			st.envErr = err
			if st.req.Context.Err() == nil {
				// The interpreter or its site-packages failed, not the change: the
				// message says what to run (exit 2 with that line, not a crash).
				st.envErr = &lang.SetupError{Err: err}
			}
			return
		}
		st.env = v.(*pydeps.Env)
	})
	return st.env, st.envErr
}

// file checks the imports of one changed file.
func (st *depState) file(f *change.File) error {
	root, err := st.c.tree(f.Head)
	if err != nil {
		return fmt.Errorf("parse %s: %w", f.Path, err)
	}
	refs := syntax.Imports(root, f.Head)
	if len(refs) == 0 {
		return nil
	}
	proj, err := st.fileProject(f)
	if err != nil || proj == nil {
		return st.declError(err) // an unreadable declaration: what is declared is unknown
	}
	for _, r := range refs {
		if strings.HasSuffix(f.Path, ".pyi") {
			r.TypeOnly = true // a stub is read by type checkers only
		}
		if st.noDistribution(f.Path, r, proj) {
			continue
		}
		env, err := st.environment()
		if err != nil {
			return err
		}
		if p, ok := classify(f.Path, r, proj, env); ok && !st.preexisting(p, proj) {
			st.out = append(st.out, p)
		}
	}
	return nil
}

// fileProject returns the declarations that bind f: its own inline script metadata
// (PEP 723) when it has a block, else those of the project that holds it.
func (st *depState) fileProject(f *change.File) (*pydeps.Project, error) {
	script, err := pydeps.ParseScript(f.Path, f.Head)
	if err != nil || script != nil {
		if script == nil {
			return nil, err
		}
		return script.Project, nil
	}
	return st.project(path.Dir(f.Path))
}

// buildBackend reports whether a setup.py imports its build backend: setuptools is
// what runs a setup.py (PEP 517's fallback), provided by the build, not declared.
func buildBackend(file, top string) bool {
	return path.Base(file) == "setup.py" && (top == "setuptools" || top == "pkg_resources")
}

// project returns the declarations of the project that holds dir: the nearest
// directory at or above it with a pyproject.toml, setup.py, setup.cfg or
// requirements.txt; the repository root when there is none.
func (st *depState) project(dir string) (*pydeps.Project, error) {
	if p, ok := st.projects[dir]; ok {
		return p, nil
	}
	fsys := st.req.Changes.HeadFS
	var p *pydeps.Project
	var err error
	switch {
	case fsys == nil:
		p = &pydeps.Project{Dir: "."}
	case pydeps.IsProjectDir(fsys, dir) || dir == "." || dir == "/" || dir == "":
		key := "python/deps/project\x00" + dir
		v := any(nil)
		load := func() any {
			p, err := pydeps.LoadProject(fsys, dir)
			if err != nil {
				return err
			}
			return p
		}
		if st.req.Memo != nil {
			v = st.req.Memo.Get(key, load)
		} else {
			v = load()
		}
		if e, ok := v.(error); ok {
			return nil, e
		}
		p = v.(*pydeps.Project)
	default:
		p, err = st.project(path.Dir(dir))
		if err != nil {
			return nil, err
		}
	}
	st.projects[dir] = p
	return p, nil
}

// isLocal reports whether the top-level module name is the project's own: a module or
// package (regular or namespace) in the importing file's directory or one above it up
// to the repository root (Python puts the script's directory on sys.path, pytest the
// rootdir), in the project's directory or its src/, or the project's own name.
func (st *depState) isLocal(file string, proj *pydeps.Project, name string) bool {
	if proj.Name != "" && pydeps.Normalize(proj.Name) == pydeps.Normalize(name) {
		return true
	}
	var dirs []string
	if fsys := st.req.Changes.HeadFS; fsys != nil {
		dirs = codeRoots(fsys, proj.Dir)
	}
	for d := path.Dir(file); ; d = path.Dir(d) {
		dirs = append(dirs, d)
		if d == "." || d == "/" || d == "" {
			break
		}
	}
	for _, d := range dirs {
		if st.hasModule(d, name) {
			return true
		}
	}
	return false
}

// hasModule reports whether dir of the head tree holds module name as a file or a
// directory.
func (st *depState) hasModule(dir, name string) bool {
	k := dir + "\x00" + name
	if v, ok := st.local[k]; ok {
		return v
	}
	found := false
	if fsys := st.req.Changes.HeadFS; fsys != nil {
		for _, cand := range []string{name + ".py", name + ".pyi"} {
			if _, err := fs.Stat(fsys, path.Join(dir, cand)); err == nil {
				found = true
			}
		}
		if !found {
			// A package, regular or namespace: a directory that holds Python code.
			found = holdsPython(fsys, path.Join(dir, name))
		}
	}
	st.local[k] = found
	return found
}
