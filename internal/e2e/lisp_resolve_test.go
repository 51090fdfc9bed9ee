package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/report"
)

// hallucinations returns the hallucination findings of a report as "file:line:col rule".
func hallucinations(rep *report.Report) []string {
	var got []string
	for _, v := range rep.Violations {
		if strings.HasPrefix(v.Rule, "hallucination/") {
			got = append(got, fmt.Sprintf("%s:%d:%d %s", v.Location.File, v.Location.Line, v.Location.Column, v.Rule))
		}
	}
	slices.Sort(got)
	return got
}

// TestLispResolveAlexandria verifies a real Lisp system, Debian's alexandria, in a git
// repository: the whole unchanged tree draws no hallucination finding in check mode, and
// a change that plants the mistakes agents make is reported at each one's position.
func TestLispResolveAlexandria(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	writeFiles(t, repo, alexandriaFiles(t))
	git(t, repo, "init", "-q", "-b", "main")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "alexandria")

	rep, err := agentverify.Check(context.Background(), agentverify.Request{Dir: repo, Source: agentverify.Paths})
	if err != nil {
		t.Fatal(err)
	}
	if got := hallucinations(rep); len(got) != 0 {
		t.Fatalf("the unchanged alexandria tree draws hallucination findings:\n%s", strings.Join(got, "\n"))
	}

	lists := filepath.Join(repo, "alexandria-1", "lists.lisp")
	src, err := os.ReadFile(lists)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Count(string(src), "\n") + 1 // the planted function's first line
	planted := `(defun planted (x table)
  (list (string-upcasee x)
        (ensure-list x x)
        (alexandria:%multiply-range 1 2)
        (position x table :tset #'eq)
        (flatten x)))
`
	if err := os.WriteFile(lists, append(src, planted...), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = agentverify.Check(context.Background(), agentverify.Request{Dir: repo})
	if err != nil {
		t.Fatal(err)
	}
	at := func(dl, col int, rule string) string {
		return fmt.Sprintf("alexandria-1/lists.lisp:%d:%d hallucination/%s", line+dl, col, rule)
	}
	want := []string{at(1, 10, "undefined"), at(2, 9, "wrong-arity"), at(3, 10, "unknown-symbol"), at(4, 27, "unknown-keyword")}
	slices.Sort(want)
	if got := hallucinations(rep); !slices.Equal(got, want) {
		t.Fatalf("planted mistakes:\n got %q\nwant %q", got, want)
	}
	// Each finding says what to do instead.
	hints := map[string]string{
		"hallucination/undefined":       "did you mean string-upcase?",
		"hallucination/wrong-arity":     "(ensure-list list)",
		"hallucination/unknown-symbol":  "use alexandria::%multiply-range, or export it",
		"hallucination/unknown-keyword": "did you mean :test?",
	}
	for _, v := range rep.Violations {
		if hint, ok := hints[v.Rule]; ok && !strings.Contains(v.Message+" "+v.Suggestion, hint) {
			t.Errorf("%s: %q / %q lacks %q", v.Rule, v.Message, v.Suggestion, hint)
		}
	}
}
