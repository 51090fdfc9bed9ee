package style

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/lang"
)

// TestMajorityNamingDetection (P12): over random projects of multi-word names in lisp-case,
// snake_case and camelCase (and one-word names, which tell nothing), detection picks the
// convention with the most names, the earlier one on a tie.
func TestMajorityNamingDetection(t *testing.T) {
	convs := []string{"lisp-case", "snake_case", "camelCase"}
	spell := []func(a, b string) string{
		func(a, b string) string { return a + "-" + b },
		func(a, b string) string { return a + "_" + b },
		func(a, b string) string { return a + string(rune(b[0]-'a'+'A')) + b[1:] },
	}
	rapid.Check(t, func(t *rapid.T) {
		var ids []lang.Ident
		counts := make([]int, len(convs))
		for i := range convs {
			counts[i] = rapid.IntRange(0, 6).Draw(t, convs[i])
			for j := 0; j < counts[i]; j++ {
				ids = append(ids, lang.Ident{Name: spell[i]("make", fmt.Sprintf("thing%c", 'a'+j)), Kind: lang.IdentFunc})
			}
		}
		for j := rapid.IntRange(0, 5).Draw(t, "one-word"); j > 0; j-- {
			ids = append(ids, lang.Ident{Name: "word", Kind: lang.IdentVar})
		}
		want := 0
		for i := range convs {
			if counts[i] > counts[want] {
				want = i
			}
		}
		if got := majority(convs, ids); got != convs[want] {
			t.Fatalf("counts %v: detected %s, want %s", counts, got, convs[want])
		}
	})
}
