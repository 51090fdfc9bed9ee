package resolve

import (
	"testing"

	"github.com/agentverify/agentverify/lang/suggest"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "ab", 2}, {"tset", "test", 1}, {"string-upcasee", "string-upcase", 1},
		{"kitten", "sitting", 3}, {"ca", "abc", 3}, {"abc", "abc", 0},
	} {
		if got := suggest.Distance(c.a, c.b); got != c.want {
			t.Errorf("suggest.Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
