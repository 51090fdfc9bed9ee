package resolve

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
	"github.com/agentverify/agentverify/policy"
)

// fixedDeps reports the same problems for every request.
type fixedDeps []lang.Problem

func (d fixedDeps) Problems(*lang.Request) ([]lang.Problem, error) { return d, nil }

// oracleFinding is what the slow step stands for: a finding only pyright has.
const oracleFinding = "pyright's finding"

// slowOracle stands for pyright's step: it answers after a while, unless the request's
// context ends first.
func slowOracle(j *job) ([]lang.Problem, error) {
	select {
	case <-j.req.Context.Done():
		return nil, j.req.Context.Err()
	case <-time.After(300 * time.Millisecond):
		return []lang.Problem{{Kind: lang.UnknownMember, Location: lang.Location{File: "app.py", Line: 2}, Message: oracleFinding}}, nil
	}
}

// TestFirstError asserts when a first-error request is answered from our own checks
// without the oracle: only for an error the change certainly introduced (a new file, a
// package its base did not import, a syntax error in a file whose base parses) at error
// severity; otherwise the answer is the full one.
func TestFirstError(t *testing.T) {
	unknown := lang.Problem{Kind: lang.UnknownPackage, Location: lang.Location{File: "app.py", Line: 1, Column: 8}, Symbol: "jsno", Message: "import of jsno"}
	undeclared := unknown
	undeclared.Kind = lang.UndeclaredDependency
	missing := unknown
	missing.Kind = lang.MissingDependency
	head := "import jsno\nx = jsno.y\n"
	warn, err := policy.Parse("policy.yaml", []byte("version: 1\nhallucination: {}\nrules:\n  hallucination/unknown-package: warning\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		base, head string // base "" is a new file
		deps       fixedDeps
		pol        *policy.Policy
		first      bool
		early      bool // answered without the oracle
	}{
		{name: "made-up package in a new file", head: head, deps: fixedDeps{unknown}, first: true, early: true},
		{name: "made-up package added", base: "import json\n", head: head, deps: fixedDeps{unknown}, first: true, early: true},
		{name: "undeclared dependency added", base: "import json\n", head: head, deps: fixedDeps{undeclared}, first: true, early: true},
		{name: "every finding asked for", base: "import json\n", head: head, deps: fixedDeps{unknown}},
		{name: "the base imports it too", base: "import jsno\n", head: head, deps: fixedDeps{unknown}, first: true},
		{name: "a warning in the policy", base: "import json\n", head: head, deps: fixedDeps{unknown}, pol: warn, first: true},
		{name: "missing dependency is a warning", base: "import json\n", head: head, deps: fixedDeps{missing}, first: true},
		{name: "syntax error added", base: "x = 1\n", head: "x = (\n", first: true, early: true},
		{name: "syntax error already there", base: "x = (\n", head: "x = ((\n", first: true},
		{name: "nothing of ours", base: "x = 1\n", head: "x = 2\n", first: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := change.NewFile("app.py", "app.py", []byte(tc.base), []byte(tc.head))
			if tc.base == "" {
				f = change.NewFile("app.py", "", nil, []byte(tc.head))
			}
			pol := tc.pol
			if pol == nil {
				pol = policy.Default()
			}
			fe := Resolver{g: syntax.NewGrammar(), steps: []step{syntaxStep, slowOracle}, deps: tc.deps, cache: NewCache()}
			req := &lang.Request{Context: context.Background(), Changes: &change.Set{Files: []*change.File{f}}, Policy: pol, FirstError: tc.first}
			ps, err := fe.Resolve(req)
			if err != nil {
				t.Fatal(err)
			}
			checkFirstAnswer(t, ps, tc.early, len(tc.deps))
		})
	}
}

// checkFirstAnswer fails t unless ps was answered without the oracle exactly when early
// is set, then with the ndeps dependency findings (or the syntax error) marked introduced.
func checkFirstAnswer(t *testing.T, ps []lang.Problem, early bool, ndeps int) {
	t.Helper()
	var oracle bool
	for _, p := range ps {
		oracle = oracle || p.Message == oracleFinding
		if early && !p.Introduced {
			t.Errorf("early answer %v not marked introduced: the engine would settle it against a base run", p)
		}
	}
	if oracle == early {
		t.Errorf("answered without the oracle: %t, want %t (%v)", !oracle, early, ps)
	}
	if len(ps) == 0 || early && len(ps) != max(ndeps, 1) {
		t.Errorf("answer %v", ps)
	}
}

// TestFirstErrorKindsAreErrors: the kinds whose finding ends a first-error request are
// our own checks' (never pyright's) and hold no kind of another dimension.
func TestFirstErrorKindsAreErrors(t *testing.T) {
	for k := range ownErrorKinds {
		if k.Dimension() != policy.Hallucination || strings.Contains(string(k), "member") {
			t.Errorf("%s is not one of our own checks' hallucination kinds", k)
		}
	}
}
