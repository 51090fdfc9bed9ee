package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/internal/testkit/shorttest"
)

// TestFlagsAnywhere: flags after positional arguments count, "-C DIR" works before the
// command as after it, and "--" ends the flags.
func TestFlagsAnywhere(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo, "sub/s.go": "// Package sub is a sub-package.\npackage sub\n"})
	elsewhere := t.TempDir()
	for _, args := range [][]string{
		{"check", ".", "--format", "json", "--no-timings"},
		{"check", "--format=json", ".", "--no-timings"},
		{"-C", r.Dir, "check", ".", "--format", "json", "--no-timings"},
		{"-C=" + r.Dir, "check", "--no-timings", "--format", "json", "."},
		{"check", "-C", r.Dir, ".", "--format", "json", "--no-timings"},
	} {
		dir := r.Dir
		if strings.HasPrefix(args[0], "-C") || args[1] == "-C" {
			dir = elsewhere
		}
		code, out, errs := run(t, dir, "", args...)
		var doc struct {
			Files []struct{ Path string } `json:"files"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Files) != 3 {
			t.Errorf("%q: exit %d, want a JSON report of 3 files; stdout %.200q stderr %q", args, code, out, errs)
		}
	}
	// After "--" a flag-like word is a path.
	if code, _, errs := run(t, r.Dir, "", "check", "--", "--format"); code != 2 || !strings.Contains(errs, "--format") {
		t.Errorf("check -- --format: exit %d %q, want 2 naming the missing path", code, errs)
	}
	for _, bad := range [][]string{{"-C"}, {"-C", filepath.Join(r.Dir, "nope"), "check"}, {"check", ".", "--no-such-flag"}} {
		if code, _, errs := run(t, r.Dir, "", bad...); code != 2 || errs == "" {
			t.Errorf("%q: exit %d %q, want 2 with a message", bad, code, errs)
		}
	}
}

// TestVersion prints version, commit and Go version, each on its own line.
func TestVersion(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, _ := run(t, ".", "", args...)
		if code != 0 || !regexp.MustCompile(`^agentverify \d+\.\d+\.\d+\S*\ncommit \S+\ngo1\.\d+\S* \w+/\w+\n$`).MatchString(out) {
			t.Errorf("%q: exit %d %q", args, code, out)
		}
	}
}

// TestColorAndQuiet: --color=always colours even off a terminal, never and NO_COLOR keep
// a terminal plain; --quiet leaves only the violations.
func TestColorAndQuiet(t *testing.T) {
	shorttest.Slow(t, "runs the CLI through real git repositories and Go loads; siblings cover the path in -short")
	t.Parallel()
	r := newRepo(t, map[string]string{"go.mod": goMod, "m.go": cleanGo})
	r.Write(map[string]string{"m.go": cleanGo + "\nfunc sub_tract(a, b int) int { return a - b }\n"})
	runEnv := func(terminal bool, noColor string, args ...string) string {
		var out, errb strings.Builder
		env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: r.Dir, Terminal: terminal,
			Getenv: func(k string) string {
				if k == "NO_COLOR" {
					return noColor
				}
				return ""
			}}
		Main(context.Background(), args, env)
		return out.String()
	}
	for _, c := range []struct {
		terminal bool
		noColor  string
		flag     string
		want     bool
	}{
		{false, "", "--color=always", true},
		{true, "", "--color=auto", true},
		{true, "1", "--color=auto", false},
		{true, "", "--color=never", false},
		{false, "", "--color=auto", false},
	} {
		if got := strings.Contains(runEnv(c.terminal, c.noColor, "diff", c.flag), "\x1b["); got != c.want {
			t.Errorf("terminal=%v NO_COLOR=%q %s: colour %v, want %v", c.terminal, c.noColor, c.flag, got, c.want)
		}
	}
	quiet := runEnv(false, "", "diff", "--quiet", "--no-timings")
	if strings.Contains(quiet, "agentverify:") || !strings.HasPrefix(quiet, "m.go:7:6: warning: ") {
		t.Errorf("--quiet: %q, want only the violations", quiet)
	}
	if code, _, errs := run(t, r.Dir, "", "diff", "--color=sometimes"); code != 2 || !strings.Contains(errs, "--color") {
		t.Errorf("bad --color: exit %d %q", code, errs)
	}
}
