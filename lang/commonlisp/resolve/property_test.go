package resolve

import (
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/agentverify/agentverify/lang/commonlisp/asdf"
	"github.com/agentverify/agentverify/lang/commonlisp/cltable"
)

// A COMMON-LISP function name with one character dropped or two swapped is reported as
// undefined, at the call, with the real name among the suggestions.
func TestMisspelledCLSuggestsIt(t *testing.T) {
	var names []string
	for s := range cltable.All {
		if s.Kind&cltable.Function != 0 && len(s.Name) >= 6 && !strings.ContainsAny(s.Name, "|\\") {
			names = append(names, strings.ToLower(s.Name))
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom(names).Draw(t, "name")
		i := rapid.IntRange(0, len(name)-2).Draw(t, "at")
		typo := name[:i] + name[i+1:]
		if rapid.Bool().Draw(t, "swap") {
			typo = name[:i] + string(name[i+1]) + string(name[i]) + name[i+2:]
		}
		if _, ok := cltable.Lookup(strings.ToUpper(typo)); ok || typo == name || otherLanguage[typo] != "" {
			return // the typo is a name: nothing to check
		}
		got := resolveFiles(t, map[string]string{"a.lisp": "(" + typo + ")"})
		if len(got) != 1 || !strings.Contains(got[0], "a.lisp:1:2 undefined") || !strings.Contains(got[0], name) {
			t.Fatalf("(%s): %q", typo, got)
		}
	})
}

// Concurrent verifications sharing one Deps see the same problems.
func TestConcurrentResolve(t *testing.T) {
	files := map[string]string{"a.lisp": "(string-upcasee 1)\n(position 1 '(1) :tset 2)"}
	deps := NewDeps([]asdf.Root{}, nil)
	want := strings.Join(resolveWith(t, deps, files), "\n")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := strings.Join(resolveWith(t, deps, files), "\n"); got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		}()
	}
	wg.Wait()
}
