package resolve

import (
	"sort"
	"strings"

	"github.com/agentverify/agentverify/lang/suggest"
)

// maxSuggestions bounds how many names a suggestion offers.
const maxSuggestions = 3

// closest returns up to three of cands closest to name, best first: a case-insensitive
// match, then by Damerau-Levenshtein distance (case-insensitive) with prefix and substring
// matches preferred at equal distance. Candidates farther than about a third of the
// name's length that are neither prefix nor substring are not offered, so an unrelated
// name is never suggested.
func closest(name string, cands []string) []string {
	type scored struct {
		name  string
		class int // 0 case-insensitive equal, 1 near, 2 prefix/substring only
		dist  int
	}
	lname := strings.ToLower(name)
	limit := (len(name) + 1) / 3 // 1 up to five characters, 2 up to eight, …
	if len(name) < 3 {
		limit = 0 // a one- or two-letter name is close to everything
	}
	var ok []scored
	seen := map[string]bool{}
	for _, c := range cands {
		if c == name || seen[c] {
			continue
		}
		seen[c] = true
		lc := strings.ToLower(c)
		d := suggest.Distance(lname, lc)
		switch {
		case lc == lname:
			ok = append(ok, scored{c, 0, 0})
		case d <= limit:
			ok = append(ok, scored{c, 1, d})
		case related(lname, lc):
			ok = append(ok, scored{c, 2, d})
		}
	}
	sort.Slice(ok, func(i, j int) bool {
		a, b := ok[i], ok[j]
		if a.class != b.class {
			return a.class < b.class
		}
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		return a.name < b.name
	})
	var out []string
	for i := 0; i < len(ok) && i < maxSuggestions; i++ {
		out = append(out, ok[i].name)
	}
	return out
}

// related reports a prefix or substring relation between two lower-cased names, when the
// shorter one is long enough to mean something.
func related(a, b string) bool {
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	if len(short) < 4 {
		return false
	}
	return strings.HasPrefix(long, short) || (len(short) >= 5 && strings.Contains(long, short))
}
