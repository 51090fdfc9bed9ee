package resolve

import (
	"fmt"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
)

// UnverifiedFile is the kind of a changed Lisp file whose content could not be given to
// the reader (the hallucination dimension declares its rule for every language).
const UnverifiedFile lang.Kind = "unverified-file"

// unverifiedFiles reports the changed Lisp files that are over the size limit or hold a
// NUL byte: unverified never means passed.
func unverifiedFiles(req *lang.Request) []lang.Problem {
	var out []lang.Problem
	for _, f := range req.Changes.Files {
		if f.Op == change.Delete || !lispFile(f.Path) || req.Focus != nil && !req.Focus[f.Path] {
			continue
		}
		var why string
		switch {
		case f.TooLarge:
			why = fmt.Sprintf("is over the size limit (%d bytes; limits.max_file_size)", f.Size)
		case f.Binary:
			why = "holds a NUL byte"
		default:
			continue
		}
		out = append(out, lang.Problem{Kind: UnverifiedFile, Location: lang.Location{File: f.Path, Line: 1},
			Message: f.Path + " " + why + ", so it could not be verified; an unverified file does not pass",
			Symbol:  f.Path, Introduced: true})
	}
	return out
}
