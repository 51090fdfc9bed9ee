package python

import (
	"fmt"
	"io/fs"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/pydeps"
)

// declarations reports what a changed declaration file adds: each requirement the base
// of the file did not declare.
func (st *depState) declarations(f *change.File) error {
	head, err := pydeps.Declarations(f.Path, f.Head, st.reader(st.req.Changes.HeadFS))
	if err != nil {
		return st.declError(err)
	}
	if st.req.Changes.NoBase {
		return nil // check mode: nothing is new, everything is
	}
	before := map[string]bool{}
	if f.Base != nil {
		base, err := pydeps.Declarations(f.OldPath, f.Base, st.reader(st.req.Changes.BaseFS))
		if err != nil {
			base = nil // an unreadable base declared nothing that can be compared
		}
		for _, r := range base {
			before[r.Key] = true
		}
	}
	for _, r := range head {
		if before[r.Key] || r.File != f.Path {
			continue // declared before, or by an included file (reported where it changed)
		}
		before[r.Key] = true
		p := lang.Problem{Kind: lang.NewDependency, Location: lang.Location{File: f.Path, Line: r.Line}, Symbol: r.Key, Introduced: true,
			Message:    fmt.Sprintf("the change adds the requirement %s to %s: review the new dependency", r.Name, f.Path),
			Suggestion: fmt.Sprintf("check that %s is the intended project (not a look-alike of a popular one), maintained, and needed", r.Name)}
		if env, err := st.environment(); err == nil && env.Installed(r.Key) == nil {
			p.Message += fmt.Sprintf("; it is not installed in %s, so nothing here vouches that a distribution named %s is the one meant: a made-up name is a slopsquatting target", env.Where, r.Name)
		}
		st.out = append(st.out, p)
	}
	return nil
}

// reader reads the files a requirements file includes from one side of the change.
func (st *depState) reader(fsys fs.FS) pydeps.ReadFile {
	return func(name string) ([]byte, error) {
		if fsys == nil {
			return nil, fs.ErrNotExist
		}
		return fs.ReadFile(fsys, name)
	}
}
