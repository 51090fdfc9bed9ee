package resolve

import (
	"sort"
	"strings"

	"github.com/agentverify/agentverify/lang/suggest"
)

// maxSuggestions bounds how many names a suggestion offers.
const maxSuggestions = 3

// closest returns up to three of cands closest to name, best first: a case-insensitive
// match, then by edit distance (at most about a third of the name's length), then names
// that contain it or that it contains; an unrelated name is never offered.
func closest(name string, cands []string) []string {
	lname := strings.ToLower(name)
	limit := (len(name) + 1) / 3
	if len(name) < 2 {
		limit = 0
	}
	var ok []scored
	seen := map[string]bool{}
	for _, c := range cands {
		if c == name || c == "" || seen[c] {
			continue
		}
		seen[c] = true
		if s, near := score(lname, c, limit); near {
			ok = append(ok, s)
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
		if ra, rb := typoRank(lname, a.name), typoRank(lname, b.name); ra != rb {
			return ra > rb
		}
		if da, db := abs(len(a.name)-len(name)), abs(len(b.name)-len(name)); da != db {
			return da < db // at equal distance, a transposition beats a deletion
		}
		return a.name < b.name
	})
	var out []string
	for i := 0; i < len(ok) && i < maxSuggestions; i++ {
		out = append(out, ok[i].name)
	}
	return out
}

// scored is a candidate's closeness: its class (0 equal but for case, 1 within the edit
// limit, 2 containing or contained), then its edit distance.
type scored struct {
	name        string
	class, dist int
}

// score rates candidate c for the lower-cased name; near is false when c is unrelated.
func score(lname, c string, limit int) (scored, bool) {
	lc := strings.ToLower(c)
	d := suggest.Distance(lname, lc)
	switch {
	case lc == lname:
		return scored{c, 0, 0}, true
	case d <= limit && (len(lname) > 2 || len(lc) > len(lname)):
		return scored{c, 1, d}, true // a two-letter name only missing a letter (nw → now)
	case len(lname) >= 4 && len(lc) >= 4 && (strings.Contains(lc, lname) || strings.Contains(lname, lc)):
		return scored{c, 2, d}, true
	}
	return scored{}, false
}

func abs(n int) int { return max(n, -n) }

// typoRank orders candidates at the same edit distance from the lower-cased name by how
// typists slip: a doubled letter (getcwdd → getcwd, not getcwdb) first, then two letters
// swapped (dumsp → dumps, not dump), then a word the name extends by more than a letter
// (environment → environ, not environb), then the letters both end with (readlins →
// readlines, not readline).
func typoRank(lname, c string) int {
	lc := strings.ToLower(c)
	switch {
	case doubled(lname, lc):
		return 1 << 20
	case transposed(lname, lc):
		return 1 << 19
	case len(lname) >= len(lc)+2 && strings.HasPrefix(lname, lc):
		return 1 << 18
	}
	s := 0
	for s < len(lname) && s < len(lc) && lname[len(lname)-1-s] == lc[len(lc)-1-s] {
		s++
	}
	return s
}

// transposed reports whether name is c with two neighbouring letters swapped.
func transposed(name, c string) bool {
	if len(name) != len(c) {
		return false
	}
	for i := 0; i+1 < len(name); i++ {
		if name[i] != c[i] {
			return name[i] == c[i+1] && name[i+1] == c[i] && name[i+2:] == c[i+2:]
		}
	}
	return false
}

// doubled reports whether name is c with one of its letters typed twice.
func doubled(name, c string) bool {
	if len(name) != len(c)+1 {
		return false
	}
	for i := 1; i < len(name); i++ {
		if name[i] == name[i-1] && name[:i]+name[i+1:] == c {
			return true
		}
	}
	return false
}

// didYouMean phrases a suggestion of names, "" when there is none.
func didYouMean(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return "did you mean " + strings.Join(names, ", ") + "?"
}
