// Package policy holds the verification policy of design.md §6: which dimensions run, their
// options, the severity of each rule and per-path overrides. Policies are decoded strictly:
// an unknown key, a bad glob or a bad severity is an error naming the file, line and key.
package policy

import "time"

// DefaultFile is the policy file looked up at the repository root.
const DefaultFile = ".agentverify.yaml"

// Severity is what the policy makes of a rule's findings.
type Severity string

// Severities, worst first.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Off     Severity = "off"
)

// Dimension names, in report order.
const (
	Scope         = "scope"
	Hallucination = "hallucination"
	Style         = "style"
	Semantics     = "semantics"
	Complexity    = "complexity"
)

// Dimensions lists the five dimensions in report order.
var Dimensions = []string{Scope, Hallucination, Style, Semantics, Complexity}

// Policy is a loaded, validated policy. A nil dimension pointer means the dimension is
// skipped (P2).
type Policy struct {
	Version int
	Name    string
	// Source is the file the policy came from, relative to the repository root when it
	// is inside it; empty for the built-in default.
	Source string

	Scope         *ScopeOptions
	Hallucination *HallucinationOptions
	Style         *StyleOptions
	Semantics     *SemanticsOptions
	Complexity    *ComplexityOptions

	// Suppressions says what inline suppression comments may do.
	Suppressions SuppressionOptions

	// Rules maps rule IDs or globs over rule IDs ("style/*") to severities, in file order.
	Rules []RuleSeverity
	// Overrides apply, in order, to files whose path matches one of their globs.
	Overrides []Override

	// Limits bound the cost of a verification (limits.go).
	Limits Limits

	// Languages configure the frontends (languages.go).
	Languages LanguageOptions
}

// RuleSeverity is one entry of the rules: map.
type RuleSeverity struct {
	Pattern  string // a rule ID or a doublestar glob over rule IDs
	Severity Severity
	Line     int // line in the policy file, for errors; 0 when not from a file
}

// ScopeOptions configures the scope dimension.
type ScopeOptions struct {
	AllowedPaths      []string // doublestar globs; empty = everything allowed
	ForbiddenPaths    []string // doublestar globs; forbidden beats allowed (P5)
	AllowedOperations []string // subset of create, modify, delete, rename
	MaxFilesChanged   int      // 0 = no limit
	// AllowGateConfigChanges lets a change edit the files that configure the gate itself
	// (pre-commit config, workflows running agentverify, agent hook settings); off, such
	// an edit is scope/gate-config-changed.
	AllowGateConfigChanges bool
}

// SuppressionOptions configures inline suppressions (//agentverify:ignore RULE reason).
type SuppressionOptions struct {
	// AllowNew lets a suppression comment that the change itself adds suppress findings.
	// Off (the default), only suppressions already present at the base count: the gated
	// party must not grant itself exemptions.
	AllowNew bool
}

// HallucinationOptions configures the hallucination dimension.
type HallucinationOptions struct {
	// YoungPackageDays is the age in days under which a dependency the change adds, whose
	// first release is that recent, is hallucination/young-package (slopsquatting: a
	// name an assistant invents is a name someone can register). 0 means the default.
	YoungPackageDays int
}

// DefaultYoungPackageDays is hallucination.young_package_days when the policy does not set it.
const DefaultYoungPackageDays = 30

// maxYoungPackageDays bounds hallucination.young_package_days (ten years).
const maxYoungPackageDays = 3650

// YoungPackageAge is the age under which a new dependency's first release is too recent
// to trust: YoungPackageDays, or its default.
func (o *HallucinationOptions) YoungPackageAge() time.Duration {
	days := DefaultYoungPackageDays
	if o != nil && o.YoungPackageDays > 0 {
		days = o.YoungPackageDays
	}
	return time.Duration(days) * 24 * time.Hour
}

// StyleOptions configures the style dimension.
type StyleOptions struct {
	Naming        string // go | lisp-case | snake_case | pep8 | camelCase | detect
	RequireDocs   string // none | exported
	MaxLineLength int    // 0 = off
}

// SemanticsOptions configures the semantics dimension.
type SemanticsOptions struct {
	PreserveExports    bool
	PreserveSignatures bool
	PreserveTests      bool
	IncludeInternal    bool
}

// ComplexityOptions configures the complexity dimension; a limit of 0 turns its rule off.
type ComplexityOptions struct {
	MaxFunctionLines int
	MaxNestingDepth  int
	MaxCyclomatic    int
	MaxCognitive     int
}

// Override changes options (and severities) for the files matching Paths. Only the keys
// present in the file are set; the others are nil.
type Override struct {
	Paths []string

	Scope      *ScopeOverride
	Style      *StyleOverride
	Semantics  *SemanticsOverride
	Complexity *ComplexityOverride
	Rules      []RuleSeverity
}

// ScopeOverride holds the scope keys an override sets.
type ScopeOverride struct {
	MaxFilesChanged *int
}

// StyleOverride holds the style keys an override sets.
type StyleOverride struct {
	Naming        *string
	RequireDocs   *string
	MaxLineLength *int
}

// SemanticsOverride holds the semantics keys an override sets.
type SemanticsOverride struct {
	PreserveExports    *bool
	PreserveSignatures *bool
	PreserveTests      *bool
	IncludeInternal    *bool
}

// ComplexityOverride holds the complexity keys an override sets.
type ComplexityOverride struct {
	MaxFunctionLines *int
	MaxNestingDepth  *int
	MaxCyclomatic    *int
	MaxCognitive     *int
}
