package resolve

import (
	"errors"
	"fmt"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
)

// goModFindings reports the syntax errors of a changed go.mod and the requirements the
// change adds; ok is false when the head go.mod does not parse. With no base (check mode)
// nothing is added, so no requirement is reported as new.
func goModFindings(f *change.File, noBase bool) (out []lang.Problem, ok bool) {
	headMod, err := modfile.Parse(f.Path, f.Head, nil)
	if err != nil {
		_, baseErr := modfile.Parse(f.Path, f.Base, nil)
		introduced := f.Base == nil || baseErr == nil
		var list modfile.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				line := max(e.Pos.Line, 1)
				out = append(out, lang.Problem{
					Kind: lang.SyntaxErrorKind, Location: lang.Location{File: f.Path, Line: line, Column: e.Pos.LineRune},
					Message: e.Err.Error(), Symbol: f.Path, Introduced: introduced,
				})
			}
		}
		if len(out) == 0 {
			out = append(out, lang.Problem{
				Kind: lang.SyntaxErrorKind, Location: lang.Location{File: f.Path, Line: 1},
				Message: oneLine(err.Error()), Symbol: f.Path, Introduced: introduced,
			})
		}
		return out, false
	}
	if noBase {
		return nil, true
	}
	before := map[string]bool{}
	var baseMod *modfile.File
	if f.Base != nil {
		if baseMod, err = modfile.Parse(f.Path, f.Base, nil); err == nil {
			for _, r := range baseMod.Require {
				before[r.Mod.Path] = true
			}
		}
	}
	out = append(out, newReplacements(f.Path, baseMod, headMod)...)
	for _, r := range headMod.Require {
		if before[r.Mod.Path] {
			continue
		}
		kind := "requirement"
		if r.Indirect {
			kind = "indirect requirement"
		}
		loc := lang.Location{File: f.Path, Line: 1}
		if r.Syntax != nil {
			loc = lang.Location{File: f.Path, Line: r.Syntax.Start.Line, Column: r.Syntax.Start.LineRune,
				EndLine: r.Syntax.End.Line, EndColumn: r.Syntax.End.LineRune}
		}
		out = append(out, lang.Problem{
			Kind: lang.NewDependency, Location: loc,
			Message:    fmt.Sprintf("the change adds the %s %s %s to go.mod: review the new dependency", kind, r.Mod.Path, r.Mod.Version),
			Symbol:     r.Mod.Path,
			Introduced: true,
		})
	}
	return out, true
}

// newReplacements reports the replace directives the change adds (or points elsewhere)
// that build a module in place of another: the module built is a new dependency as much
// as a new requirement is. Directory replacements are outside-repository's when they
// leave the repository, and the repository's own code otherwise.
func newReplacements(file string, base, head *modfile.File) []lang.Problem {
	had := map[module.Version]module.Version{}
	if base != nil {
		for _, r := range base.Replace {
			had[r.Old] = r.New
		}
	}
	var out []lang.Problem
	for _, r := range head.Replace {
		if r.New.Version == "" || had[r.Old] == r.New {
			continue
		}
		loc := lang.Location{File: file, Line: 1}
		if r.Syntax != nil {
			loc = lang.Location{File: file, Line: r.Syntax.Start.Line, Column: r.Syntax.Start.LineRune,
				EndLine: r.Syntax.End.Line, EndColumn: r.Syntax.End.LineRune}
		}
		out = append(out, lang.Problem{
			Kind: lang.NewDependency, Location: loc, Symbol: r.New.Path, Introduced: true,
			Message: fmt.Sprintf("the change builds %s %s in place of %s: review the new dependency", r.New.Path, r.New.Version, r.Old.Path),
		})
	}
	return out
}
