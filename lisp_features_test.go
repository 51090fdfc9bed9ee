package agentverify_test

import (
	"context"
	"slices"
	"testing"

	"github.com/agentverify/agentverify"
)

// TestLispFeaturesFromPolicy: #+/#- read against the policy's languages.commonlisp.features,
// so a project built with another Lisp gets its own branches checked and SBCL's left out.
func TestLispFeaturesFromPolicy(t *testing.T) {
	src := "(defun shout (s)\n  \"Upper-cases S.\"\n  #+sbcl (string-upcasee s)\n  #+ccl (string-downcasee s))\n"
	for _, c := range []struct {
		name, policy string
		want         []string
	}{
		{"default: SBCL on x86-64 Linux", "", []string{"shout.lisp:3:11 hallucination/undefined"}},
		{"Clozure CL", "languages:\n  commonlisp:\n    features: [ccl, \":x86-64\", linux]\n", []string{"shout.lisp:4:10 hallucination/undefined"}},
		{"no features at all", "languages:\n  commonlisp:\n    features: []\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"shout.lisp": src}
			if c.policy != "" {
				files[".agentverify.yaml"] = "version: 1\nhallucination: {}\n" + c.policy
			}
			writeFiles(t, dir, files)
			rep, err := agentverify.Check(context.Background(), agentverify.Request{Dir: dir, Source: agentverify.Paths})
			if err != nil {
				t.Fatal(err)
			}
			if got := hallucinations(rep); !slices.Equal(got, c.want) {
				t.Errorf("findings %v, want %v", got, c.want)
			}
		})
	}
}
