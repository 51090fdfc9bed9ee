package policy

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestLanguages checks the languages: key: features upper-cased without their colon,
// null and absence meaning the default, and a one-line error naming the line otherwise.
func TestLanguages(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
		err       string
	}{
		{"absent", "version: 1\n", nil, ""},
		{"null", "version: 1\nlanguages:\n  commonlisp:\n    features: null\n", nil, ""},
		{"features", "version: 1\nlanguages:\n  commonlisp:\n    features: [ccl, \":x86-64\", asdf3.3]\n", []string{"CCL", "X86-64", "ASDF3.3"}, ""},
		{"none", "version: 1\nlanguages:\n  commonlisp:\n    features: []\n", []string{}, ""},
		{"a scalar", "version: 1\nlanguages:\n  commonlisp:\n    features: sbcl\n", nil, "p.yaml:4: languages.commonlisp.features: want a list of feature names"},
		{"bad name", "version: 1\nlanguages:\n  commonlisp:\n    features: [\"(or a b)\"]\n", nil, "p.yaml:4: languages.commonlisp.features: want a feature name"},
		{"unknown language", "version: 1\nlanguages:\n  cobol: {}\n", nil, `p.yaml:3: languages: unknown key "cobol"`},
		{"unknown key", "version: 1\nlanguages:\n  commonlisp:\n    readtable: upcase\n", nil, `p.yaml:4: languages.commonlisp: unknown key "readtable"`},
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
			if got := p.Languages.CommonLisp.Features; !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
				t.Errorf("features = %#v, want %#v", got, tt.want)
			}
		})
	}
}
