package scope

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

// Dimension is the scope dimension.
var Dimension = &check.Dimension{
	Name:  policy.Scope,
	Doc:   "where a change goes: allowed and forbidden paths, operations, size, the policy and the gate's own configuration",
	Rules: []*check.Rule{outsideAllowed, forbiddenPath, forbiddenOperation, tooManyFiles, policyChanged, gateConfigChanged, largeFile, unverifiedSubmodule},
	Run:   run,
}

func run(pass *check.Pass) ([]check.Finding, error) {
	opts := pass.Policy.Scope
	var out []check.Finding
	report := func(f *change.File, rule *check.Rule, msg, suggestion string) {
		out = append(out, check.Finding{
			Rule:       rule.ID,
			Location:   check.Location{File: f.Path, Line: 1},
			Message:    msg,
			Suggestion: suggestion,
			Symbol:     f.Path,
			Introduced: true,
		})
	}
	for _, f := range pass.Changes.Files {
		if err := pass.Context.Err(); err != nil {
			return nil, err
		}
		for _, p := range sides(f) {
			if g := firstForbidden(opts.ForbiddenPaths, p); g != "" {
				report(f, forbiddenPath, fmt.Sprintf("%s matches forbidden glob %q%s", p, g, renameNote(f, p)),
					"revert the change to this file, or ask for the policy to allow it")
			} else if len(opts.AllowedPaths) > 0 && firstMatch(opts.AllowedPaths, p) == "" {
				report(f, outsideAllowed, fmt.Sprintf("%s matches no allowed path (%s)%s", p, quoteList(opts.AllowedPaths), renameNote(f, p)),
					"keep the change inside the allowed paths")
			}
		}
		if pass.Trust != nil {
			guard(pass, f, report)
		}
		if !slices.Contains(opts.AllowedOperations, string(f.Op)) {
			report(f, forbiddenOperation, fmt.Sprintf("%s: operation %s is not allowed (allowed: %s)", f.Path, f.Op, joinOps(opts.AllowedOperations)), "")
		}
		if msg := submoduleNote(f); msg != "" {
			report(f, unverifiedSubmodule, msg, "verify the submodule's change in its own repository (agentverify diff there) and commit it there")
		}
		if f.TooLarge {
			report(f, largeFile, fmt.Sprintf("%s is %.1f MiB, over the %.1f MiB limit (limits.max_file_size): only scope checks ran on it", f.Path, float64(f.Size)/(1<<20), float64(pass.Policy.Limits.FileSize())/(1<<20)), "")
		}
	}
	found, err := weakenings(pass)
	if err != nil {
		return nil, err
	}
	out = append(out, found...)
	if limit := opts.MaxFilesChanged; limit > 0 && len(pass.Changes.Files) > limit {
		first := pass.Changes.Files[limit]
		report(first, tooManyFiles, fmt.Sprintf("the change touches %d files (limit %d); %s is the first beyond the limit", len(pass.Changes.Files), limit, first.Path),
			"split the change into smaller ones")
	}
	return out, nil
}

// sides returns the paths a file's change touches: both sides of a rename.
func sides(f *change.File) []string {
	if f.Op == change.Rename && f.OldPath != "" && f.OldPath != f.Path {
		return []string{f.Path, f.OldPath}
	}
	return []string{f.Path}
}

func renameNote(f *change.File, p string) string {
	switch {
	case f.Op != change.Rename:
		return ""
	case p == f.OldPath:
		return fmt.Sprintf(" (renamed to %s)", f.Path)
	}
	return fmt.Sprintf(" (renamed from %s)", f.OldPath)
}

// firstForbidden returns the first forbidden glob p matches, ignoring case: on a
// case-insensitive checkout (macOS, Windows) Secret/x.go is the file secret/x.go, so a
// forbidden path must not be reachable by changing its case. Allowed paths stay
// case-sensitive, which can only make a path outside-allowed, never let it through.
func firstForbidden(globs []string, p string) string {
	if g := firstMatch(globs, p); g != "" {
		return g
	}
	lower := strings.ToLower(p)
	for _, g := range globs {
		if ok, _ := doublestar.Match(strings.ToLower(g), lower); ok {
			return g
		}
	}
	return ""
}

func firstMatch(globs []string, p string) string {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, p); ok {
			return g
		}
	}
	return ""
}

func quoteList(globs []string) string {
	s := ""
	for i, g := range globs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%q", g)
	}
	return s
}

func joinOps(ops []string) string {
	if len(ops) == 0 {
		return "none"
	}
	s := ops[0]
	for _, o := range ops[1:] {
		s += ", " + o
	}
	return s
}

func verb(op change.Op) string {
	switch op {
	case change.Create:
		return "creates"
	case change.Delete:
		return "deletes"
	case change.Rename:
		return "renames"
	}
	return "modifies"
}

// submoduleNote says what a submodule change brings that this run does not verify, or "".
func submoduleNote(f *change.File) string {
	switch {
	case !f.Submodule:
		return ""
	case f.SubmoduleDirty:
		return fmt.Sprintf("%s: the submodule's working tree holds changes that no commit records; they are not verified here", f.Path)
	case f.Op == change.Create:
		return fmt.Sprintf("%s: a new submodule (%s); its content is another repository's and is not verified here", f.Path, gitlinkCommit(f.Head))
	case f.Op != change.Delete && string(f.Base) != string(f.Head):
		return fmt.Sprintf("%s: the submodule moves from %s to %s; the content between them is another repository's and is not verified here", f.Path, gitlinkCommit(f.Base), gitlinkCommit(f.Head))
	}
	return ""
}

// gitlinkCommit is the short commit hash of a gitlink's content ("Subproject commit HASH").
func gitlinkCommit(content []byte) string {
	h := strings.TrimSpace(strings.TrimPrefix(string(content), "Subproject commit "))
	if len(h) > 12 {
		h = h[:12]
	}
	if h == "" {
		return "no commit"
	}
	return "commit " + h
}
