// Command precision measures agentverify's Go false alarms and caught breaks on real merged
// commits of real repositories (docs/precision.md). Run it by hand from the repository
// root; it is a program, not a test, so that `go test ./...` never pays for it:
//
//	go run ./internal/precision -n 30 -skip 5 -out /tmp/precision.jsonl \
//	    -bin before=/tmp/agentverify-main -bin after=/tmp/agentverify \
//	    cobra=/path/to/spf13/cobra.git chi=/path/to/go-chi/chi.git@master ...
//
// Each argument is NAME=GITDIR[@REF][#N]: a repository (bare or not), the commit to walk
// back from (default HEAD) and how many commits to take there (default -n). The program clones it into a temporary directory and walks the
// first-parent history from REF, taking the -n most recent commits that change a Go file
// and have a go.mod at the root. At each commit C with first parent P it checks C out and
// runs `agentverify diff --base P` (the merged change, parent as base) and the oracle,
// `go build ./... && go vet ./...`, at C and at P. With -skip K it also makes K broken-or-
// not changes per repository by skipping a parent: the change P→C applied onto P's parent
// G and verified against G, the shape of an agent's change written against a stale tree.
//
// A hallucination error where the oracle passes is a false alarm; an oracle that fails
// to compile where the base compiled is a break, caught when agentverify reports a
// hallucination error. Findings made in another build configuration ("built for GOOS=…")
// are checked with the oracle in that configuration. Each sample is one JSON line in
// -out; the summary goes to standard output. Modules come from the Go module proxy (`go
// mod download` at each commit warms the module cache; agentverify itself never fetches).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	cfg := config{}
	flag.IntVar(&cfg.commits, "n", 30, "merged commits to measure per repository")
	flag.IntVar(&cfg.skips, "skip", 5, "changes per repository made by skipping a parent commit")
	flag.StringVar(&cfg.out, "out", "precision.jsonl", "write one JSON line per sample to `FILE`")
	flag.Func("bin", "an agentverify `NAME=PATH` to measure (repeatable; default: branch=built from this module)", func(v string) error {
		name, p, ok := strings.Cut(v, "=")
		if !ok || name == "" || p == "" {
			return fmt.Errorf("%q: want NAME=PATH", v)
		}
		cfg.bins = append(cfg.bins, binary{name: name, path: p})
		return nil
	})
	flag.StringVar(&cfg.reuse, "reuse", "", "take the oracle's results from the samples of an earlier run's `FILE` (the same trees)")
	flag.BoolVar(&cfg.skipOnly, "skip-only", false, "measure only the changes made by skipping a parent")
	flag.BoolVar(&cfg.report, "report", false, "print the summary of the samples in the JSON-lines files named as arguments, measuring nothing")
	flag.StringVar(&cfg.work, "work", "", "work in `DIR` and keep it (default: a temporary directory, removed)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: precision [flags] NAME=GITDIR[@REF]...\n       precision -report FILE.jsonl...")
		os.Exit(2)
	}
	do := run
	if cfg.report {
		do = report
	}
	if err := do(context.Background(), cfg, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "precision:", err)
		os.Exit(2)
	}
}

// config holds the command line.
type config struct {
	commits, skips   int
	out, work, reuse string
	bins             []binary
	report, skipOnly bool
}

// repoSpec is one NAME=GITDIR[@REF][#N] argument.
type repoSpec struct {
	name, dir, ref string
	commits        int // 0: -n
}

func parseSpec(arg string) (repoSpec, error) {
	bad := fmt.Errorf("%q: want NAME=GITDIR[@REF][#N]", arg)
	name, rest, ok := strings.Cut(arg, "=")
	if !ok || name == "" || rest == "" {
		return repoSpec{}, bad
	}
	s := repoSpec{name: name}
	if r, n, ok := strings.Cut(rest, "#"); ok {
		if _, err := fmt.Sscan(n, &s.commits); err != nil || s.commits <= 0 {
			return repoSpec{}, bad
		}
		rest = r
	}
	s.dir, s.ref, _ = strings.Cut(rest, "@")
	if s.ref == "" {
		s.ref = "HEAD"
	}
	return s, nil
}

func run(ctx context.Context, cfg config, args []string) error {
	var specs []repoSpec
	for _, a := range args {
		s, err := parseSpec(a)
		if err != nil {
			return err
		}
		specs = append(specs, s)
	}
	work, cleanup, err := workDir(cfg.work)
	if err != nil {
		return err
	}
	defer cleanup()
	if len(cfg.bins) == 0 {
		av := filepath.Join(work, "agentverify")
		if out, err := exec.Command("go", "build", "-o", av, "./cmd/agentverify").CombinedOutput(); err != nil {
			return fmt.Errorf("building agentverify: %w: %s", err, out)
		}
		cfg.bins = []binary{{name: "branch", path: av}}
	}
	out, err := os.Create(cfg.out)
	if err != nil {
		return err
	}
	defer out.Close()
	m := &measure{work: work, bins: cfg.bins, out: out, oracles: map[string]oracle{}}
	if cfg.reuse != "" {
		if err := m.reuseOracles(cfg.reuse); err != nil {
			return err
		}
	}
	for _, s := range specs {
		if err := m.repo(ctx, s, cfg); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	m.summary(os.Stdout)
	return out.Close()
}

// workDir returns the directory to work in and what removes it.
func workDir(keep string) (string, func(), error) {
	if keep != "" {
		if err := os.MkdirAll(keep, 0o755); err != nil {
			return "", nil, err
		}
		abs, err := filepath.Abs(keep)
		return abs, func() {}, err
	}
	dir, err := os.MkdirTemp("", "agentverify-precision-")
	return dir, func() { os.RemoveAll(dir) }, err
}

// reuseOracles seeds the oracle's results with those of an earlier run's samples (by tree
// hash: the same tree gets the same answer from the same toolchain).
func (m *measure) reuseOracles(file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var s sample
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if s.Tree != "" {
			m.oracles[s.Tree] = s.Head
		}
		if s.BaseTree != "" && s.BaseOr != nil {
			m.oracles[s.BaseTree] = *s.BaseOr
		}
	}
	return nil
}

// report prints the summary of the samples in files (earlier runs' -out), for the binaries
// the first sample names.
func report(_ context.Context, _ config, files []string) error {
	m := &measure{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var s sample
			if err := json.Unmarshal([]byte(line), &s); err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			if len(m.samples) > 0 && len(s.Runs) != len(m.bins) {
				return fmt.Errorf("%s: a sample of %d binaries among samples of %d", f, len(s.Runs), len(m.bins))
			}
			if len(m.samples) == 0 {
				for _, r := range s.Runs {
					m.bins = append(m.bins, binary{name: r.Bin})
				}
			}
			m.samples = append(m.samples, s)
		}
	}
	m.summary(os.Stdout)
	return nil
}
