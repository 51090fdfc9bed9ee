package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
	"github.com/agentverify/agentverify/internal/testkit/testrepo"
	"github.com/agentverify/agentverify/report"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func newRepo(t *testing.T, files map[string]string) *testrepo.Repo { return testrepo.New(t, files) }

func gitEnv(home string) []string { return testrepo.Env(home) }

// run runs the command line in dir and returns exit code, stdout and stderr.
func run(t *testing.T, dir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Dir: dir, Getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

const goMod = "module example.com/m\n\ngo 1.22\n"

const cleanGo = `// Package m is a small test module.
package m

// Add returns the sum of a and b.
func Add(a, b int) int { return a + b }
`

func TestDiffExitCodes(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	if code, out, errs := run(t, r.Dir, "", "diff"); code != 0 || !strings.Contains(out, "PASSED") {
		t.Fatalf("clean tree: exit %d\n%s%s", code, out, errs)
	}
	// A warning (missing doc comment) passes with exit 0, and fails with --fail-on warning.
	r.Write(map[string]string{"m.go": cleanGo + "\nfunc Sub(a, b int) int { return a - b }\n"})
	if code, out, _ := run(t, r.Dir, "", "diff"); code != 0 || !strings.Contains(out, "style/missing-doc") {
		t.Errorf("warning: exit %d\n%s", code, out)
	}
	if code, _, _ := run(t, r.Dir, "", "diff", "--fail-on", "warning"); code != 1 {
		t.Errorf("--fail-on warning: exit %d, want 1", code)
	}
	// An error-severity violation fails with exit 1.
	r.Write(map[string]string{"m.go": cleanGo + "\n// Sub subtracts.\nfunc Sub(a, b int) int { return a - b + undefinedThing }\n"})
	if code, out, _ := run(t, r.Dir, "", "diff"); code != 1 || !strings.Contains(out, "FAILED") {
		t.Errorf("error: exit %d\n%s", code, out)
	}
}

func TestBadInputExitsTwo(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	empty := newRepo(t, nil)
	plain := t.TempDir()
	badPolicy := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(badPolicy, []byte("version: 1\nscope:\n  allowed_pathz: [\"**\"]\n"), 0o644)
	notYAML := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(notYAML, []byte("\t{[ this is not yaml"), 0o644)
	tests := []struct {
		name string
		dir  string
		args []string
		want string // in stderr
	}{
		{"not a repository", plain, []string{"diff"}, "not a git repository"},
		{"missing ref", r.Dir, []string{"diff", "--base", "no-such-ref"}, "no-such-ref"},
		{"unknown key", r.Dir, []string{"diff", "--policy", badPolicy}, "allowed_pathz"},
		{"not yaml", r.Dir, []string{"diff", "--policy", notYAML}, "p.yaml"},
		{"missing policy file", r.Dir, []string{"diff", "--policy", "nope.yaml"}, "nope.yaml"},
		{"bad format", r.Dir, []string{"diff", "--format", "xml"}, "--format"},
		{"bad fail-on", r.Dir, []string{"diff", "--fail-on", "info"}, "--fail-on"},
		{"exclusive flags", r.Dir, []string{"diff", "--staged", "--base", "HEAD"}, "exclude"},
		{"stray argument", r.Dir, []string{"diff", "x.go"}, "unexpected argument"},
		{"unknown command", r.Dir, []string{"difff"}, "unknown command"},
		{"unknown flag", r.Dir, []string{"diff", "--nope"}, "nope"},
		{"missing patch", r.Dir, []string{"diff", "--patch", "none.diff"}, "none.diff"},
		{"base HEAD in an empty repository", empty.Dir, []string{"diff", "--base", "HEAD"}, "no commits"},
		{"unknown rule", r.Dir, []string{"explain", "scope/nope"}, "unknown rule"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := run(t, tt.dir, "", tt.args...)
			if code != 2 || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errs, tt.want)
			}
			if strings.Count(strings.TrimSpace(errs), "\n") > 1 {
				t.Errorf("error is not short: %q", errs)
			}
		})
	}
}

func TestHelpForEveryCommand(t *testing.T) {
	t.Parallel()
	for _, c := range commands() {
		code, out, _ := run(t, ".", "", c.name, "--help")
		if code != 0 || !strings.Contains(out, "Usage: agentverify "+c.name) {
			t.Errorf("%s --help: exit %d\n%s", c.name, code, out)
		}
	}
	if code, out, _ := run(t, ".", "", "--help"); code != 0 || !strings.Contains(out, "Commands:") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
}

