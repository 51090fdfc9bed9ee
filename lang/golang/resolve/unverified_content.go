package resolve

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// unverifiedFiles reports the Go files of the change that the type checker cannot see as
// they are: nothing about them may pass unverified.
func unverifiedFiles(set *change.Set, limit int64) []lang.Problem {
	var out []lang.Problem
	for _, f := range set.Files {
		if f.Op == change.Delete {
			continue
		}
		var msg, fix string
		switch {
		case strings.HasSuffix(f.Path, ".go"):
			msg, fix = unverifiedReason(f, limit)
		case f.Symlink && leavesRepo(f) && inModule(set, f.Path):
			msg = fmt.Sprintf("is a symbolic link to %s, outside the repository, inside a Go module: "+
				"the toolchain compiles the Go files it leads to without them being checked", f.Head)
			fix = "copy what the module needs into the repository instead of linking to it"
		}
		if msg == "" {
			continue
		}
		out = append(out, lang.Problem{
			Kind:       UnverifiedFile,
			Location:   lang.Location{File: f.Path, Line: 1},
			Message:    f.Path + " " + msg + ", so it could not be verified; an unverified file does not pass",
			Suggestion: fix,
			Symbol:     f.Path,
			Introduced: true,
		})
	}
	return out
}

// leavesRepo reports whether the symbolic link f (its head content is its target) points
// outside the repository, judged on the text of the target.
func leavesRepo(f *change.File) bool {
	if f.Head == nil {
		return false
	}
	target := string(f.Head)
	if filepath.IsAbs(target) || path.IsAbs(filepath.ToSlash(target)) {
		return true
	}
	return !filepath.IsLocal(path.Join(path.Dir(f.Path), filepath.ToSlash(target)))
}

// inModule reports whether p lies inside a Go module of the change's head.
func inModule(set *change.Set, p string) bool {
	if set.HeadFS == nil {
		return false
	}
	_, ok := load.ModuleRoot(set.HeadFS, p)
	return ok
}

// unverifiedReason says why f cannot be verified and how to fix it; empty when it can.
func unverifiedReason(f *change.File, limit int64) (msg, fix string) {
	switch {
	case f.TooLarge:
		return fmt.Sprintf("is %s, over the size limit of %s (limits.max_file_size)", size(f.Size), size(limit)),
			"split the file, or have a human raise limits.max_file_size in the trusted policy"
	case f.Binary:
		return "holds a NUL byte (binary content the Go toolchain rejects)",
			`remove the NUL byte; write it as "\x00" inside a string literal`
	case f.Symlink:
		return "is a symbolic link (on one side of the change): the toolchain compiles its target, which is not checked through it",
			"replace the link by a regular file"
	}
	return "", ""
}

// size writes a byte count for a reader: in MiB when it is large.
func size(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
