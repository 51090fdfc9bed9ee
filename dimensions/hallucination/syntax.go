package hallucination

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
)

// frontendSyntaxErrors reports the syntax errors the language frontends find in the
// changed files the Go loader does not check (Python, Common Lisp, …), so a file that
// does not parse never passes because no type checker looked at it. A frontend that
// cannot parse at all is the dimension's error: unverified never means passed.
func frontendSyntaxErrors(p *check.Pass) ([]check.Finding, error) {
	var out []check.Finding
	for _, f := range p.Changes.Files {
		if f.Op == change.Delete || f.Head == nil || strings.HasSuffix(f.Path, ".go") || !f.Analyzable() {
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
			out = append(out, check.Finding{
				Rule:     RuleSyntaxError,
				Location: check.Location{File: f.Path, Line: max(e.Pos.Line, 1), Column: e.Pos.Column},
				Message:  e.Message,
				Symbol:   f.Path,
			})
		}
	}
	return out, nil
}
