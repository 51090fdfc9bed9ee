package engine

import (
	"errors"

	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
)

// UnverifiedReason is why a run could not verify its change: the first dimension that
// could not complete, in report order. A lang.SetupError is the user's to fix and says
// how (install pyright, download the modules), so it is given as is.
func UnverifiedReason(outcomes []Outcome) string {
	for _, o := range outcomes {
		var se *lang.SetupError
		switch {
		case o.Err == nil:
		case errors.As(o.Err, &se):
			return oneLine(se.Error())
		default:
			return "the " + o.Dimension + " dimension could not complete: " + oneLine(o.Err.Error())
		}
	}
	return "a dimension could not complete"
}

// RuleList returns every rule of dims in report order, each dimension's internal-error
// rule after its own.
func RuleList(dims []*check.Dimension) []*check.Rule {
	var out []*check.Rule
	for _, d := range dims {
		out = append(out, d.Rules...)
		out = append(out, InternalErrorRule(d.Name))
	}
	return out
}

// Rules returns every rule of dims, the synthesised internal-error rules included, by ID.
func Rules(dims []*check.Dimension) map[string]*check.Rule {
	m := map[string]*check.Rule{}
	for _, r := range RuleList(dims) {
		m[r.ID] = r
	}
	return m
}
