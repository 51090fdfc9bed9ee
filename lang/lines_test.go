package lang_test

import (
	"slices"
	"testing"

	"github.com/agentverify/agentverify/lang"
)

func TestSplitLines(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"", nil},
		{"\n", []string{""}},
		{"a", []string{"a"}},
		{"a\nb\n", []string{"a", "b"}},
		{"a\r\nb\r\n", []string{"a", "b"}},
		{"a\n\nb", []string{"a", "", "b"}},
		{"a\n\n", []string{"a", ""}},
		{"a\rb\n", []string{"a\rb"}}, // a lone CR is no terminator
	} {
		if got := lang.SplitLines([]byte(c.src)); !slices.Equal(got, c.want) {
			t.Errorf("SplitLines(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}
