package engine

import (
	"strings"

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
	items = relativePaths(pass, items)
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
			Fix:         it.f.Fix,
			Fingerprint: report.Fingerprint(it.f.Rule, it.f.Location.File, it.f.Symbol, it.f.Message),
		})
	}
	report.Sort(vs)
	results := make([]report.DimensionResult, 0, len(outcomes))
	for _, o := range outcomes {
		r := report.DimensionResult{Dimension: o.Dimension, Skipped: o.Skipped, DurationMS: o.Duration.Milliseconds()}
		var own []report.Violation
		for _, v := range vs {
			if v.Dimension != o.Dimension {
				continue
			}
			own = append(own, v)
			if v.Severity == policy.Error {
				r.Errors++
			} else {
				r.Warnings++
			}
		}
		r.Status = report.StatusOf(own)
		results = append(results, r)
	}
	return vs, results
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
