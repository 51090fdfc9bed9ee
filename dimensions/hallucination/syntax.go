package hallucination

import (
	"fmt"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
)

// frontendSyntaxErrors reports the syntax errors the language frontends find in the
// changed files no resolver checked (resolved holds the names of the frontends that have
// one), so a file that does not parse never passes because nothing looked at it. A
// frontend that cannot parse at all is the dimension's error: unverified never means
// passed.
func frontendSyntaxErrors(p *check.Pass, resolved map[string]bool) ([]lang.Problem, error) {
	var out []lang.Problem
	for _, f := range p.Changes.Files {
		if f.Op == change.Delete || f.Head == nil || !f.Analyzable() {
			continue
		}
		if fe := p.Languages.For(f.Path); fe == nil || resolved[fe.Name()] {
			continue
		}
		lf, err := p.Files.Parse(f, change.Head)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		if lf == nil {
			continue // no frontend for this language: scope checks only
		}
		for _, e := range lf.SyntaxErrors {
			out = append(out, lang.Problem{
				Kind:     lang.SyntaxErrorKind,
				Location: lang.Location{File: f.Path, Line: max(e.Pos.Line, 1), Column: e.Pos.Column},
				Message:  e.Message,
				Symbol:   f.Path,
			})
		}
	}
	return out, nil
}
