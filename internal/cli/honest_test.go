package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentverify/agentverify"
	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang"
	"github.com/agentverify/agentverify/report"
)

// crashingGo is the Go frontend with a resolver that panics in a goroutine it starts
// (under a crash.Group, as every goroutine of the project runs).
type crashingGo struct{ lang.Frontend }

func (crashingGo) Resolve(*lang.Request) ([]lang.Problem, error) {
	var g crash.Group
	g.Go(func() {
		var m map[string]bool
		m["boom"] = true
	})
	return nil, g.Wait()
}

// TestCrashInAFrontendExitsTwo: a frontend that panics inside a goroutine it started is
// the hallucination dimension's internal error naming the first frame of ours; the run
// could not be verified (exit 2, not 1), the other dimensions' findings are reported,
// and every machine-readable output says so.
func TestCrashInAFrontendExitsTwo(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	r.Write(map[string]string{"m.go": cleanGo + "\nfunc Sub(a, b int) int { return a - b }\n"}) // a style warning
	checker := &agentverify.Checker{Languages: lang.Registry{crashingGo{golang.New()}}}
	sarif := filepath.Join(t.TempDir(), "out.sarif")
	code, out, errs := runWith(t, r.Dir, checker, "diff", "--format", "json", "--output", "sarif="+sarif, "--output", "json")
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if code != ExitError || rep.Status != report.Errored || rep.Passed {
		t.Fatalf("exit %d status %s, want 2 and error\n%s%s", code, rep.Status, out, errs)
	}
	site := regexp.MustCompile(`^the hallucination dimension could not complete: (\w[\w ]*: )?panicked: assignment to entry in nil map at cli\.crashingGo\.Resolve\.func1 \(internal/cli/honest_test\.go:\d+\)$`)
	var internal, style bool
	for _, v := range rep.Violations {
		internal = internal || v.Rule == "hallucination/internal-error" && site.MatchString(v.Message)
		style = style || v.Rule == "style/missing-doc"
	}
	if !internal || !style || !site.MatchString(rep.Error) {
		t.Errorf("want the internal error naming our frame and the style finding beside it, reason %q:\n%s", rep.Error, out)
	}
	if !strings.Contains(errs, "could not verify: the hallucination dimension could not complete: ") || !strings.Contains(errs, "panicked") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("stderr %q, want one line saying why", errs)
	}
	if b := readFile(t, sarif); !strings.Contains(b, `"executionSuccessful": false`) || !strings.Contains(b, "panicked") {
		t.Errorf("SARIF does not say the run failed:\n%s", b)
	}
	code, out, _ = runWith(t, r.Dir, checker, "diff")
	if code != ExitError || !strings.Contains(out, "COULD NOT VERIFY") || strings.Contains(out, "FAILED") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
}

