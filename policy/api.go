package policy

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Default returns the built-in policy: all five dimensions enabled with their defaults.
func Default() *Policy {
	return &Policy{
		Version:       1,
		Name:          "default",
		Scope:         defaultScope(),
		Hallucination: defaultHallucination(),
		Style:         defaultStyle(),
		Semantics:     defaultSemantics(),
		Complexity:    defaultComplexity(),
		Limits:        DefaultLimits(),
	}
}

func defaultHallucination() *HallucinationOptions {
	return &HallucinationOptions{YoungPackageDays: DefaultYoungPackageDays}
}

func defaultScope() *ScopeOptions {
	return &ScopeOptions{AllowedPaths: []string{"**"}, ForbiddenPaths: []string{}, AllowedOperations: []string{"create", "modify", "delete", "rename"}}
}

// defaultStyle names identifiers by each language's own convention (Go's for Go, PEP 8
// for Python): one convention for every language would flag the idioms of the others.
func defaultStyle() *StyleOptions { return &StyleOptions{Naming: "detect", RequireDocs: "exported"} }

func defaultSemantics() *SemanticsOptions {
	return &SemanticsOptions{PreserveExports: true, PreserveSignatures: true, PreserveTests: true}
}

func defaultComplexity() *ComplexityOptions {
	return &ComplexityOptions{MaxFunctionLines: 80, MaxNestingDepth: 5, MaxCyclomatic: 15, MaxCognitive: 25}
}

// Enabled reports whether the named dimension runs (P2: absent or null means skipped).
func (p *Policy) Enabled(dim string) bool {
	switch dim {
	case Scope:
		return p.Scope != nil
	case Hallucination:
		return p.Hallucination != nil
	case Style:
		return p.Style != nil
	case Semantics:
		return p.Semantics != nil
	case Complexity:
		return p.Complexity != nil
	}
	return false
}

// matches reports whether the override applies to path.
func (o *Override) matches(path string) bool {
	for _, g := range o.Paths {
		if ok, _ := doublestar.Match(g, path); ok {
			return true
		}
	}
	return false
}

// ForPath returns the policy in force for the file at path: p with every matching
// override applied in order (later wins). Dimensions that p skips stay skipped. When no
// override matches, p itself is returned, so the common case allocates nothing.
func (p *Policy) ForPath(path string) *Policy {
	var out *Policy
	for i := range p.Overrides {
		o := &p.Overrides[i]
		if !o.matches(path) {
			continue
		}
		if out == nil {
			out = p.clone()
		}
		out.apply(o)
	}
	if out == nil {
		return p
	}
	return out
}

// clone copies the policy deeply enough that apply can change options.
func (p *Policy) clone() *Policy {
	c := *p
	if p.Scope != nil {
		s := *p.Scope
		c.Scope = &s
	}
	if p.Style != nil {
		s := *p.Style
		c.Style = &s
	}
	if p.Semantics != nil {
		s := *p.Semantics
		c.Semantics = &s
	}
	if p.Complexity != nil {
		s := *p.Complexity
		c.Complexity = &s
	}
	return &c
}

func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

func (p *Policy) apply(o *Override) {
	if s, v := p.Scope, o.Scope; s != nil && v != nil {
		set(&s.MaxFilesChanged, v.MaxFilesChanged)
	}
	if s, v := p.Style, o.Style; s != nil && v != nil {
		set(&s.Naming, v.Naming)
		set(&s.RequireDocs, v.RequireDocs)
		set(&s.MaxLineLength, v.MaxLineLength)
	}
	if s, v := p.Semantics, o.Semantics; s != nil && v != nil {
		set(&s.PreserveExports, v.PreserveExports)
		set(&s.PreserveSignatures, v.PreserveSignatures)
		set(&s.PreserveTests, v.PreserveTests)
		set(&s.IncludeInternal, v.IncludeInternal)
	}
	if s, v := p.Complexity, o.Complexity; s != nil && v != nil {
		set(&s.MaxFunctionLines, v.MaxFunctionLines)
		set(&s.MaxNestingDepth, v.MaxNestingDepth)
		set(&s.MaxCyclomatic, v.MaxCyclomatic)
		set(&s.MaxCognitive, v.MaxCognitive)
	}
}

// Severity returns the severity of rule for a finding in the file at path: the rules of
// the last matching override that name it, else an exact entry of Rules, else the last
// matching glob entry of Rules, else def.
func (p *Policy) Severity(rule, path string, def Severity) Severity {
	for i := len(p.Overrides) - 1; i >= 0; i-- {
		o := &p.Overrides[i]
		if len(o.Rules) == 0 || !o.matches(path) {
			continue
		}
		if s, ok := lookup(o.Rules, rule); ok {
			return s
		}
	}
	if s, ok := lookup(p.Rules, rule); ok {
		return s
	}
	return def
}

// lookup finds rule in entries: an exact entry wins, else the last matching glob.
func lookup(entries []RuleSeverity, rule string) (Severity, bool) {
	var glob *RuleSeverity
	for i := range entries {
		e := &entries[i]
		if e.Pattern == rule {
			return e.Severity, true
		}
		if isGlob(e.Pattern) {
			if ok, _ := doublestar.Match(e.Pattern, rule); ok {
				glob = e
			}
		}
	}
	if glob != nil {
		return glob.Severity, true
	}
	return "", false
}

func isGlob(s string) bool { return strings.ContainsAny(s, "*?[{") }
