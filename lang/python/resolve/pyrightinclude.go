package resolve

import (
	"io/fs"

	"github.com/agentverify/agentverify/lang/python/pyright"
)

// The project's own pyright configuration decides which files it type-checks
// (`include`/`exclude` of pyrightconfig.json or [tool.pyright]): examples written for
// another checker, vendored code. A changed file it leaves out gets its syntax errors and
// the dependency checks, not pyright's diagnostics nor the checks beyond pyright, which
// would judge code the project never meant to be type-checked. The configuration is read
// from the trusted side of the change (the base; the tree itself in check mode and on a
// base-view pass), never from the change: an agent that adds its own files to `exclude`
// changes nothing. A file the configuration includes is checked exactly as before.

// trustedFS is the tree whose pyright configuration decides which files are checked.
func (j *job) trustedFS() fs.FS {
	set := j.req.Changes
	if set.NoBase || j.req.Focus != nil || set.BaseFS == nil {
		return j.headFS() // check mode, or a base-view pass: its head is the base
	}
	return set.BaseFS
}

// leftOut drops from the job's targets the files the trusted configuration leaves out,
// once the syntax step has seen them. A configuration that does not parse leaves nothing
// out: the project's files are then checked as if it had none.
func (j *job) leftOut() {
	proj, err := pyright.ReadProject(j.trustedFS())
	if err != nil || proj.Config == nil {
		return
	}
	kept := j.targets[:0:0]
	for _, t := range j.targets {
		if !proj.Leaves(t.f.Path) {
			kept = append(kept, t)
		}
	}
	j.targets = kept
}
