package engine

import (
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
	"github.com/agentverify/agentverify/report"
)

// item is a finding on its way through the processors.
type item struct {
	dim      string
	f        check.Finding
	severity policy.Severity
	internal bool
}

// Process runs the ordered processors over the outcomes of Run and returns the violations
// (sorted, deduplicated) and one result per dimension in the order of outcomes. rules maps
// each known rule ID to its rule, for default severities.
func Process(pass *check.Pass, outcomes []Outcome, rules map[string]*check.Rule) ([]report.Violation, []report.DimensionResult) {
	var items []item
	for _, o := range outcomes {
		if o.Err != nil {
			items = append(items, internalError(pass, o))
		}
		for _, f := range o.Findings {
			items = append(items, item{dim: o.Dimension, f: f})
		}
	}
	items = suppress(pass, items)
	items = severities(pass, items, rules)
	items = diffFilter(pass, items)
	items = dedupe(items)

	vs := make([]report.Violation, 0, len(items))
	for _, it := range items {
		vs = append(vs, report.Violation{
			Rule:        it.f.Rule,
			Dimension:   it.dim,
			Severity:    it.severity,
			Message:     it.f.Message,
			Suggestion:  it.f.Suggestion,
			Location:    it.f.Location,
			Related:     it.f.Related,
			Fingerprint: report.Fingerprint(it.f.Rule, it.f.Location.File, it.f.Symbol, it.f.Message),
		})
	}
	report.Sort(vs)
	results := make([]report.DimensionResult, 0, len(outcomes))
	for _, o := range outcomes {
		r := report.DimensionResult{Dimension: o.Dimension, Skipped: o.Skipped, DurationMS: o.Duration.Milliseconds()}
		for _, v := range vs {
			if v.Dimension != o.Dimension {
				continue
			}
			if v.Severity == policy.Error {
				r.Errors++
			} else {
				r.Warnings++
			}
		}
		r.Status = statusOf(r.Errors, r.Warnings)
		results = append(results, r)
	}
	return vs, results
}

func statusOf(errors, warnings int) report.Status {
	switch {
	case errors > 0:
		return report.Failed
	case warnings > 0:
		return report.Warnings
	}
	return report.Passed
}

// internalError turns a dimension failure into a violation located at the first changed
// file, so every output format can show it.
func internalError(pass *check.Pass, o Outcome) item {
	loc := check.Location{File: ".", Line: 1}
	if len(pass.Changes.Files) > 0 {
		loc.File = pass.Changes.Files[0].Path
	}
	return item{
		dim:      o.Dimension,
		internal: true,
		severity: policy.Error,
		f: check.Finding{
			Rule:       o.Dimension + "/internal-error",
			Location:   loc,
			Message:    "the " + o.Dimension + " dimension could not complete: " + oneLine(o.Err.Error()),
			Symbol:     o.Dimension,
			Introduced: true,
		},
	}
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// suppressMarker matches an inline suppression in any line-comment syntax:
// "//agentverify:ignore RULE reason", "# agentverify:ignore ...", ";; agentverify:ignore ...".
var suppressMarker = regexp.MustCompile(`(?://|#|;+)\s*agentverify:ignore\s+(\S+)(?:[ \t]+(\S.*))?`)

// Suppression is one inline suppression comment.
type Suppression struct {
	Rule   string // rule ID or glob over rule IDs
	Reason string
	Line   int // the line the comment is on
	Target int // the line it suppresses: its own, or the next when it stands alone
}

// Suppressions returns the inline suppressions of content. Comments without a reason are
// returned with an empty Reason; they suppress nothing.
func Suppressions(content []byte) []Suppression {
	if !strings.Contains(string(content), "agentverify:ignore") {
		return nil
	}
	var out []Suppression
	for i, line := range strings.Split(string(content), "\n") {
		loc := suppressMarker.FindStringSubmatchIndex(line)
		if loc == nil {
			continue
		}
		s := Suppression{Rule: line[loc[2]:loc[3]], Line: i + 1, Target: i + 1}
		if loc[4] >= 0 {
			s.Reason = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line[loc[4]:loc[5]]), "*/"))
		}
		if strings.TrimSpace(line[:loc[0]]) == "" {
			s.Target = i + 2 // a comment alone on its line covers the next line
		}
		out = append(out, s)
	}
	return out
}

// suppress drops findings covered by an inline suppression with a reason. Scope findings and
// internal errors cannot be suppressed: an agent must not be able to silence its own gate.
func suppress(pass *check.Pass, items []item) []item {
	byFile := map[string][]Suppression{}
	for _, f := range pass.Changes.Files {
		if f.Analyzable() {
			if s := Suppressions(f.Content(change.Head)); s != nil {
				byFile[f.Path] = s
			}
		}
	}
	if len(byFile) == 0 {
		return items
	}
	kept := items[:0]
	for _, it := range items {
		if it.internal || it.dim == policy.Scope || !suppressed(byFile[it.f.Location.File], it.f) {
			kept = append(kept, it)
		}
	}
	return kept
}

func suppressed(ss []Suppression, f check.Finding) bool {
	for _, s := range ss {
		if s.Reason == "" || s.Target != f.Location.Line {
			continue
		}
		if ok, _ := doublestar.Match(s.Rule, f.Rule); ok || s.Rule == f.Rule {
			return true
		}
	}
	return false
}

// severities sets each finding's severity from the policy and drops those turned off.
// Internal errors are always errors.
func severities(pass *check.Pass, items []item, rules map[string]*check.Rule) []item {
	kept := items[:0]
	for _, it := range items {
		if !it.internal {
			def := policy.Error
			if r := rules[it.f.Rule]; r != nil {
				def = r.Default
			}
			it.severity = pass.Policy.Severity(it.f.Rule, it.f.Location.File, def)
		}
		if it.severity != policy.Off {
			kept = append(kept, it)
		}
	}
	return kept
}

func diffFilter(pass *check.Pass, items []item) []item {
	kept := items[:0]
	for _, it := range items {
		if it.internal || pass.Keep(it.f) {
			kept = append(kept, it)
		}
	}
	return kept
}

func dedupe(items []item) []item {
	type key struct {
		rule, msg string
		loc       check.Location
	}
	seen := map[key]bool{}
	kept := items[:0]
	for _, it := range items {
		k := key{it.f.Rule, it.f.Message, it.f.Location}
		if !seen[k] {
			seen[k] = true
			kept = append(kept, it)
		}
	}
	return kept
}
