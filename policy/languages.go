package policy

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentverify/agentverify/lazyregexp"
)

// LanguageOptions configure the language frontends, where a language needs to know more
// than its files say.
type LanguageOptions struct {
	CommonLisp CommonLispOptions
}

// CommonLispOptions configure the Common Lisp frontend.
type CommonLispOptions struct {
	// Features are the *features* that #+ and #- read against, upper-cased and without
	// the leading colon ("SBCL", "X86-64"); nil means SBCL's on x86-64 Linux. The
	// branches of other Lisps are not code for the verification, so the trusted policy
	// names the Lisp the project is built with.
	Features []string
}

var featureName = lazyregexp.New(`^:?[A-Za-z0-9][A-Za-z0-9_.+*/-]*$`)

// languages decodes the languages: key.
func (d *decoder) languages(dst *LanguageOptions) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		return d.fields(v, "languages", map[string]func(*yaml.Node) error{
			"commonlisp": func(v *yaml.Node) error {
				return d.fields(v, "languages.commonlisp", map[string]func(*yaml.Node) error{
					"features": d.features("languages.commonlisp.features", &dst.CommonLisp.Features),
				})
			},
		})
	}
}

// features decodes a list of Lisp feature names (":sbcl" or "SBCL"); null is the default.
func (d *decoder) features(key string, dst *[]string) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			*dst = nil // the default
			return nil
		}
		if v.Kind != yaml.SequenceNode {
			return d.errorf(v, "%s: want a list of feature names such as [sbcl, x86-64], got %s", key, describe(v))
		}
		out := []string{}
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode || !featureName.MatchString(e.Value) {
				return d.errorf(e, "%s: want a feature name such as sbcl or :x86-64, got %s", key, describe(e))
			}
			out = append(out, strings.ToUpper(strings.TrimPrefix(e.Value, ":")))
		}
		*dst = out
		return nil
	}
}
