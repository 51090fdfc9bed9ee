package report

import (
	"io/fs"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

// ChangeSource reads the files of a report on either side of set, for the SARIF writer's
// columns: a changed file's content from the set, any other from the side's tree.
func ChangeSource(set *change.Set) func(path string, base bool) ([]byte, bool) {
	return func(path string, base bool) ([]byte, bool) {
		if data, ok, found := changed(set, path, base); found {
			return data, ok
		}
		fsys := set.HeadFS
		if base {
			fsys = set.BaseFS
		}
		return readSmall(fsys, path)
	}
}

// changed returns the content of path on one side when the change has the file there
// (found), and whether that content is known (not too large).
func changed(set *change.Set, path string, base bool) (data []byte, ok, found bool) {
	f := set.File(path)
	switch {
	case f == nil:
		return nil, false, false
	case !base && f.Path == path && f.Op != change.Delete:
		return f.Head, f.Head != nil && !f.TooLarge, true
	case base && (f.OldPath == path || f.Path == path && f.Op != change.Create):
		return f.Base, f.Base != nil && !f.TooLarge, true
	}
	return nil, false, false
}

// readSmall reads a regular file of fsys no larger than the default size limit.
func readSmall(fsys fs.FS, path string) ([]byte, bool) {
	if fsys == nil || !fs.ValidPath(path) {
		return nil, false
	}
	if fi, err := fs.Stat(fsys, path); err != nil || !fi.Mode().IsRegular() || fi.Size() > change.DefaultMaxFileSize {
		return nil, false
	}
	data, err := fs.ReadFile(fsys, path)
	return data, err == nil
}

// New assembles the canonical report of a run of tool over set: its violations and
// dimension results as the engine processed them, and the rules of its dimensions.
func New(tool Tool, policyName, task string, set *change.Set, violations []Violation, results []DimensionResult, rules []*check.Rule) *Report {
	rep := &Report{
		SchemaVersion:    SchemaVersion,
		Tool:             tool,
		Policy:           policyName,
		Task:             task,
		Violations:       violations,
		DimensionResults: results,
		Files:            make([]FileEntry, 0, len(set.Files)),
		Rules:            rules,
	}
	for _, f := range set.Files {
		e := FileEntry{Path: f.Path, Operation: f.Op}
		if f.Op == change.Rename {
			e.OldPath = f.OldPath
		}
		rep.Files = append(rep.Files, e)
	}
	if !set.NoBase {
		rep.Base = set.BaseRev
	}
	rep.Notes = set.Notes
	rep.Status = StatusOf(violations)
	rep.Passed = rep.Status.OK()
	ok := func(dim string) bool {
		for _, r := range results {
			if r.Dimension == dim {
				return r.Status.OK()
			}
		}
		return true
	}
	rep.Dimensions = Dimensions{
		Scope: ok(policy.Scope), Hallucination: ok(policy.Hallucination), Style: ok(policy.Style),
		Semantics: ok(policy.Semantics), Complexity: ok(policy.Complexity),
	}
	return rep
}
