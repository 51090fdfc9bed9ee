package policy

import (
	"strings"
	"testing"
	"time"
)

// TestYoungPackageDays checks hallucination.young_package_days: the default when absent,
// a value from 1 to 3650, a one-line error naming the line otherwise, and lowering it is
// a weakening a policy change reports.
func TestYoungPackageDays(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      time.Duration
		err       string
	}{
		{"absent", "version: 1\nhallucination: {}\n", 30 * 24 * time.Hour, ""},
		{"set", "version: 1\nhallucination:\n  young_package_days: 90\n", 90 * 24 * time.Hour, ""},
		{"one day", "version: 1\nhallucination:\n  young_package_days: 1\n", 24 * time.Hour, ""},
		{"zero", "version: 1\nhallucination:\n  young_package_days: 0\n", 0, "p.yaml:3:23: hallucination.young_package_days: want a whole number from 1 to 3650, got 0"},
		{"too many", "version: 1\nhallucination:\n  young_package_days: 3651\n", 0, "p.yaml:3:23: hallucination.young_package_days: want a whole number from 1 to 3650, got 3651"},
		{"negative", "version: 1\nhallucination:\n  young_package_days: -1\n", 0, "p.yaml:3:23: hallucination.young_package_days: want a whole number ≥ 0, got -1"},
		{"text", "version: 1\nhallucination:\n  young_package_days: 30d\n", 0, `p.yaml:3:23: hallucination.young_package_days: want a whole number, got "30d"`},
		{"unknown key", "version: 1\nhallucination:\n  young_package_age: 30\n", 0, `p.yaml:3:3: hallucination: unknown key "young_package_age" (known keys: young_package_days)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse("p.yaml", []byte(tc.src))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error = %v\nwant    %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Hallucination.YoungPackageAge(); got != tc.want {
				t.Errorf("YoungPackageAge = %s, want %s", got, tc.want)
			}
		})
	}
	var code *HallucinationOptions
	if code.YoungPackageAge() != 30*24*time.Hour || (&HallucinationOptions{}).YoungPackageAge() != 30*24*time.Hour {
		t.Error("a policy built in code does not get the default age")
	}
	base, _ := Parse("b.yaml", []byte("version: 1\nhallucination: {}\n"))
	lower, _ := Parse("h.yaml", []byte("version: 1\nhallucination:\n  young_package_days: 2\n"))
	higher, _ := Parse("h.yaml", []byte("version: 1\nhallucination:\n  young_package_days: 60\n"))
	if w := strings.Join(Weakened(base, lower), "; "); w != "lowers hallucination.young_package_days 30 → 2" {
		t.Errorf("Weakened(lower) = %q", w)
	}
	if w := Weakened(base, higher); len(w) != 0 {
		t.Errorf("Weakened(higher) = %q; want nothing", w)
	}
}