// runWith is run with a checker of the test's own.
func runWith(t *testing.T, dir string, checker *agentverify.Checker, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	code := Main(t.Context(), args, &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: dir, Checker: checker, Getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

// TestBaseMustNameACommit: an empty --base (an unset CI variable) and revisions naming a
// file or a tree are usage errors, refused before anything is verified; a good base is
// recorded in the JSON report as the commit verified against.
func TestBaseMustNameACommit(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	r.Write(map[string]string{"m.go": cleanGo + "\n// Bad is broken.\nfunc Bad() int { return nope }\n"})
	r.Commit("broken")
	for base, want := range map[string]string{
		"":             `--base ""`,
		"  ":           `--base ""`,
		"HEAD:go.mod":  "not a commit",
		"HEAD^{tree}":  "names a tree",
		":0:m.go":      "not a commit",
		"main^{blob}":  "names a blob",
		"no-such-base": "no-such-base",
	} {
		code, out, errs := run(t, r.Dir, "", "diff", "--base", base, "--format", "json")
		var rep report.Report
		json.Unmarshal([]byte(out), &rep)
		if code != ExitError || !strings.Contains(errs, want) || rep.Status != report.Errored || !strings.Contains(rep.Error, strings.Trim(want, `-"`)) {
			t.Errorf("--base %q: exit %d, JSON status %q error %q, stderr %q; want 2 naming %q", base, code, rep.Status, rep.Error, errs, want)
		}
	}
	for _, base := range []string{"HEAD~1", "HEAD~1^{commit}"} {
		code, out, errs := run(t, r.Dir, "", "diff", "--base", base, "--format", "json")
		var rep report.Report
		json.Unmarshal([]byte(out), &rep)
		if code != ExitFailed || rep.Base != r.Git("rev-parse", "HEAD~1") {
			t.Errorf("--base %s: exit %d, base %q, want 1 and %s\n%s", base, code, rep.Base, r.Git("rev-parse", "HEAD~1"), errs)
		}
	}
}

// TestOutputsRefusedBeforeWork: a mistyped format, two outputs to one file, a directory
// or a file in a missing directory is a usage error before anything is verified, and no
// file named after the mistake is written.
func TestOutputsRefusedBeforeWork(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--output", "sarfi=out.sarif"}, `unknown format "sarfi"`},
		{[]string{"--output", "sarif=" + filepath.Join(dir, "a"), "--output", "json=" + filepath.Join(dir, "a")}, "both write"},
		{[]string{"--output", "json=" + filepath.Join(dir, "a"), "--output", filepath.Join(dir, ".", "a")}, "both write"},
		{[]string{"--output", "sarif=" + dir}, "a directory"},
		{[]string{"--output", "sarif=" + filepath.Join(dir, "no", "such", "x.sarif")}, "does not exist"},
		{[]string{"--output", ""}, "empty"},
	} {
		code, out, errs := run(t, r.Dir, "", append([]string{"diff"}, tc.args...)...)
		if code != ExitError || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 naming %q", tc.args, code, out, errs, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "sarfi=out.sarif")); err == nil {
		t.Error("a mistyped format wrote a file named after it")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused run wrote %v", entries)
	}
}

// TestFailOnWarningAgrees: with --fail-on warning, a run with warnings exits 1 and every
// document says failed (JSON status and passed, the text verdict), never passed.
func TestFailOnWarningAgrees(t *testing.T) {
	shorttest.Slow(t, "runs the CLI through real git repositories and Go loads; siblings cover the path in -short")
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	r.Write(map[string]string{"m.go": cleanGo + "\nfunc Sub(a, b int) int { return a - b }\n"})
	code, out, _ := run(t, r.Dir, "", "diff", "--fail-on", "warning", "--format", "json")
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != ExitFailed || rep.Status != report.Failed || rep.Passed {
		t.Errorf("exit %d, status %q, passed %v (%v); want 1, failed, false", code, rep.Status, rep.Passed, err)
	}
	if code, out, _ := run(t, r.Dir, "", "diff", "--fail-on", "warning"); code != ExitFailed || !strings.Contains(out, "FAILED") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
	if code, out, _ := run(t, r.Dir, "", "diff", "--format", "json"); code != ExitOK || !strings.Contains(out, `"passed": true`) {
		t.Errorf("without --fail-on: exit %d\n%s", code, out)
	}
}

// TestExitTwoWritesEveryDocument: a run that could not verify its change (here: a base
// that does not exist) still writes every output a pipeline reads, each saying why:
// JSON status error, SARIF with a failed invocation, JUnit's <error>, one entry in the
// others; the text on the terminal is the one line on standard error.
func TestExitTwoWritesEveryDocument(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	dir := t.TempDir()
	args := []string{"diff", "--base", "no-such-ref", "--no-timings"}
	files := map[string]string{}
	for _, f := range report.Formats() {
		files[f] = filepath.Join(dir, "out."+f)
		args = append(args, "--output", f+"="+files[f])
	}
	code, out, errs := run(t, r.Dir, "", append(args, "--output", "text")...)
	if code != ExitError || out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "no-such-ref") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 2, one line on stderr", code, out, errs)
	}
	for format, path := range files {
		got := strings.ReplaceAll(readFile(t, path), r.Dir, "$REPO")
		if !strings.Contains(got, "no-such-ref") {
			t.Errorf("%s does not say why:\n%s", format, got)
		}
		golden := filepath.Join("testdata", "error."+format+".golden")
		if *update {
			os.WriteFile(golden, []byte(got), 0o644)
			continue
		}
		if want, err := os.ReadFile(golden); err != nil || string(want) != got {
			t.Errorf("%s differs from %s (%v):\n%s", format, golden, err, got)
		}
	}
}

