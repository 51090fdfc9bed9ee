package engine

import (
	"context"
	"sort"
	"time"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/lazyregexp"
	"github.com/agentverify/agentverify/policy"
)

// ConfirmAtBase settles, in diff mode, which findings the change introduced: every
// finding not marked Introduced by its dimension, on a changed line or not, outside the
// files the change creates. Each dimension that has such findings runs again over the
// base view of the change (change.Set.BaseView), with Focus on the files of those
// findings; a finding the base also has (same rule, file through renames, symbol and
// message or Key: a multiset match, lines, columns and indentation ignored) is dropped,
// and the others are marked Introduced. Findings off the changed lines are matched
// first, so the one a change adds beside an old twin is the one reported. So a type
// error on an unchanged line of a changed package is reported, while an old finding
// on a line the change only re-indented or edited elsewhere is not. Dimensions with
// nothing to settle do not run again, so a clean change costs nothing more. When the
// base run fails, every unsettled finding is kept: what could not be shown to
// pre-exist counts as new.
func ConfirmAtBase(ctx context.Context, pass *check.Pass, dims []*check.Dimension, outcomes []Outcome, opts Options, rules map[string]*check.Rule) []Outcome {
	if pass.Mode != check.Diff || pass.Changes.NoBase {
		return outcomes
	}
	pending := make([][]int, len(outcomes)) // per outcome, the indices of unsettled findings
	var jobs []int
	for i, o := range outcomes {
		if o.Err == nil {
			pending[i] = unsettled(pass, o.Findings, rules)
		}
		if len(pending[i]) > 0 {
			jobs = append(jobs, i)
		}
	}
	if len(jobs) == 0 {
		return outcomes
	}
	view := pass.Changes.BaseView()
	out := append([]Outcome(nil), outcomes...)
	base := make([]Outcome, len(outcomes))
	parallel(len(jobs), opts.Parallelism, func(j int) {
		i := jobs[j]
		bp := *pass
		bp.Changes, bp.Files, bp.Focus = view, pass.Files.Flip(), focus(pass.Changes, outcomes[i].Findings, pending[i])
		start := time.Now()
		defer func() { base[i].Duration = time.Since(start) }()
		defer crash.Recover(&base[i].Err)
		base[i].Findings, base[i].Err = runOne(ctx, &bp, dims[i], opts.Timeout)
	})
	for _, i := range jobs {
		out[i].Duration += base[i].Duration
		var baseFindings []check.Finding
		if base[i].Err == nil {
			baseFindings = base[i].Findings
		}
		out[i].Findings = settle(pass, outcomes[i].Findings, pending[i], baseFindings)
	}
	return out
}

// unsettled returns the indices of the findings that are not marked Introduced, not in
// a file the change creates (the base has no finding there) and not turned off by the
// policy anyway.
func unsettled(pass *check.Pass, fs []check.Finding, rules map[string]*check.Rule) []int {
	var idx []int
	for i, f := range fs {
		if f.Introduced || created(pass.Changes, f.Location.File) {
			continue
		}
		def := policy.Error
		if r := rules[f.Rule]; r != nil {
			def = r.Default
		}
		if pass.Policy.Severity(f.Rule, f.Location.File, def) != policy.Off {
			idx = append(idx, i)
		}
	}
	return idx
}

// created reports whether the change creates the file at head path p.
func created(set *change.Set, p string) bool {
	f := set.File(p)
	return f != nil && f.Path == p && f.Op == change.Create
}

// focus returns the base paths of the findings at idx.
func focus(set *change.Set, fs []check.Finding, idx []int) map[string]bool {
	m := map[string]bool{}
	for _, i := range idx {
		m[basePath(set, fs[i].Location.File)] = true
	}
	return m
}

// basePath maps a head path to the path the same file has at the base.
func basePath(set *change.Set, p string) string {
	if f := set.File(p); f != nil && f.Path == p && f.Op == change.Rename {
		return f.OldPath
	}
	return p
}

// settle returns fs without the findings at idx that base also has, and with the other
// findings at idx marked Introduced. Findings off the changed lines are matched first.
func settle(pass *check.Pass, fs []check.Finding, idx []int, base []check.Finding) []check.Finding {
	set := pass.Changes
	order := append([]int(nil), idx...)
	sort.SliceStable(order, func(a, b int) bool { return !pass.Keep(fs[order[a]]) && pass.Keep(fs[order[b]]) })
	cands := make([]check.Finding, len(order))
	for k, i := range order {
		cands[k] = fs[i]
	}
	isNew := Unmatched(cands, base, func(p string) string { return basePath(set, p) })
	drop := map[int]bool{}
	for k, i := range order {
		drop[i] = !isNew[k]
	}
	out := make([]check.Finding, 0, len(fs))
	for i, f := range fs {
		switch {
		case drop[i]:
			continue
		case isIn(idx, i):
			f.Introduced = true
		}
		out = append(out, f)
	}
	return out
}

func isIn(sorted []int, i int) bool {
	k := sort.SearchInts(sorted, i)
	return k < len(sorted) && sorted[k] == i
}

// matchKey identifies a finding independently of where its lines moved.
type matchKey struct {
	rule, file, symbol, message string
}

// position matches "file.go:12" or "file.go:12:3" inside a message.
var position = lazyregexp.New(`(\.[A-Za-z0-9]+):\d+(:\d+)?\b`)

func keyOf(f check.Finding, file string) matchKey {
	sym := f.Symbol
	if sym == f.Location.File {
		sym = file
	}
	msg := f.Message
	if f.Key != "" {
		msg = f.Key
	}
	return matchKey{f.Rule, file, sym, position.ReplaceAllString(msg, "$1")}
}

// Unmatched reports, for each head finding, whether it is new: not matched by a base
// finding of the same rule, file (head paths mapped to base paths by toBase), symbol and
// message (its Key when it has one). Matching is a multiset match that ignores lines and columns: two identical
// head findings against one at the base leave one new.
func Unmatched(head, base []check.Finding, toBase func(string) string) []bool {
	count := map[matchKey]int{}
	for _, b := range base {
		count[keyOf(b, b.Location.File)]++
	}
	isNew := make([]bool, len(head))
	for i, h := range head {
		k := keyOf(h, toBase(h.Location.File))
		if count[k] > 0 {
			count[k]--
			continue
		}
		isNew[i] = true
	}
	return isNew
}
