package shorttest

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestRuns(t *testing.T) {
	short := testing.Short()
	defer flag.Set("test.short", map[bool]string{true: "true", false: "false"}[short])
	for _, s := range []bool{false, true} {
		flag.Set("test.short", map[bool]string{true: "true", false: "false"}[s])
		var ran []int
		for i := range 7 {
			if Runs(i, 3) {
				ran = append(ran, i)
			}
		}
		want := []int{0, 1, 2, 3, 4, 5, 6}
		if s {
			want = []int{0, 3, 6}
		}
		if !slices.Equal(ran, want) {
			t.Errorf("short=%v: ran %v, want %v", s, ran, want)
		}
		if !Runs(5, 1) || !Runs(5, 0) {
			t.Errorf("short=%v: n < 2 must run every case", s)
		}
	}
}

// skipRecorder records whether Slow skipped, without ending the calling test.
type skipRecorder struct {
	testing.TB
	skipped string
}

func (r *skipRecorder) Helper()                          {}
func (r *skipRecorder) Skipf(format string, args ...any) { r.skipped = fmt.Sprintf(format, args...) }

func TestSlow(t *testing.T) {
	short := testing.Short()
	defer flag.Set("test.short", map[bool]string{true: "true", false: "false"}[short])
	for _, s := range []bool{false, true} {
		flag.Set("test.short", map[bool]string{true: "true", false: "false"}[s])
		r := &skipRecorder{TB: t}
		Slow(r, "starts a real tool")
		if s != (r.skipped != "") {
			t.Errorf("short=%v: skipped %q", s, r.skipped)
		}
		if s && !strings.Contains(r.skipped, "starts a real tool") {
			t.Errorf("the skip %q does not say what makes the test slow", r.skipped)
		}
	}
}
