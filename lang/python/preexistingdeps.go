package python

import (
	"bytes"
	"io/fs"
	"path"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/pydeps"
	"github.com/agentverify/agentverify/lang/python/pyright"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// preexisting reports whether an undeclared dependency p (of the project proj) is a
// condition the base already had project-wide: a source module of the same project at
// the base imports the same top-level module at run time, and the base's declarations do
// not declare it either. One more use of it is not what introduced the condition
// (design.md §3); a first use, or a declaration the change removed, is.
func (st *depState) preexisting(p lang.Problem, proj *pydeps.Project) bool {
	set := st.req.Changes
	if p.Kind != lang.UndeclaredDependency || set.NoBase || set.BaseFS == nil {
		return false
	}
	name := p.Symbol
	key := "python/deps/base-import\x00" + proj.Dir + "\x00" + name
	find := func() any { return st.baseImports(proj.Dir, name) }
	var v any
	if st.req.Memo != nil {
		v = st.req.Memo.Get(key, find)
	} else {
		v = find()
	}
	if !v.(bool) {
		return false
	}
	base, err := pydeps.LoadProject(set.BaseFS, proj.Dir)
	if err != nil {
		return false
	}
	for _, k := range pydeps.Candidates(name) {
		if base.Declared(k) != nil {
			return false
		}
	}
	return true
}

// baseImports reports whether a source module under dir of the base tree imports the
// top-level module name at run time (not guarded, not only for type checkers).
func (st *depState) baseImports(dir, name string) bool {
	fsys := st.req.Changes.BaseFS
	found := false
	_ = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case found:
			return fs.SkipAll
		case err != nil:
			return fs.SkipDir
		case d.IsDir() && p != dir && pyright.SkipDir(fsys, p):
			return fs.SkipDir
		case d.IsDir() || !d.Type().IsRegular() || path.Ext(p) != ".py" || syntax.RoleOf(p) != syntax.Source:
			return nil
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil || !bytes.Contains(src, []byte(name)) {
			return nil
		}
		found = st.importsAtRunTime(src, name)
		return nil
	})
	return found
}

// importsAtRunTime reports whether src imports the top-level module name outside a
// guard and a TYPE_CHECKING block.
func (st *depState) importsAtRunTime(src []byte, name string) bool {
	root, err := st.c.tree(src)
	if err != nil {
		return false
	}
	for _, r := range syntax.Imports(root, src) {
		if r.Level == 0 && syntax.TopLevel(r.Module) == name && !r.Guarded && !r.TypeOnly {
			return true
		}
	}
	return false
}

// uniqueDistNames joins the names of ds, each once: the same distribution installed in
// two places (a virtual environment and the system's) is one name.
func uniqueDistNames(ds []*pydeps.Dist) string {
	seen := map[string]bool{}
	var names []string
	for _, d := range ds {
		if !seen[d.Key] {
			seen[d.Key] = true
			names = append(names, d.Name)
		}
	}
	return strings.Join(names, " or ")
}
