package policy

import (
	"fmt"
	"reflect"
	"slices"
)

// Weakened lists, in a fixed order, what head loosens compared with base, one phrase
// each ("drops the scope dimension", `adds allowed path "x/**"`, "raises
// complexity.max_cyclomatic 15 → 40"). It is what scope/policy-changed tells the reviewer
// about a change to the policy. Changes that tighten the policy are not listed.
func Weakened(base, head *Policy) []string {
	var out []string
	for _, dim := range Dimensions {
		if base.Enabled(dim) && !head.Enabled(dim) {
			out = append(out, "drops the "+dim+" dimension")
		}
	}
	if base.Scope != nil && head.Scope != nil {
		out = append(out, scopeWeakened(base.Scope, head.Scope)...)
	}
	out = append(out, hallucinationWeakened(base.Hallucination, head.Hallucination)...)
	if base.Style != nil && head.Style != nil {
		out = append(out, styleWeakened(base.Style, head.Style)...)
	}
	if base.Semantics != nil && head.Semantics != nil {
		out = append(out, semanticsWeakened(base.Semantics, head.Semantics)...)
	}
	if base.Complexity != nil && head.Complexity != nil {
		b, h := base.Complexity, head.Complexity
		out = append(out, limitRaised("complexity.max_function_lines", b.MaxFunctionLines, h.MaxFunctionLines)...)
		out = append(out, limitRaised("complexity.max_nesting_depth", b.MaxNestingDepth, h.MaxNestingDepth)...)
		out = append(out, limitRaised("complexity.max_cyclomatic", b.MaxCyclomatic, h.MaxCyclomatic)...)
		out = append(out, limitRaised("complexity.max_cognitive", b.MaxCognitive, h.MaxCognitive)...)
	}
	if !base.Suppressions.AllowNew && head.Suppressions.AllowNew {
		out = append(out, "lets new suppression comments suppress (suppressions.allow_new)")
	}
	out = append(out, rulesWeakened("rules", base.Rules, head.Rules)...)
	if !sameOverrides(base.Overrides, head.Overrides) {
		out = append(out, "changes the per-path overrides")
	}
	return out
}

func hallucinationWeakened(b, h *HallucinationOptions) []string {
	if b == nil || h == nil {
		return nil
	}
	if ba, ha := b.YoungPackageAge(), h.YoungPackageAge(); ha < ba {
		return []string{fmt.Sprintf("lowers hallucination.young_package_days %d → %d", int(ba.Hours()/24), int(ha.Hours()/24))}
	}
	return nil
}

func scopeWeakened(b, h *ScopeOptions) []string {
	var out []string
	switch {
	case len(b.AllowedPaths) > 0 && len(h.AllowedPaths) == 0:
		out = append(out, "allows every path (allowed_paths emptied)")
	default:
		for _, g := range h.AllowedPaths {
			if !slices.Contains(b.AllowedPaths, g) {
				out = append(out, fmt.Sprintf("adds allowed path %q", g))
			}
		}
	}
	for _, g := range b.ForbiddenPaths {
		if !slices.Contains(h.ForbiddenPaths, g) {
			out = append(out, fmt.Sprintf("removes forbidden path %q", g))
		}
	}
	for _, op := range h.AllowedOperations {
		if !slices.Contains(b.AllowedOperations, op) {
			out = append(out, "allows the operation "+op)
		}
	}
	out = append(out, limitRaised("scope.max_files_changed", b.MaxFilesChanged, h.MaxFilesChanged)...)
	if !b.AllowGateConfigChanges && h.AllowGateConfigChanges {
		out = append(out, "allows changes to the gate's configuration (scope.allow_gate_config_changes)")
	}
	return out
}

func styleWeakened(b, h *StyleOptions) []string {
	var out []string
	if b.Naming != h.Naming {
		out = append(out, fmt.Sprintf("changes style.naming %s → %s", b.Naming, h.Naming))
	}
	if b.RequireDocs == "exported" && h.RequireDocs != "exported" {
		out = append(out, "stops requiring doc comments (style.require_docs "+h.RequireDocs+")")
	}
	return append(out, limitRaised("style.max_line_length", b.MaxLineLength, h.MaxLineLength)...)
}

func semanticsWeakened(b, h *SemanticsOptions) []string {
	var out []string
	for _, c := range []struct {
		key        string
		base, head bool
	}{
		{"preserve_exports", b.PreserveExports, h.PreserveExports},
		{"preserve_signatures", b.PreserveSignatures, h.PreserveSignatures},
		{"preserve_tests", b.PreserveTests, h.PreserveTests},
		{"include_internal", b.IncludeInternal, h.IncludeInternal},
	} {
		if c.base && !c.head {
			out = append(out, "turns off semantics."+c.key)
		}
	}
	return out
}

// limitRaised describes a limit (0 = none) that head raises or removes.
func limitRaised(key string, base, head int) []string {
	switch {
	case base == 0 || head == base || (head != 0 && head < base):
		return nil
	case head == 0:
		return []string{fmt.Sprintf("removes the %s limit (was %d)", key, base)}
	}
	return []string{fmt.Sprintf("raises %s %d → %d", key, base, head)}
}

var severityRank = map[Severity]int{Off: 0, Warning: 1, Error: 2}

// rulesWeakened lists rule entries whose severity head lowers, sets low or removes.
func rulesWeakened(where string, base, head []RuleSeverity) []string {
	var out []string
	for _, h := range head {
		b, ok := entry(base, h.Pattern)
		switch {
		case ok && severityRank[h.Severity] < severityRank[b]:
			out = append(out, fmt.Sprintf("lowers %s %s %s → %s", where, h.Pattern, b, h.Severity))
		case !ok && h.Severity != Error:
			out = append(out, fmt.Sprintf("sets %s %s to %s", where, h.Pattern, h.Severity))
		}
	}
	for _, b := range base {
		if _, ok := entry(head, b.Pattern); !ok && b.Severity != Off {
			out = append(out, fmt.Sprintf("removes %s entry %s: %s", where, b.Pattern, b.Severity))
		}
	}
	return out
}

func entry(rs []RuleSeverity, pattern string) (Severity, bool) {
	for _, r := range rs {
		if r.Pattern == pattern {
			return r.Severity, true
		}
	}
	return "", false
}

// sameOverrides compares overrides ignoring the policy-file lines of their rules.
func sameOverrides(a, b []Override) bool {
	strip := func(os []Override) []Override {
		out := make([]Override, len(os))
		for i, o := range os {
			o.Rules = slices.Clone(o.Rules)
			for j := range o.Rules {
				o.Rules[j].Line = 0
			}
			out[i] = o
		}
		return out
	}
	return reflect.DeepEqual(strip(a), strip(b))
}
