package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/agentverify/agentverify/lazyregexp"
)

// measure holds the run's state: where it works, the binaries it measures, the samples
// so far and the oracle's results by tree.
type measure struct {
	work    string
	bins    []binary
	out     io.Writer
	samples []sample
	oracles map[string]oracle // by tree hash
}

// binary is one agentverify build to measure, by name ("main", "branch").
type binary struct {
	name, path string
}

// sample is one measured change.
type sample struct {
	Repo string `json:"repo"`
	// Kind is "commit" (a merged commit against its parent) or "skip" (a commit's
	// change applied onto its grandparent, verified against the grandparent).
	Kind   string `json:"kind"`
	Commit string `json:"commit"`
	Base   string `json:"base"`
	Tree   string `json:"tree"` // the verified tree's hash (the oracle's cache key)
	// BaseTree is the base's tree hash, when the base oracle ran.
	BaseTree string         `json:"base_tree,omitempty"`
	Head     oracle         `json:"head_oracle"`
	BaseOr   *oracle        `json:"base_oracle,omitempty"`
	Runs     []verification `json:"runs"`
	Seconds  float64        `json:"seconds"`
}

// verification is what one agentverify binary said about a sample.
type verification struct {
	Bin     string  `json:"bin"`
	Exit    int     `json:"exit"`
	Stderr  string  `json:"stderr,omitempty"`
	Errors  []found `json:"hallucination_errors,omitempty"`
	Others  []found `json:"other_errors,omitempty"`
	Verdict string  `json:"verdict"`
	Seconds float64 `json:"seconds"` // agentverify's wall time
}

