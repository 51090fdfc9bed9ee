package report

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"

	"github.com/agentverify/agentverify/lazyregexp"
	"github.com/agentverify/agentverify/policy"
)

// StatusOf is the verdict of a set of violations (P3): error when a dimension could not
// complete (an internal-error violation), else failed when any is an error, warnings when
// there are only warnings, passed when there are none.
func StatusOf(vs []Violation) Status {
	s := Passed
	for _, v := range vs {
		switch {
		case IsInternalError(v.Rule):
			return Errored
		case v.Severity == policy.Error:
			s = Failed
		case v.Severity == policy.Warning && s == Passed:
			s = Warnings
		}
	}
	return s
}

// Sort orders violations by file, line, column, rule and message, the order of every
// output format.
func Sort(vs []Violation) {
	sort.SliceStable(vs, func(i, j int) bool {
		a, b := vs[i], vs[j]
		switch {
		case a.Location.File != b.Location.File:
			return a.Location.File < b.Location.File
		case a.Location.Line != b.Location.Line:
			return a.Location.Line < b.Location.Line
		case a.Location.Column != b.Location.Column:
			return a.Location.Column < b.Location.Column
		case a.Rule != b.Rule:
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}

// lineRef matches the line references a message may carry ("a.go:12", "line 12",
// "lines 3-4"), which shift when code moves; other numbers (limits, values) are kept.
var lineRef = lazyregexp.New(`(:\d+(:\d+)?\b)|(\blines? \d+(-\d+)?\b)`)

// Fingerprint identifies a violation across runs, stable under line shifts: a hash of the
// rule, file, symbol and the message without line references.
func Fingerprint(rule, file, symbol, message string) string {
	h := sha256.New()
	for _, s := range []string{rule, file, symbol, lineRef.ReplaceAllString(message, "")} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
