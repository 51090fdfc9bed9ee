package attacks

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentverify/agentverify/internal/testkit/tsctest"
	"github.com/agentverify/agentverify/lang/typescript/tsc"
)

// knownOpen lists the attacks that still get through, each with the defence that would
// close it. Each is run and reported as skipped ("OPEN"); an attack in this list that
// holds fails the suite, so the list only shrinks and never hides a regression. Every
// attack holds today: keep it empty, and add to it only with a defence on the way.
var knownOpen = map[string]string{}

// TestAttacks plays every testdata/*.txtar script as the gated agent would and checks the
// gate holds: `go test ./internal/attacks -run TestAttacks -v` lists each attack as held
// (PASS) or OPEN (SKIP) and ends with a summary. With -short, open attacks are not run.
func TestAttacks(t *testing.T) {
	scripts := loadScripts(t)
	noTSC := findTSC(t)
	if len(scripts) < 40 {
		t.Errorf("%d attack scripts; the suite promises at least 40", len(scripts))
	}
	var mu sync.Mutex
	held, open := []string{}, []string{}
	slow := notInShortSample(scripts)
	t.Run("attack", func(t *testing.T) {
		for _, s := range scripts {
			t.Run(s.name, func(t *testing.T) {
				t.Parallel()
				if slow[s.name] {
					t.Skip("slow: -short plays no script through the built binary's git hook and one in eight of the others; the full suite plays all")
				}
				if noTSC != nil && (strings.HasPrefix(s.name, "ts-") || strings.HasPrefix(s.name, "tsconfig-")) {
					t.Skipf("%v (or run .ci/run, which installs it into .cache/typescript)", noTSC)
				}
				reason, isOpen := knownOpen[s.name]
				if isOpen && testing.Short() {
					t.Skipf("OPEN: %s (not run with -short)", reason)
				}
				fails, trace := play(t, s)
				mu.Lock()
				if len(fails) == 0 {
					held = append(held, s.name)
				} else {
					open = append(open, s.name)
				}
				mu.Unlock()
				verdict(t, s, reason, isOpen, fails, trace)
			})
		}
	})
	sort.Strings(held)
	sort.Strings(open)
	t.Logf("%d of %d attacks run held (%d scripts); open: %s", len(held), len(held)+len(open), len(scripts), strings.Join(open, ", "))
}

// findTSC makes the TypeScript compiler findable for the TypeScript attacks (ts-*,
// tsconfig-*): the project-local install .ci/run makes, or $AGENTVERIFY_TSC or PATH's. It
// returns why there is none.
func findTSC(t *testing.T) error {
	if os.Getenv(tsc.EnvVar) == "" {
		if cmd := tsctest.Local(); cmd != "" {
			t.Setenv(tsc.EnvVar, cmd)
		}
	}
	_, err := tsc.Find("")
	return err
}

// verdict reports one attack: held, open as expected, open unexpectedly, or held although
// listed as open.
func verdict(t *testing.T, s *script, reason string, isOpen bool, fails, trace []string) {
	t.Helper()
	switch {
	case len(fails) == 0 && isOpen:
		t.Errorf("held: %s\nremove %q from knownOpen", s.comment, s.name)
	case len(fails) == 0:
		t.Logf("held: %s\n%s", firstLine(s.comment), strings.Join(trace, "\n"))
	case isOpen:
		t.Skipf("OPEN (%s): %s\n%s", reason, firstLine(s.comment), strings.Join(fails, "\n"))
	default:
		t.Errorf("the gate opened: %s\n%s", s.comment, strings.Join(fails, "\n"))
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestKnownOpenNamesExist keeps knownOpen honest: every name is a script.
func TestKnownOpenNamesExist(t *testing.T) {
	names := map[string]bool{}
	for _, s := range loadScripts(t) {
		names[s.name] = true
	}
	for name := range knownOpen {
		if !names[name] {
			t.Errorf("knownOpen names %q, which is no script in testdata/", name)
		}
	}
}

// TestHarnessCatches makes sure the harness itself can fail: a gate that lets a forbidden
// write through, an expectation that does not match and a hang are all reported.
func TestHarnessCatches(t *testing.T) {
	const src = `the harness reports what did not hold
-- .attack --
run diff
want exit 1
want rule scope/forbidden-path
want out nothing-like-this
-- base/go.mod --
module example.com/m

go 1.22
-- head/notes.txt --
fine
`
	s, err := parseScript("harness", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fails, _ := play(t, s)
	if len(fails) != 3 {
		t.Errorf("want 3 failures (exit, rule, out), got %d:\n%s", len(fails), strings.Join(fails, "\n"))
	}
	for _, bad := range []string{"no steps\n-- base/x --\n", "-- .attack --\nrun diff\nwant exit 0\n", "c\n-- .attack --\nrun diff\n", "c\n-- .attack --\nrun diff\nwant exitt 1\n", "c\n-- .attack --\nrnu diff\nrun diff\nwant exit 0\n"} {
		if _, err := parseScript("bad", []byte(bad)); err == nil {
			t.Errorf("parseScript accepted %q", bad)
		}
	}
	r := &runner{t: t, timeout: 50 * time.Millisecond}
	if o := r.timed(func(ctx context.Context) outcome { <-ctx.Done(); return outcome{} }); !o.hung {
		t.Error("a run that outlives its time limit is not reported as hung")
	}
}

// TestSecurityDocNamesEveryAttack keeps docs/security.md true: every script is named under
// a guarantee, and every name after "Tested by:" is a script.
func TestSecurityDocNamesEveryAttack(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "security.md"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, s := range loadScripts(t) {
		names[s.name] = true
	}
	named := map[string]bool{}
	for _, para := range strings.Split(string(doc), "\n\n") {
		_, list, ok := strings.Cut(para, "Tested by:")
		if !ok {
			continue
		}
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(list, -1) {
			named[m[1]] = true
			if !names[m[1]] {
				t.Errorf("docs/security.md names %q, which is no script in testdata/", m[1])
			}
		}
	}
	for name := range names {
		if !named[name] {
			t.Errorf("docs/security.md does not name attack %q under any guarantee", name)
		}
	}
}
