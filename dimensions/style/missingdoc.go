package style

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
)

// docKinds names the declaration kinds that need a doc comment when exported.
var docKinds = map[lang.DeclKind]string{
	lang.Func:   "function",
	lang.Method: "method",
	lang.Type:   "type",
	lang.Var:    "var",
	lang.Const:  "const",
}

// missingDocs reports exported declarations without a doc comment. A declaration that
// was documented at the base lost its comment in this change, so that finding is marked
// Introduced.
func missingDocs(pass *check.Pass, f *change.File, lf *lang.File) ([]check.Finding, error) {
	if lf.Test || lf.Package == "main" {
		return nil, nil
	}
	var documented map[string]bool
	var out []check.Finding
	for _, d := range lf.Decls {
		kind, ok := docKinds[d.Kind]
		if !ok || !d.Exported || d.Documented {
			continue
		}
		if documented == nil {
			var err error
			if documented, err = baseDocumented(pass, f); err != nil {
				return nil, err
			}
		}
		short := d.Name[strings.LastIndex(d.Name, ".")+1:]
		term, suggestion := "doc comment", fmt.Sprintf("add a comment starting with %q that says what it is for", short+" ")
		if lf.DocTerm != "" {
			term, suggestion = lf.DocTerm, fmt.Sprintf("add a %s that says what %s is for", lf.DocTerm, short)
		}
		if a, ok := pass.Languages.For(f.Path).(lang.DocAdvisor); ok {
			suggestion = a.DocAdvice(d)
		}
		out = append(out, check.Finding{
			Rule:       "style/missing-doc",
			Location:   check.Location{File: f.Path, Line: d.NamePos.Line, Column: d.NamePos.Column},
			Message:    fmt.Sprintf("exported %s %s has no %s", kind, d.Name, term),
			Suggestion: suggestion,
			Symbol:     d.Name,
			Introduced: documented[string(d.Kind)+" "+d.Name],
		})
	}
	return out, nil
}

// baseDocumented returns the declarations of the file's base that are documented, by kind
// and name; empty when there is no base to compare with. A name the base also declares
// without a doc comment (a fallback defined twice, like six's print_) is left out: the
// undocumented one may be the one the head still has.
func baseDocumented(pass *check.Pass, f *change.File) (map[string]bool, error) {
	out := map[string]bool{}
	if pass.Mode == check.Check || pass.Changes.NoBase || f.Base == nil {
		return out, nil
	}
	bf, err := pass.Files.Parse(f, change.Base)
	if err != nil || bf == nil {
		return out, err
	}
	bare := map[string]bool{}
	for _, d := range bf.Decls {
		k := string(d.Kind) + " " + d.Name
		if d.Documented {
			out[k] = true
		} else {
			bare[k] = true
		}
	}
	for k := range bare {
		delete(out, k)
	}
	return out, nil
}