func TestFormatsAndOutputFile(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	r.Write(map[string]string{"m.go": cleanGo + "\nfunc Sub(a, b int) int { return a - b }\n"})
	head := r.Git("rev-parse", "HEAD") // the JSON's base: the commit verified against
	for _, format := range report.Formats() {
		code, out, errs := run(t, r.Dir, "", "diff", "--format", format, "--no-timings")
		if code != 0 {
			t.Fatalf("%s: exit %d %s", format, code, errs)
		}
		golden := filepath.Join("testdata", "diff."+format+".golden")
		out = strings.ReplaceAll(strings.ReplaceAll(out, r.Dir, "$REPO"), head, "$BASE")
		if *update {
			os.MkdirAll("testdata", 0o755)
			os.WriteFile(golden, []byte(out), 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if out != string(want) {
			t.Errorf("%s output differs from %s:\n%s", format, golden, out)
		}
		// The same input gives byte-identical output (G3).
		if _, again, _ := run(t, r.Dir, "", "diff", "--format", format, "--no-timings"); strings.ReplaceAll(strings.ReplaceAll(again, r.Dir, "$REPO"), head, "$BASE") != out {
			t.Errorf("%s output is not deterministic", format)
		}
	}
	outFile := filepath.Join(t.TempDir(), "report.json")
	if code, stdout, _ := run(t, r.Dir, "", "diff", "--format", "json", "--output", outFile); code != 0 || stdout != "" {
		t.Fatalf("--output: exit %d stdout %q", code, stdout)
	}
	b, _ := os.ReadFile(outFile)
	rep, err := report.ReadJSON(bytes.NewReader(b))
	if err != nil || rep.Status != report.Warnings || len(rep.Files) != 1 {
		t.Errorf("report file: %v %+v", err, rep)
	}
}

// TestMultipleOutputs: one run writes several formats, each equal to a run of its own.
func TestMultipleOutputs(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	r.Write(map[string]string{"m.go": cleanGo + "\nfunc Sub(a, b int) int { return a - b }\n"})
	dir := t.TempDir()
	sarif, junit := filepath.Join(dir, "r.sarif"), filepath.Join(dir, "r.xml")
	code, out, errs := run(t, r.Dir, "", "diff", "--no-timings", "--output", "sarif="+sarif, "--output", "junit="+junit, "--output", "text")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for format, got := range map[string]string{"text": out, "sarif": readFile(t, sarif), "junit": readFile(t, junit)} {
		_, want, _ := run(t, r.Dir, "", "diff", "--no-timings", "--format", format)
		if got != want {
			t.Errorf("%s written beside others differs from a run of its own:\n%s\nwant:\n%s", format, got, want)
		}
	}
	for _, bad := range [][]string{{"--output", "json", "--output", "text"}, {"--output", "sarif="}, {"--format", "xml"}} {
		if code, _, errs := run(t, r.Dir, "", append([]string{"diff"}, bad...)...); code != 2 || !strings.Contains(errs, "output") && !strings.Contains(errs, "format") {
			t.Errorf("%v: exit %d %q, want 2 naming the flag", bad, code, errs)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestStagedAndPatch(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	// Staged content has an undefined name; the working tree fixes it. --staged must see
	// the index, not the disk.
	r.Write(map[string]string{"m.go": cleanGo + "\n// Bad is broken.\nfunc Bad() int { return nope }\n"})
	r.Git("add", "m.go")
	r.Write(map[string]string{"m.go": cleanGo})
	if code, out, errs := run(t, r.Dir, "", "diff", "--staged"); code != 1 || !strings.Contains(out, "nope") {
		t.Errorf("--staged: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, r.Dir, "", "diff"); code != 0 {
		t.Errorf("working tree: exit %d\n%s%s", code, out, errs)
	}
	patch := "diff --git a/m.go b/m.go\n--- a/m.go\n+++ b/m.go\n@@ -3,3 +3,6 @@ package m\n \n // Add returns the sum of a and b.\n func Add(a, b int) int { return a + b }\n+\n+// Bad is broken.\n+func Bad() int { return strings.Reverse(\"x\") }\n"
	if code, out, errs := run(t, r.Dir, patch, "diff", "--patch", "-"); code != 1 || !strings.Contains(out, "m.go:8") {
		t.Errorf("--patch -: exit %d\n%s%s", code, out, errs)
	}
}

func TestCheckAndInit(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	if code, out, errs := run(t, r.Dir, "", "check"); code != 0 {
		t.Errorf("check: exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := run(t, r.Dir, "", "init"); code != 0 || !strings.Contains(out, ".agentverify.yaml") {
		t.Fatalf("init: exit %d %s", code, out)
	}
	if code, _, errs := run(t, r.Dir, "", "init"); code != 2 || !strings.Contains(errs, "--force") {
		t.Errorf("second init: exit %d %s", code, errs)
	}
	// The starter policy is valid and protected: adding it is a policy change.
	if code, out, errs := run(t, r.Dir, "", "diff"); code != 1 || !strings.Contains(out, "scope/policy-changed") {
		t.Errorf("diff after init: exit %d\n%s%s", code, out, errs)
	}
	// Once committed, the next diff accepts it.
	r.Git("add", "-A")
	r.Git("commit", "-qm", "policy")
	if code, out, errs := run(t, r.Dir, "", "diff"); code != 0 {
		t.Errorf("diff after committing init's policy: exit %d\n%s%s", code, out, errs)
	}
}

func TestExplain(t *testing.T) {
	t.Parallel()
	code, out, _ := run(t, ".", "", "explain")
	for _, id := range []string{"scope/forbidden-path", "hallucination/unknown-symbol", "style/naming", "semantics/removed-export", "complexity/cyclomatic", "scope/internal-error"} {
		if !strings.Contains(out, id) {
			t.Errorf("explain lists no %s", id)
		}
	}
	if code != 0 {
		t.Errorf("explain: exit %d", code)
	}
	if code, out, _ := run(t, ".", "", "explain", "complexity/cyclomatic"); code != 0 || !strings.Contains(out, "gocyclo") {
		t.Errorf("explain complexity/cyclomatic: exit %d\n%s", code, out)
	}
}

// TestConcurrentRuns: two runs in one repository at the same time both work (no lock files).
func TestConcurrentRuns(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	r.Write(map[string]string{"n.go": "package m\n\n// N is new.\nfunc N() int { return Add(1, 2) }\n"})
	var wg sync.WaitGroup
	outs := make([]string, 4)
	codes := make([]int, 4)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], outs[i], _ = run(t, r.Dir, "", "diff", "--format", "json", "--no-timings")
		}()
	}
	wg.Wait()
	for i := range outs {
		if codes[i] != 0 || outs[i] != outs[0] {
			t.Errorf("run %d: exit %d, output differs: %v", i, codes[i], outs[i] != outs[0])
		}
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(outs[0]), &rep); err != nil {
		t.Fatal(err)
	}
}

// TestBadFilesNeverCrashOrPassSilently: binary files, invalid UTF-8, files over 5 MB and
// symlinks out of the repository each get a clear outcome, never a crash or a silent pass.
func TestBadFilesNeverCrashOrPassSilently(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.go"), []byte("package secret\n\nvar x = undefinedHere\n"), 0o644)
	if err := os.Symlink(filepath.Join(outside, "secret.go"), filepath.Join(r.Dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	r.Write(map[string]string{
		"tool.bin": "\x7fELF\x00\x00\x01",
		"bad.go":   "package m\n\n// S is broken text.\nvar S = \"\xff\xfe\"\n",
		"big.go":   "package m\n\n// Big is big.\nvar Big = `" + strings.Repeat("x", 5<<20) + "`\n",
	})
	code, out, errs := run(t, r.Dir, "", "diff", "--format", "json", "--no-timings")
	rep, err := report.ReadJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("exit %d, stderr %s: %v", code, errs, err)
	}
	rules := map[string]string{}
	for _, v := range rep.Violations {
		rules[v.Location.File] += v.Rule + " "
	}
	if !strings.Contains(rules["big.go"], "scope/large-file") {
		t.Errorf("large file not reported: %v", rules)
	}
	if !strings.Contains(rules["bad.go"], "hallucination/syntax-error") {
		t.Errorf("invalid UTF-8 not reported: %v", rules)
	}
	if strings.Contains(out, "undefinedHere") {
		t.Errorf("the symlink was followed out of the repository: %s", out)
	}
	if code != 1 || rep.Status != report.Failed {
		t.Errorf("exit %d status %s, want 1 and failed", code, rep.Status)
	}
	var ops []string
	for _, f := range rep.Files {
		ops = append(ops, string(f.Operation)+" "+f.Path)
	}
	if got := strings.Join(ops, ", "); got != "create bad.go, create big.go, create link.go, create tool.bin" {
		t.Errorf("files = %s", got)
	}
}

func TestDetachedHead(t *testing.T) {
	shorttest.Slow(t, "runs the CLI through real git repositories and Go loads; siblings cover the path in -short")
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	r.Git("checkout", "-q", "--detach", "HEAD")
	r.Write(map[string]string{"n.go": "package m\n\n// N is new.\nfunc N() int { return Add(1, 2) }\n"})
	if code, out, errs := run(t, r.Dir, "", "diff"); code != 0 || !strings.Contains(out, "PASSED") {
		t.Errorf("detached HEAD: exit %d\n%s%s", code, out, errs)
	}
}

func TestLeanGC(t *testing.T) {
	orig := debug.SetGCPercent(100)
	defer debug.SetGCPercent(orig)
	for _, tc := range []struct {
		name   string
		lean   bool
		gogc   string
		during int
	}{
		{"the command's check", true, "", 50},
		{"GOGC set by the user wins", true, "200", 100},
		{"a library or the server: untouched", false, "", 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := &Env{LeanGC: tc.lean, Getenv: func(k string) string {
				if k == "GOGC" {
					return tc.gogc
				}
				return ""
			}}
			restore := leanGC(env)
			if got := debug.SetGCPercent(-1); got != tc.during {
				t.Errorf("during check: GOGC %d, want %d", got, tc.during)
			}
			debug.SetGCPercent(tc.during)
			restore()
			if got := debug.SetGCPercent(100); got != 100 {
				t.Errorf("after check: GOGC %d, want 100 again", got)
			}
		})
	}
}
