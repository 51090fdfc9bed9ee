// Command pyprecision measures the Python frontend's precision on real merged commits:
// for each commit of each repository given, it checks the commit out in a private clone
// and runs `agentverify diff --base <first parent>` as a user of the project would (the
// built-in policy, the machine's python3 and pyright), then lists every
// hallucination-dimension error for a person to judge, and counts the commits with at least
// one. docs/precision.md ("## Python") holds the numbers and the judgements. Run it by hand
// from the repository root, never from go test:
//
//	go run ./internal/pyprecision -n 12 /work/.mirror/pallets+click/repo ...
//
// A repository is a git directory or a clone (the `fetch` tool's snapshots are git
// directories without a work tree). Commits are the newest -n on the first-parent line of
// HEAD that change a Python file (a merge counts as the change it merged: its first parent
// is the base). The machine's python3 on PATH decides what is installed (put /usr/bin first
// for Debian's python3-* packages); AGENTVERIFY_PYRIGHT names pyright.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 12, "commits per repository")
	skip := flag.Int("skip", 0, "newest commits to leave out per repository (to take a further sample)")
	bin := flag.String("bin", "", "the agentverify binary (default: built from this tree)")
	out := flag.String("json", "", "write every commit's result to this JSON file")
	timeout := flag.Duration("timeout", 10*time.Minute, "time-out per commit")
	only := flag.String("only", "", "comma-separated commit prefixes: measure only these (e.g. the flagged ones of an earlier run)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: pyprecision [-n N] [-json FILE] REPO...")
		os.Exit(2)
	}
	if err := run(*bin, *n, *skip, *timeout, *out, *only, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "pyprecision:", err)
		os.Exit(2)
	}
}

// commitResult is the measurement of one commit.
type commitResult struct {
	Repo, Commit, Subject string
	Exit                  int
	Seconds               float64
	// Errors are the hallucination errors ("file:line rule: message"); an internal error
	// (a dimension that timed out) is a Failure instead.
	Errors []string
	// Warnings are the other dimensions' and hallucination's warnings, for reference.
	Warnings []string
	Failure  string `json:",omitempty"`
}

func run(bin string, n, skip int, timeout time.Duration, out, only string, repos []string) error {
	work, err := os.MkdirTemp("", "pyprecision-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if bin == "" {
		bin = filepath.Join(work, "agentverify")
		if b, err := exec.Command("go", "build", "-o", bin, "./cmd/agentverify").CombinedOutput(); err != nil {
			return fmt.Errorf("building agentverify: %v\n%s", err, b)
		}
	}
	var all []commitResult
	for _, repo := range repos {
		rs, err := measureRepo(work, bin, repo, n, skip, timeout, only)
		if err != nil {
			return fmt.Errorf("%s: %w", repo, err)
		}
		all = append(all, rs...)
	}
	summarise(all)
	if out == "" {
		return nil
	}
	data, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}

// name is a repository's short name: owner+name of a fetched snapshot.
func name(repo string) string {
	repo = strings.TrimSuffix(filepath.Clean(repo), "/repo")
	return filepath.Base(strings.TrimSuffix(repo, ".git"))
}

func measureRepo(work, bin, repo string, n, skip int, timeout time.Duration, only string) ([]commitResult, error) {
	clone := filepath.Join(work, name(repo))
	if _, err := git("", "clone", "-q", "--no-checkout", repo, clone); err != nil {
		return nil, err
	}
	log, err := git(clone, "log", "--first-parent", fmt.Sprintf("-n%d", n+skip), "--format=%H %s", "HEAD", "--", "*.py", "*.pyi")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(log), "\n")
	if skip < len(lines) {
		lines = lines[skip:]
	} else {
		lines = nil
	}
	var out []commitResult
	for _, l := range lines {
		c, subject, _ := strings.Cut(l, " ")
		if only != "" && !wanted(only, c) {
			continue
		}
		r := commitResult{Repo: name(repo), Commit: c[:12], Subject: subject}
		if _, err := git(clone, "checkout", "-q", "-f", "--detach", c); err != nil {
			r.Failure = err.Error()
		} else if _, err := git(clone, "clean", "-q", "-fdx"); err != nil {
			r.Failure = err.Error()
		} else {
			measure(&r, bin, clone, c, timeout)
		}
		fmt.Fprintf(os.Stderr, "%s %s exit %d, %d errors, %.0f s %s\n", r.Repo, r.Commit, r.Exit, len(r.Errors), r.Seconds, r.Failure)
		for _, e := range r.Errors {
			fmt.Fprintln(os.Stderr, "   ", e)
		}
		out = append(out, r)
	}
	return out, nil
}

// wanted reports whether commit c starts with one of the comma-separated prefixes.
func wanted(only, c string) bool {
	for _, p := range strings.Split(only, ",") {
		if p != "" && strings.HasPrefix(c, p) {
			return true
		}
	}
	return false
}

// violation is the part of a JSON report's violation read here.
type violation struct {
	Rule, Dimension, Severity, Message string
	Location                           struct {
		File string
		Line int
	}
}

func measure(r *commitResult, bin, dir, commit string, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "diff", "--no-server", "--no-timings", "--format", "json", "--base", commit+"^")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "AGENTVERIFY_NO_SERVER=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r.Seconds = time.Since(start).Seconds()
	if ee, ok := err.(*exec.ExitError); ok {
		r.Exit = ee.ExitCode()
	} else if err != nil {
		r.Failure = err.Error()
		return
	}
	if r.Exit == 2 {
		r.Failure = strings.TrimSpace(stderr.String())
	}
	var rep struct{ Violations []violation }
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil && r.Failure == "" {
		r.Failure = "no JSON report: " + strings.TrimSpace(stderr.String())
	}
	for _, v := range rep.Violations {
		s := fmt.Sprintf("%s:%d %s: %s", v.Location.File, v.Location.Line, v.Rule, v.Message)
		switch {
		case strings.HasSuffix(v.Rule, "/internal-error"):
			r.Failure = s // could not verify (a time-out): counted apart, never as a pass
		case v.Dimension == "hallucination" && v.Severity == "error":
			r.Errors = append(r.Errors, s)
		case v.Dimension == "hallucination" || v.Dimension == "semantics":
			r.Warnings = append(r.Warnings, v.Severity+" "+s)
		}
	}
}

// summarise prints, per repository, the commits measured, those with a hallucination
// error and those that could not be verified.
func summarise(rs []commitResult) {
	type tally struct{ commits, flagged, errors, failed int }
	by := map[string]*tally{}
	var names []string
	total := &tally{}
	for _, r := range rs {
		t := by[r.Repo]
		if t == nil {
			t = &tally{}
			by[r.Repo] = t
			names = append(names, r.Repo)
		}
		for _, x := range []*tally{t, total} {
			x.commits++
			x.errors += len(r.Errors)
			if len(r.Errors) > 0 {
				x.flagged++
			}
			if r.Failure != "" {
				x.failed++
			}
		}
	}
	sort.Strings(names)
	fmt.Printf("| project | commits | with a hallucination error | errors | not verified |\n|---|---|---|---|---|\n")
	for _, n := range append(names, "total") {
		t := by[n]
		if n == "total" {
			t = total
		}
		fmt.Printf("| %s | %d | %d | %d | %d |\n", n, t.commits, t.flagged, t.errors, t.failed)
	}
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	b, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(b))
	}
	return string(b), nil
}
