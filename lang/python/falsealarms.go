package python

import "github.com/agentverify/agentverify/lang"

// dropFalseAlarms drops the findings that idiomatic code draws from pyright (design.md
// §4.3.1): members of modules whose real source defines them or builds its namespace at
// run time.
func (j *job) dropFalseAlarms(ps []lang.Problem) []lang.Problem {
	out := ps[:0]
	for _, p := range ps {
		if j.namespaceFalseAlarm(p) {
			continue
		}
		out = append(out, p)
	}
	return out
}
