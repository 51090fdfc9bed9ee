package resolve

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// TestByteColumnProperty: for any line and any UTF-16 offset, the byte column is within
// the line (or just past it), on a rune boundary, and converting the prefix back to
// UTF-16 gives at least the offset asked for (or the whole line).
func TestByteColumnProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		line := rapid.StringN(0, 40, -1).Draw(t, "line")
		units := rapid.IntRange(0, 100).Draw(t, "units")
		col := byteColumn(line, units)
		if col < 1 || col > len(line)+1 {
			t.Fatalf("byteColumn(%q, %d) = %d, outside the line", line, units, col)
		}
		prefix := line[:col-1]
		if !utf8.ValidString(line) {
			return
		}
		if !utf8.ValidString(prefix) {
			t.Fatalf("byteColumn(%q, %d) = %d splits a rune", line, units, col)
		}
		if n := len(utf16.Encode([]rune(prefix))); n < units && prefix != line {
			t.Fatalf("byteColumn(%q, %d) = %d covers only %d units", line, units, col, n)
		}
	})
}

// TestClosestProperty: suggestions are at most three, distinct, candidates, and never
// the name itself.
func TestClosestProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.StringMatching(`[a-z_]{0,10}`).Draw(t, "name")
		cands := rapid.SliceOf(rapid.StringMatching(`[a-zA-Z_]{0,10}`)).Draw(t, "cands")
		got := closest(name, cands)
		if len(got) > maxSuggestions {
			t.Fatalf("%d suggestions", len(got))
		}
		seen := map[string]bool{}
		for _, g := range got {
			if g == name || seen[g] || !strings.Contains("\x00"+strings.Join(cands, "\x00")+"\x00", "\x00"+g+"\x00") {
				t.Fatalf("closest(%q, %q) = %q", name, cands, got)
			}
			seen[g] = true
		}
	})
}

// TestClosestSlips: at equal distance, the usual slips decide the order.
func TestClosestSlips(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cands []string
		first string
	}{
		{"getcwdd", []string{"getcwdb", "getcwd"}, "getcwd"},
		{"dumsp", []string{"dump", "dumps"}, "dumps"},
		{"dumpz", []string{"dump", "dumps"}, "dumps"},
		{"environment", []string{"environb", "environ"}, "environ"},
		{"readlins", []string{"readline", "readlines"}, "readlines"},
		{"olde_api", []string{"older_api", "old_api"}, "old_api"},
	} {
		if got := closest(tc.name, tc.cands); len(got) == 0 || got[0] != tc.first {
			t.Errorf("closest(%q, %q) = %q, want %s first", tc.name, tc.cands, got, tc.first)
		}
	}
}