// TestPolicyErrorsOnePerLine: every problem of a bad policy is on a line of its own.
func TestPolicyErrorsOnePerLine(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	bad := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(bad, []byte("version: 2\nscope:\n  allowed_pathz: []\n  max_filez: 3\n"), 0o644)
	code, _, errs := run(t, r.Dir, "", "diff", "--policy", bad)
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if code != ExitError || len(lines) != 3 {
		t.Fatalf("exit %d, %d lines, want 2 and one per problem:\n%s", code, len(lines), errs)
	}
	for i, want := range []string{"unsupported policy version 2 (", "allowed_pathz", "max_filez"} {
		if !strings.Contains(lines[i], want) || !strings.HasPrefix(lines[i], "agentverify: ") {
			t.Errorf("line %d %q, want %q", i+1, lines[i], want)
		}
	}
}

// TestNewlineInAFileName: a changed file whose name holds a line break (and a terminal
// escape) is one escaped line of the text output, not two.
func TestNewlineInAFileName(t *testing.T) {
	shorttest.Slow(t, "runs the CLI through real git repositories and Go loads; siblings cover the path in -short")
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, ".agentverify.yaml": "version: 1\nscope:\n  forbidden_paths: [\"secret/**\"]\n"})
	if err := os.MkdirAll(filepath.Join(r.Dir, "secret"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.Dir, "secret", "a\nm.go:1: error: forged \x1b[32mline"), []byte("x"), 0o644); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	code, out, _ := run(t, r.Dir, "", "diff", "--quiet")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != ExitFailed || len(lines) != 2 || !strings.HasPrefix(lines[0], `secret/a\nm.go:1: error: forged \x1b[32mline:1: error: `) ||
		!strings.HasPrefix(lines[1], "    suggestion: ") {
		t.Errorf("exit %d, want the violation on one escaped line and its suggestion:\n%s", code, out)
	}
}

// TestCheckSkipsVanishingFiles: files created and deleted while check walks the tree
// (an editor's temporary files) never abort it; one that vanished is skipped with a note.
func TestCheckSkipsVanishingFiles(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a stress test of 30 runs; not with -short")
	}
	files := map[string]string{"notes.txt": "x\n"}
	for i := range 1000 {
		files[fmt.Sprintf("churn/f%03d.txt", i)] = "x\n"
	}
	r := newRepo(t, files)
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; !stop.Load(); i++ {
			p := filepath.Join(r.Dir, "churn", fmt.Sprintf("f%03d.txt", i%1000))
			os.Remove(p)
			os.WriteFile(p, []byte("x\n"), 0o644)
		}
	})
	notes := 0
	for range 30 {
		code, out, errs := run(t, r.Dir, "", "check", "--no-cache", "--format", "json", ".")
		if code != ExitOK {
			stop.Store(true)
			wg.Wait()
			t.Fatalf("exit %d while files vanished: %s\n%s", code, errs, out)
		}
		if strings.Contains(out, "vanished while it was read") {
			notes++
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d of 30 runs skipped a vanished file", notes)
}

// TestMessagesNameRepositoryPaths: the go command's "found packages … in DIR" names the
// directory from the repository root, not the runner's temporary directory.
func TestMessagesNameRepositoryPaths(t *testing.T) {
	shorttest.Slow(t, "runs the CLI through real git repositories and Go loads; siblings cover the path in -short")
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "pkg/a.go": "// Package a is a.\npackage a\n"})
	r.Write(map[string]string{"pkg/b.go": "// Package b is b.\npackage b\n"})
	code, out, _ := run(t, r.Dir, "", "diff", "--format", "json")
	if code != ExitFailed || !strings.Contains(out, "found packages a (a.go) and b (b.go) in pkg") || strings.Contains(out, r.Dir) {
		t.Errorf("exit %d, want a repository-relative message:\n%s", code, out)
	}
}
