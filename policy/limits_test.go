package policy

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestLimits checks the limits: key — defaults when absent, each key on its own, and a
// one-line error naming the line for every bad value.
func TestLimits(t *testing.T) {
	tests := []struct {
		name, src string
		want      Limits
		err       string
	}{
		{"absent", "version: 1\n", DefaultLimits(), ""},
		{"empty", "version: 1\nlimits: {}\n", DefaultLimits(), ""},
		{"size only", "version: 1\nlimits:\n  max_file_size: 1000\n", Limits{1000, DefaultDimensionTimeout, DefaultMaxDownloadSize}, ""},
		{"timeout only", "version: 1\nlimits:\n  dimension_timeout: 90s\n", Limits{DefaultMaxFileSize, 90 * time.Second, DefaultMaxDownloadSize}, ""},
		{"largest size", "version: 1\nlimits:\n  max_file_size: 268435456\n", Limits{256 << 20, DefaultDimensionTimeout, DefaultMaxDownloadSize}, ""},
		{"download size", "version: 1\nlimits:\n  max_download_size: 1048576\n", Limits{DefaultMaxFileSize, DefaultDimensionTimeout, 1 << 20}, ""},
		{"largest download size", "version: 1\nlimits:\n  max_download_size: 68719476736\n", Limits{DefaultMaxFileSize, DefaultDimensionTimeout, 64 << 30}, ""},
		{"zero download size", "version: 1\nlimits:\n  max_download_size: 0\n", Limits{}, "p.yaml:3: limits.max_download_size: want a size in bytes from 1 to 68719476736 (64 GiB), got 0"},
		{"huge download size", "version: 1\nlimits:\n  max_download_size: 68719476737\n", Limits{}, "p.yaml:3: limits.max_download_size: want a size in bytes from 1"},
		{"download size as text", "version: 1\nlimits:\n  max_download_size: 1GB\n", Limits{}, `p.yaml:3: limits.max_download_size: want a whole number, got "1GB"`},
		{"zero size", "version: 1\nlimits:\n  max_file_size: 0\n", Limits{}, "p.yaml:3: limits.max_file_size: want a size in bytes from 1"},
		{"huge size", "version: 1\nlimits:\n  max_file_size: 268435457\n", Limits{}, "p.yaml:3: limits.max_file_size: want a size in bytes from 1"},
		{"size as text", "version: 1\nlimits:\n  max_file_size: 5MB\n", Limits{}, `p.yaml:3: limits.max_file_size: want a whole number, got "5MB"`},
		{"timeout as number", "version: 1\nlimits:\n  dimension_timeout: 300\n", Limits{}, "p.yaml:3: limits.dimension_timeout: want a duration"},
		{"bad timeout", "version: 1\nlimits:\n  dimension_timeout: soon\n", Limits{}, `p.yaml:3: limits.dimension_timeout: want a duration such as "5m" or "90s", got "soon"`},
		{"zero timeout", "version: 1\nlimits:\n  dimension_timeout: 0s\n", Limits{}, "p.yaml:3: limits.dimension_timeout: want a duration from 1s to 1h0m0s, got 0s"},
		{"long timeout", "version: 1\nlimits:\n  dimension_timeout: 2h\n", Limits{}, "p.yaml:3: limits.dimension_timeout: want a duration from 1s to 1h0m0s"},
		{"unknown key", "version: 1\nlimits:\n  max_depth: 3\n", Limits{}, `p.yaml:3: limits: unknown key "max_depth"`},
		{"not a mapping", "version: 1\nlimits: 5\n", Limits{}, "p.yaml:2: limits: want a mapping"},
		{"null", "version: 1\nlimits:\n", Limits{}, "p.yaml:2: limits: want a mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("p.yaml", []byte(tt.src))
			if tt.err != "" {
				prefix, rest, _ := strings.Cut(tt.err, ": ")
				if err == nil || !regexp.MustCompile(`^`+regexp.QuoteMeta(prefix)+`:\d+: `).MatchString(err.Error()) ||
					!strings.Contains(err.Error(), rest) || strings.Contains(err.Error(), "\n") {
					t.Errorf("error = %v\nwant   %s…", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Limits != tt.want {
				t.Errorf("limits = %+v, want %+v", p.Limits, tt.want)
			}
		})
	}
}

// TestDefaultLimitsAreSafe pins the built-in limits: bounded, and the ones the starter
// policy and the documentation state.
func TestDefaultLimitsAreSafe(t *testing.T) {
	l := Default().Limits
	if l.MaxFileSize != 5<<20 || l.DimensionTimeout != 5*time.Minute || l.MaxDownloadSize != 256<<20 {
		t.Errorf("default limits %+v, want 5 MiB, 5m and 256 MiB", l)
	}
	if !strings.Contains(string(Starter()), "max_file_size: 5242880") || !strings.Contains(string(Starter()), "dimension_timeout: 5m") ||
		!strings.Contains(string(Starter()), "max_download_size: 268435456") {
		t.Error("the starter policy does not spell out the default limits")
	}
}

// TestLimitsOfACodePolicy checks that a Policy built in code, with no limits set, gets the
// defaults rather than no limit at all.
func TestLimitsOfACodePolicy(t *testing.T) {
	var l Limits
	if l.FileSize() != DefaultMaxFileSize || l.Timeout() != DefaultDimensionTimeout || l.DownloadSize() != DefaultMaxDownloadSize {
		t.Errorf("zero limits: %d %s %d", l.FileSize(), l.Timeout(), l.DownloadSize())
	}
	l = Limits{MaxFileSize: 7, DimensionTimeout: time.Second}
	if l.FileSize() != 7 || l.Timeout() != time.Second {
		t.Errorf("set limits: %d %s", l.FileSize(), l.Timeout())
	}
}