// found is one error-severity violation agentverify reported.
type found struct {
	Rule    string `json:"rule"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
	// Config is the build configuration the finding was made in ("GOOS=… GOARCH=…"),
	// when not the host's; Confirmed says the oracle fails there too.
	Config    string `json:"config,omitempty"`
	Confirmed bool   `json:"confirmed,omitempty"`
}

// git runs git in dir and returns its trimmed standard output.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=precision", "GIT_AUTHOR_EMAIL=precision@example.com",
		"GIT_COMMITTER_NAME=precision", "GIT_COMMITTER_EMAIL=precision@example.com")
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = firstLine(string(ee.Stderr))
		}
		return "", fmt.Errorf("git %s: %w %s", strings.Join(args, " "), err, msg)
	}
	return strings.TrimSpace(string(out)), nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// pair is a commit and the base it is verified against; grand is the base's first
// parent ("" for none).
type pair struct {
	commit, parent, grand string
}

// repo measures one repository.
func (m *measure) repo(ctx context.Context, s repoSpec, cfg config) error {
	dir := filepath.Join(m.work, s.name)
	head, err := git(ctx, s.dir, "rev-parse", s.ref+"^{commit}")
	if err != nil {
		return err
	}
	if _, err := os.Stat(dir); err != nil {
		if _, err := git(ctx, m.work, "clone", "-q", "--no-checkout", s.dir, dir); err != nil {
			return err
		}
	}
	n := cfg.commits
	if s.commits > 0 {
		n = s.commits
	}
	pairs, err := commitPairs(ctx, dir, head, n)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: %d commits from %.12s back to %.12s\n", s.name, len(pairs), head, pairs[len(pairs)-1].commit)
	for _, p := range pairs {
		if cfg.skipOnly {
			break
		}
		if err := m.measureCommit(ctx, s.name, dir, p); err != nil {
			return err
		}
	}
	return m.skipSamples(ctx, s.name, dir, pairs, cfg.skips)
}

// commitPairs lists the n most recent first-parent commits from head that change a Go
// file (outside vendor/) and have a go.mod at the root, each with its first parent.
func commitPairs(ctx context.Context, dir, head string, n int) ([]pair, error) {
	out, err := git(ctx, dir, "rev-list", "--first-parent", "--parents", "--max-count="+fmt.Sprint(n*20), head)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(out, "\n")
	parentOf := map[string]string{}
	for _, l := range lines {
		if f := strings.Fields(l); len(f) >= 2 {
			parentOf[f[0]] = f[1]
		}
	}
	var pairs []pair
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) < 2 || len(pairs) == n {
			continue
		}
		if ok, err := goChange(ctx, dir, f[1], f[0]); err != nil || !ok {
			continue
		}
		pairs = append(pairs, pair{commit: f[0], parent: f[1], grand: parentOf[f[1]]})
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("no commit changing Go files below %s", head)
	}
	return pairs, nil
}

// goChange reports whether base→commit changes a Go file outside vendor/, with go.mod at
// the root on both sides.
func goChange(ctx context.Context, dir, base, commit string) (bool, error) {
	for _, c := range []string{base, commit} {
		if _, err := git(ctx, dir, "cat-file", "-e", c+":go.mod"); err != nil {
			return false, nil
		}
	}
	names, err := git(ctx, dir, "diff", "--name-only", "--no-renames", base, commit)
	if err != nil {
		return false, err
	}
	for _, n := range strings.Split(names, "\n") {
		if strings.HasSuffix(n, ".go") && !strings.HasPrefix(n, "vendor/") {
			return true, nil
		}
	}
	return false, nil
}

// checkout makes the working tree exactly rev's tree, nothing else on disk.
func checkout(ctx context.Context, dir, rev string) error {
	if _, err := git(ctx, dir, "checkout", "-q", "-f", "--detach", rev); err != nil {
		return err
	}
	_, err := git(ctx, dir, "clean", "-q", "-f", "-d", "-x")
	return err
}

// measureCommit measures the merged commit p.commit against its parent.
func (m *measure) measureCommit(ctx context.Context, name, dir string, p pair) error {
	if err := checkout(ctx, dir, p.commit); err != nil {
		return err
	}
	s := sample{Repo: name, Kind: "commit", Commit: p.commit, Base: p.parent}
	return m.measureTree(ctx, dir, &s, p.commit)
}

// skipSamples measures k changes made by skipping a parent: the change parent→commit
// applied onto the grandparent. The commits whose change touches the Go packages the
// parent's change touched come first (a change that uses what its parent added is what
// breaks without it), the others after, in history order.
func (m *measure) skipSamples(ctx context.Context, name, dir string, pairs []pair, k int) error {
	if k <= 0 {
		return nil
	}
	order, err := skipOrder(ctx, dir, pairs)
	if err != nil {
		return err
	}
	made := 0
	for _, p := range order {
		if made == k {
			break
		}
		ok, err := applySkipped(ctx, dir, p)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		s := sample{Repo: name, Kind: "skip", Commit: p.commit, Base: p.grand}
		if err := m.measureTree(ctx, dir, &s, ""); err != nil {
			return err
		}
		made++
	}
	return nil
}

// skipOrder orders the pairs with a grandparent so that the likeliest breaks come
// first: a commit whose added lines name what its parent's added lines declare (a
// function, method or type the commit uses and the grandparent lacks), then one that
// changes the Go packages its parent changed; history order among equals.
func skipOrder(ctx context.Context, dir string, pairs []pair) ([]pair, error) {
	type scored struct {
		p     pair
		score int
	}
	var all []scored
	for _, p := range pairs {
		if p.grand == "" {
			continue
		}
		mine, err := goDiff(ctx, dir, p.parent, p.commit)
		if err != nil {
			return nil, err
		}
		theirs, err := goDiff(ctx, dir, p.grand, p.parent)
		if err != nil {
			return nil, err
		}
		all = append(all, scored{p, 100*theirs.usedBy(mine) + theirs.sharedDirs(mine)})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].score > all[j].score })
	out := make([]pair, len(all))
	for i, s := range all {
		out[i] = s.p
	}
	return out, nil
}

// goChanges is what a change does to Go files: their directories, the names its added
// lines declare, and its added lines.
type goChanges struct {
	dirs     map[string]bool
	declared map[string]bool
	added    string
}

// declaration matches a Go line that declares a function, method or type.
var declaration = lazyregexp.New(`^\s*(?:func\s+(?:\([^)]*\)\s*)?|type\s+)([A-Za-z_]\w*)`)

// goDiff reads the Go part of the change base→commit.
func goDiff(ctx context.Context, dir, base, commit string) (goChanges, error) {
	out, err := git(ctx, dir, "diff", "--no-renames", "-U0", base, commit, "--", "*.go")
	if err != nil {
		return goChanges{}, err
	}
	c := goChanges{dirs: map[string]bool{}, declared: map[string]bool{}}
	var added strings.Builder
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "+++ b/"):
			c.dirs[path.Dir(strings.TrimPrefix(l, "+++ b/"))] = true
		case strings.HasPrefix(l, "+"):
			added.WriteString(l[1:] + "\n")
			if m := declaration.FindStringSubmatch(l[1:]); m != nil {
				c.declared[m[1]] = true
			}
		}
	}
	c.added = added.String()
	return c, nil
}

// usedBy counts the names c declares that other's added lines name.
func (c goChanges) usedBy(other goChanges) int {
	n := 0
	for name := range c.declared {
		if regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(other.added) {
			n++
		}
	}
	return n
}

// sharedDirs counts the Go directories both changes touch.
func (c goChanges) sharedDirs(other goChanges) int {
	n := 0
	for d := range c.dirs {
		if other.dirs[d] {
			n++
		}
	}
	return n
}

// applySkipped checks out p.grand and applies the change p.parent→p.commit onto it in the
// working tree; ok is false when it does not apply or has no go.mod.
func applySkipped(ctx context.Context, dir string, p pair) (bool, error) {
	if _, err := git(ctx, dir, "cat-file", "-e", p.grand+":go.mod"); err != nil {
		return false, nil
	}
	if err := checkout(ctx, dir, p.grand); err != nil {
		return false, err
	}
	patch := filepath.Join(filepath.Dir(dir), filepath.Base(dir)+".patch")
	diff, err := git(ctx, dir, "diff", "--binary", "--full-index", p.parent, p.commit)
	if err != nil {
		return false, err
	}
	if err := os.WriteFile(patch, []byte(diff+"\n"), 0o644); err != nil {
		return false, err
	}
	if _, err := git(ctx, dir, "apply", "--index", patch); err != nil {
		return false, checkout(ctx, dir, p.grand)
	}
	return true, nil
}

// measureTree measures the working tree as it is against s.Base: commit is the commit
// the tree is ("" when it is a constructed change), for the oracle's cache.
func (m *measure) measureTree(ctx context.Context, dir string, s *sample, commit string) error {
	start := time.Now()
	downloadModules(ctx, dir)
	downloadModulesAt(ctx, dir, s.Base)
	tree, err := treeOf(ctx, dir, commit)
	if err != nil {
		return err
	}
	s.Tree = tree
	s.Head = m.oracleAt(ctx, dir, tree)
	for _, b := range m.bins {
		r, err := m.verify(ctx, dir, b, s)
		if err != nil {
			return err
		}
		s.Runs = append(s.Runs, r)
	}
	if s.Head.Status == compileFails {
		base, tree, err := m.baseOracle(ctx, dir, s.Base)
		if err != nil {
			return err
		}
		s.BaseOr, s.BaseTree = &base, tree
	}
	for i := range s.Runs {
		s.Runs[i].Verdict = verdict(s, &s.Runs[i])
	}
	s.Seconds = time.Since(start).Seconds()
	m.samples = append(m.samples, *s)
	fmt.Fprintf(os.Stderr, "  %-6s %.12s oracle %-7s", s.Kind, s.Commit, s.Head.Status)
	for _, r := range s.Runs {
		fmt.Fprintf(os.Stderr, " | %s: %s, exit %d, %d errors (%.0fs)", r.Bin, r.Verdict, r.Exit, len(r.Errors), r.Seconds)
	}
	fmt.Fprintf(os.Stderr, " (%.0fs)\n", s.Seconds)
	line, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(m.out, "%s\n", line)
	return err
}

// treeOf returns the tree hash of commit, or of the working tree when commit is "".
func treeOf(ctx context.Context, dir, commit string) (string, error) {
	if commit != "" {
		return git(ctx, dir, "rev-parse", commit+"^{tree}")
	}
	if _, err := git(ctx, dir, "add", "-A"); err != nil {
		return "", err
	}
	return git(ctx, dir, "write-tree")
}

// baseOracle runs the oracle at base, checking it out (the sample is measured by then),
// and returns it with the base's tree hash.
func (m *measure) baseOracle(ctx context.Context, dir, base string) (oracle, string, error) {
	tree, err := git(ctx, dir, "rev-parse", base+"^{tree}")
	if err != nil {
		return oracle{}, "", err
	}
	if o, ok := m.oracles[tree]; ok {
		return o, tree, nil
	}
	if err := checkout(ctx, dir, base); err != nil {
		return oracle{}, "", err
	}
	downloadModules(ctx, dir)
	return m.oracleAt(ctx, dir, tree), tree, nil
}
