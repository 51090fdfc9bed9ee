package policy

// Default returns the built-in policy: all five dimensions enabled with their defaults.
func Default() *Policy {
	return &Policy{
		Version: 1,
		Name:    "default",
		Scope: &ScopeOptions{
			AllowedPaths:      []string{"**"},
			AllowedOperations: []string{"create", "modify", "delete", "rename"},
		},
		Hallucination: &HallucinationOptions{},
		Style:         &StyleOptions{Naming: "go", RequireDocs: "exported"},
		Semantics:     &SemanticsOptions{PreserveExports: true, PreserveSignatures: true, PreserveTests: true},
		Complexity:    &ComplexityOptions{MaxFunctionLines: 80, MaxNestingDepth: 5, MaxCyclomatic: 15, MaxCognitive: 25},
	}
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

// ForPath returns the policy in force for the file at path: p with every matching
// override applied in order. Dimensions that p skips stay skipped.
func (p *Policy) ForPath(path string) *Policy {
	return p // TODO(policy): apply overrides
}

// Severity returns the severity of rule for a finding in the file at path: the last
// matching override rule, else an exact entry of Rules, else the last matching glob entry,
// else def.
func (p *Policy) Severity(rule, path string, def Severity) Severity {
	return def // TODO(policy)
}
