package resolve

import (
	"sort"
	"strings"

	"github.com/agentverify/agentverify/lang/suggest"
)

// nearest returns the candidates closest to name, at most three: a different case
// only, or an edit distance of at most a third of the name's length (at least 1).
func nearest(name string, candidates []string) []string {
	type scored struct {
		s string
		d int
	}
	limit := max(1, len([]rune(name))/3)
	var out []scored
	seen := map[string]bool{}
	for _, c := range candidates {
		if c == name || seen[c] {
			continue
		}
		seen[c] = true
		d := suggest.Distance(name, c)
		if strings.EqualFold(c, name) {
			d = 0
		}
		if d <= limit {
			out = append(out, scored{c, d})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].d != out[j].d {
			return out[i].d < out[j].d
		}
		return out[i].s < out[j].s
	})
	var names []string
	for i := 0; i < len(out) && i < 3; i++ {
		names = append(names, out[i].s)
	}
	return names
}

// didYouMean words a suggestion from names, "" when there is none.
func didYouMean(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return "did you mean " + strings.Join(names, " or ") + "?"
}
