package resolve

import (
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
	"github.com/agentverify/agentverify/lazyregexp"
)

// Guards pyright cannot evaluate, for code that runs only on some Pythons (design.md
// §4.3.1): a test that pytest skips below a version (`@pytest.mark.skipif(sys.version_info
// < (3, 14), …)`, or on a platform, or without a feature), and a branch on a version
// constant with a name of its own (`if PY_3_14_PLUS:`, attrs' _compat). pyright checks
// both at the project's Python, so members new in a later Python look made up there.

// versionConstant matches the names projects give version tests: PY_3_14_PLUS, PY310,
// PYTHON_3_12, IS_PY39, _PY38.
var versionConstant = lazyregexp.New(`^_?(?:IS_)?PY(?:THON)?_?3_?\d+(?:_\w+)?$`)

// skipCondition matches a skipif decorator (pytest's or a unittest skipIf/skipUnless)
// whose condition is about the Python version, the platform or a feature probe.
var skipCondition = lazyregexp.New(`(?:\.skipif|skipIf|skipUnless)\s*\(`)

// skipGuard guards a test function or class that pytest or unittest skips on the Pythons
// or platforms its condition names: its body runs only where the condition lets it.
func skipGuard(decorated *syntax.Node, src []byte, consts map[string]bool) []guardedRange {
	def := decorated.Child("definition")
	if def == nil {
		return nil
	}
	for _, d := range decoratorTexts(decorated, src) {
		if skipCondition.MatchString(d) && (guardCondition.MatchString(d) || mentionsAny(d, consts)) {
			return []guardedRange{{from: def.Pos.Line, to: def.EndPos.Line}}
		}
	}
	return nil
}

// moduleSkip guards a whole test module that `pytestmark = pytest.mark.skipif(…)` skips on
// a version or platform.
func moduleSkip(root *syntax.Node, src []byte, consts map[string]bool) []guardedRange {
	for _, s := range syntax.ModuleStatements(root) {
		as := s.FirstOfKind("assignment")
		if s.Kind != "expression_statement" || as == nil || as.Child("left").Text(src) != "pytestmark" {
			continue
		}
		if v := as.Child("right").Text(src); skipCondition.MatchString(v) && (guardCondition.MatchString(v) || mentionsAny(v, consts)) {
			return []guardedRange{{from: root.Pos.Line, to: root.EndPos.Line}}
		}
	}
	return nil
}

// constantGuards guards the branch of `if C:` (or the else branches of `if not C:`) that
// runs on the Pythons a version constant C selects; a condition that mixes C with other
// tests guards the whole statement.
func constantGuards(n *syntax.Node, src []byte, consts map[string]bool) []guardedRange {
	cond := strings.TrimSpace(n.Child("condition").Text(src))
	c := n.Child("consequence")
	switch {
	case !mentionsAny(cond, consts):
		return nil
	case consts[cond] && c != nil:
		return []guardedRange{{from: c.Pos.Line, to: c.EndPos.Line}}
	case consts[strings.TrimSpace(strings.TrimPrefix(cond, "not "))] && strings.HasPrefix(cond, "not "):
		return elseRanges(n)
	}
	return []guardedRange{{from: n.Pos.Line, to: n.EndPos.Line}}
}

// versionConstants are the names that hold version tests in a file: named like one
// (versionConstant), or assigned a sys.version_info comparison at its top level. The
// aliases of the major version (six's PY2, PY3) are not: their Python 3 branch is the one
// pyright checks rightly (pyrightidioms.go guards the Python 2 one).
func versionConstants(t *target) map[string]bool {
	out := map[string]bool{}
	for n := range t.idx.names {
		if versionConstant.MatchString(n) && !majorAlias.MatchString(n) {
			out[n] = true
		}
	}
	for _, s := range syntax.ModuleStatements(t.tree) {
		as := s.FirstOfKind("assignment")
		if s.Kind == "expression_statement" && as != nil && as.Child("left").Kind == "identifier" &&
			strings.Contains(as.Child("right").Text(t.src), "version_info") && !majorAlias.MatchString(as.Child("left").Text(t.src)) {
			out[as.Child("left").Text(t.src)] = true
		}
	}
	return out
}

// majorAlias matches the names of Python-major-version tests.
var majorAlias = lazyregexp.New(`^_?(?:IS_)?PY(?:THON)?_?[23]K?$`)

// onPython3 marks rs as code for another Python 3 (guardedRange.py3).
func onPython3(rs []guardedRange) []guardedRange {
	for i := range rs {
		rs[i].py3 = true
	}
	return rs
}

// inNoPython reports whether p is a standard-library module member that typeshed's stub
// declares for no Python 3 version (it reads every version branch): a typo such as
// copy.replce, which a version guard does not excuse. A module whose names the stub
// leaves open (a star import, __getattr__) or a submodule of that name is not.
func (j *job) inNoPython(p lang.Problem) bool {
	if p.Kind != lang.UnknownSymbol || !strings.Contains(p.Symbol, ".") {
		return false
	}
	mod, name := parentModule(p.Symbol), syntax.LastName(p.Symbol)
	if !j.isStdlib(mod) {
		return false
	}
	d := j.declOf(mod)
	if d == nil || !d.stub || len(d.stars) > 0 || d.names["__getattr__"] || d.names[name] || d.imports[name] != "" {
		return false
	}
	src, _, _ := j.declFile(p.Symbol)
	return src == nil
}
