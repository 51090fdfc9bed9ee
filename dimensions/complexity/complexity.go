package complexity

import (
	"fmt"
	"strconv"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/policy"
)

// Dimension is the complexity dimension.
var Dimension = &check.Dimension{
	Name: policy.Complexity,
	Doc:  "keeps changed functions short, shallow and simple: length, nesting, cyclomatic and cognitive complexity under the policy's limits",
	Rules: []*check.Rule{
		{
			ID: "complexity/function-length", Default: policy.Error,
			Short: "function body has more lines than max_function_lines",
			Doc: "Counts the non-blank, non-comment lines between a function's braces and fires when " +
				"the count exceeds complexity.max_function_lines (0 = off). In a diff, only functions " +
				"that are new or grew are reported. For Common Lisp, the code lines of a defining form after " +
				"its first (not blank, not only a ; comment, not inside #|…|#). Split long functions into " +
				"named steps.",
		},
		{
			ID: "complexity/nesting-depth", Default: policy.Error,
			Short: "control structures nest deeper than max_nesting_depth",
			Doc: "Measures the deepest nesting of if, for, range, switch, type switch, select and " +
				"function literals (an else-if chain counts once) and fires when it exceeds " +
				"complexity.max_nesting_depth (0 = off). For Common Lisp, the nesting of if, when, unless, " +
				"cond, the case and typecase families, loop, do, dolist, dotimes, handler-case, " +
				"handler-bind, restart-case and lambda forms (quoted data excluded). Use early returns " +
				"and helper functions.",
		},
		{
			ID: "complexity/cyclomatic", Default: policy.Error,
			Short: "cyclomatic complexity exceeds max_cyclomatic",
			Doc: "Cyclomatic complexity as gocyclo computes it: 1 + if, for, range, non-default case " +
				"and comm clauses, && and || (function literals count toward their function). For Common " +
				"Lisp: 1 + if, when, unless, each cond clause, each clause of the case and typecase " +
				"families, each handler-case and restart-case clause, each and/or operand after the " +
				"first, each iteration form (loop, do, dolist, dotimes) and each conditional loop " +
				"clause (if, when, unless, while, until). Fires " +
				"above complexity.max_cyclomatic (0 = off). Split the function or table-drive it.",
		},
		{
			ID: "complexity/cognitive", Default: policy.Warning,
			Short: "cognitive complexity exceeds max_cognitive",
			Doc: "Cognitive complexity as gocognit computes it: structures score more the deeper they " +
				"nest, plus else branches, labelled jumps, runs of logical operators and recursion. " +
				"Fires above complexity.max_cognitive (0 = off). Flatten and extract.",
		},
	},
	Run:          run,
	PerDirectory: true,
}

// metric is one measured quantity with its rule, limit and wording.
type metric struct {
	rule  string
	what  string // "cyclomatic complexity 22", with %d for the value
	limit func(*policy.ComplexityOptions) int
	value func(*lang.Metrics) int
}

var metrics = []metric{
	{"complexity/function-length", "%d lines",
		func(o *policy.ComplexityOptions) int { return o.MaxFunctionLines },
		func(m *lang.Metrics) int { return m.Lines }},
	{"complexity/nesting-depth", "nesting depth %d",
		func(o *policy.ComplexityOptions) int { return o.MaxNestingDepth },
		func(m *lang.Metrics) int { return m.Nesting }},
	{"complexity/cyclomatic", "cyclomatic complexity %d",
		func(o *policy.ComplexityOptions) int { return o.MaxCyclomatic },
		func(m *lang.Metrics) int { return m.Cyclomatic }},
	{"complexity/cognitive", "cognitive complexity %d",
		func(o *policy.ComplexityOptions) int { return o.MaxCognitive },
		func(m *lang.Metrics) int { return m.Cognitive }},
}

func run(pass *check.Pass) ([]check.Finding, error) {
	var out []check.Finding
	for _, f := range pass.Changes.Files {
		if err := pass.Context.Err(); err != nil {
			return nil, err
		}
		if !f.Analyzable() {
			continue
		}
		opts := pass.Policy.ForPath(f.Path).Complexity
		if opts == nil {
			continue
		}
		fs, err := checkFile(pass, f, opts)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

func checkFile(pass *check.Pass, f *change.File, opts *policy.ComplexityOptions) ([]check.Finding, error) {
	head, err := pass.Files.Parse(f, change.Head)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	if head == nil || len(head.SyntaxErrors) > 0 {
		return nil, nil
	}
	compare := pass.Mode != check.Check && !pass.Changes.NoBase
	var base map[string]*lang.Metrics
	if compare {
		if base, err = baseMetrics(pass, f); err != nil {
			return nil, err
		}
	}
	var out []check.Finding
	for _, fn := range keyed(head) {
		was, existed := base[fn.key]
		for _, m := range metrics {
			if finding, ok := m.breach(pass.Mode, compare, f.Path, fn.decl, was, existed, m.limit(opts)); ok {
				out = append(out, finding)
			}
		}
	}
	return out, nil
}

// baseMetrics returns the metrics of the functions of f's base side by key; nil when f
// has no base or its base does not parse.
func baseMetrics(pass *check.Pass, f *change.File) (map[string]*lang.Metrics, error) {
	if f.Base == nil {
		return nil, nil
	}
	bf, err := pass.Files.Parse(f, change.Base)
	if err != nil {
		return nil, fmt.Errorf("%s (base): %w", f.Path, err)
	}
	if bf == nil || len(bf.SyntaxErrors) > 0 {
		return nil, nil
	}
	return functions(bf), nil
}

// check reports whether function d breaks the metric's limit in a way the mode counts:
// in Diff mode only when it is new or worse than at the base (was).
func (m metric) breach(mode check.Mode, compare bool, path string, d *lang.Decl, was *lang.Metrics, existed bool, limit int) (check.Finding, bool) {
	v := m.value(d.Metrics)
	if limit <= 0 || v <= limit {
		return check.Finding{}, false
	}
	note := ""
	switch {
	case !compare:
	case !existed:
		note = "; new function"
	default:
		old := m.value(was)
		if mode == check.Diff && old >= v {
			return check.Finding{}, false // not worse than at the base: not introduced
		}
		note = fmt.Sprintf("; was %d at base", old)
	}
	return check.Finding{
		Rule:       m.rule,
		Location:   check.Location{File: path, Line: d.NamePos.Line, Column: d.NamePos.Column},
		Message:    fmt.Sprintf("function %s has "+m.what+" (limit %d%s)", d.Name, v, limit, note),
		Symbol:     d.Name,
		Introduced: compare,
	}, true
}

// function is a function with a body and its matching key: its name, or "name#n" for
// the n-th later declaration of a name declared more than once (init).
type function struct {
	key  string
	decl *lang.Decl
}

func keyed(lf *lang.File) []function {
	var out []function
	seen := map[string]int{}
	for i := range lf.Decls {
		d := &lf.Decls[i]
		if d.Metrics == nil {
			continue
		}
		key := d.Name
		if n := seen[d.Name]; n > 0 {
			key += "#" + strconv.Itoa(n)
		}
		seen[d.Name]++
		out = append(out, function{key, d})
	}
	return out
}

func functions(lf *lang.File) map[string]*lang.Metrics {
	out := map[string]*lang.Metrics{}
	for _, fn := range keyed(lf) {
		out[fn.key] = fn.decl.Metrics
	}
	return out
}
