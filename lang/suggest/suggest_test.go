package suggest

import (
	"testing"

	"pgregory.net/rapid"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3},
		{"loads", "laods", 1}, {"string-upcase", "string-upcasee", 1},
		{"Getenv", "GetEnv", 1}, {"kitten", "sitting", 3},
		{"ca", "abc", 3}, // optimal string alignment, not full Damerau-Levenshtein
		{"héllo", "hello", 1},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// Distance is symmetric, zero only on equal strings, and bounded by the longer length.
func TestDistanceProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := rapid.String().Draw(t, "a"), rapid.String().Draw(t, "b")
		d := Distance(a, b)
		if d != Distance(b, a) {
			t.Fatalf("not symmetric: %q %q", a, b)
		}
		if (d == 0) != (a == b) {
			t.Fatalf("Distance(%q, %q) = %d", a, b, d)
		}
		if d > max(len([]rune(a)), len([]rune(b))) {
			t.Fatalf("Distance(%q, %q) = %d exceeds the longer length", a, b, d)
		}
	})
}
