package check

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/policy"
)

// resolution is the memoised result of one frontend's resolver for one pass.
type resolution struct {
	once sync.Once
	ps   []lang.Problem
	err  error
}

// Resolved returns the problems of the kinds the dimension named dim reports
// (lang.Kind.Dimension), from the resolvers of the pass's frontends (lang.Resolver):
// for hallucination every resolver, for another dimension those that list one of its
// kinds (lang.KindLister). Each resolver runs once per side and focus of a verification
// however many dimensions ask, so hallucination and semantics share one pyright run
// (design.md §4). A problem of a kind of dim for which rules has no rule is an error, so
// nothing passes unreported.
func (p *Pass) Resolved(dim string, rules []*Rule) ([]lang.Problem, error) {
	var out []lang.Problem
	for _, fe := range p.Languages {
		r, ok := fe.(lang.Resolver)
		if !ok || !reportsFor(r, dim) {
			continue
		}
		ps, err := p.resolve(fe, r)
		if err != nil {
			return nil, err
		}
		for _, pr := range ps {
			if pr.Kind.Dimension() != dim {
				continue
			}
			if !declares(rules, dim+"/"+string(pr.Kind)) {
				return nil, fmt.Errorf("the %s frontend reported %s/%s, which the dimension does not declare", fe.Name(), dim, pr.Kind)
			}
			out = append(out, pr)
		}
	}
	lang.SortProblems(out)
	return out, nil
}

// reportsFor says whether r may report a kind of the dimension dim.
func reportsFor(r lang.Resolver, dim string) bool {
	if dim == policy.Hallucination {
		return true
	}
	kl, ok := r.(lang.KindLister)
	return ok && slices.ContainsFunc(kl.Kinds(), func(k lang.Kind) bool { return k.Dimension() == dim })
}

// resolve runs fe's resolver once per side and focus of the verification.
func (p *Pass) resolve(fe lang.Frontend, r lang.Resolver) ([]lang.Problem, error) {
	key := fmt.Sprintf("check.resolve %s %p %s", fe.Name(), p.Changes, focusKey(p.Focus))
	res := p.Memo.Get(key, func() any { return &resolution{} }).(*resolution)
	res.once.Do(func() { res.ps, res.err = p.runResolver(fe, r) })
	return res.ps, res.err
}

// runResolver runs a resolver. A crash is an error here, not only in the dimension that
// asked first: once.Do would otherwise leave the other dimensions an empty result — a
// silent pass. A kind outside hallucination that the resolver does not list is an error
// too (lang.KindLister).
func (p *Pass) runResolver(fe lang.Frontend, r lang.Resolver) (ps []lang.Problem, err error) {
	defer func() {
		if x := recover(); x != nil {
			c := crash.New(x)
			ps, err = nil, fmt.Errorf("the %s resolver crashed: %v%s", fe.Name(), c.Value, c.Site())
		}
	}()
	ps, err = r.Resolve(p.Request())
	if err != nil {
		return nil, fmt.Errorf("resolving the %s code: %w", fe.Name(), err)
	}
	var listed []lang.Kind
	if kl, ok := r.(lang.KindLister); ok {
		listed = kl.Kinds()
	}
	for _, pr := range ps {
		if pr.Kind.Dimension() != policy.Hallucination && !slices.Contains(listed, pr.Kind) {
			return nil, fmt.Errorf("the %s frontend reported a %s problem without listing the kind (lang.KindLister)", fe.Name(), pr.Kind)
		}
	}
	return ps, nil
}

func declares(rules []*Rule, id string) bool {
	return slices.ContainsFunc(rules, func(r *Rule) bool { return r.ID == id })
}

func focusKey(focus map[string]bool) string {
	if focus == nil {
		return "*"
	}
	paths := make([]string, 0, len(focus))
	for p, ok := range focus {
		if ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	return strings.Join(paths, "\x00")
}
