package semantic

import (
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

// typeMismatch is the rule of lang.TypeMismatch problems: the resolvers' type
// disagreements, which are no hallucination (every name exists), run once for both
// dimensions (check.Pass.Resolve).
var typeMismatch = &check.Rule{
	ID: "semantics/type-mismatch", Default: policy.Warning,
	Short: "a value's type disagrees with the declared types, while every name exists",
	Doc: "A type checker infers from the annotations that a value does not fit where it is used, although " +
		"everything the code names exists: an argument whose type the parameter's annotation rejects " +
		"(pyright's reportArgumentType, and the \"No overloads\" error over the same call), or an attribute " +
		"the declared type lacks while a class of the project defines it for the object really passed (a " +
		"function declared to return TextIO that returns a wrapper with a .color). Python does not enforce " +
		"annotations, so the code may run; the annotations and the code disagree, and one of them is " +
		"wrong. A name that exists nowhere is hallucination/unknown-member or unknown-symbol instead. A " +
		"warning by default; the policy can make it an error. Go's type errors stay " +
		"hallucination/type-error: the compiler rejects the code.",
}

// typeFindings reports the resolvers' type mismatches.
func typeFindings(pass *check.Pass) ([]check.Finding, error) {
	ps, err := pass.Resolved(policy.Semantics, []*check.Rule{typeMismatch})
	if err != nil {
		return nil, err
	}
	out := make([]check.Finding, len(ps))
	for i, p := range ps {
		out[i] = check.Problem(policy.Semantics, p)
	}
	return out, nil
}
