package typescript

import (
	"path"
	"strconv"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// isTestFile reports whether p holds tests as jest, vitest, mocha, jasmine, node:test,
// playwright and ava find them by default: *.test.*, *.spec.*, *_test.*, *-test.*, or a
// file under __tests__, test/, tests/ or spec/.
func isTestFile(p string) bool {
	base := strings.ToLower(path.Base(p))
	stem := strings.TrimSuffix(base, path.Ext(base))
	if strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") || strings.HasSuffix(stem, "_test") ||
		strings.HasSuffix(stem, "-test") || strings.HasSuffix(stem, ".e2e") {
		return true
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "__tests__", "test", "tests", "spec", "__mocks__", "e2e":
			return true
		}
	}
	return false
}

// suites and cases are the functions of the test frameworks that declare a group of
// tests and one test.
var (
	suites = map[string]bool{"describe": true, "suite": true, "context": true, "fdescribe": true, "xdescribe": true, "xcontext": true}
	cases  = map[string]bool{"it": true, "test": true, "specify": true, "fit": true, "xit": true, "xtest": true, "xspecify": true}
)

// skipMethods are the member calls that skip a test or a suite (it.skip, test.todo,
// describe.skipIf(…), test.fixme) and focusMethods those that run one alone and so skip
// every other (it.only).
var (
	skipMethods  = map[string]bool{"skip": true, "todo": true, "skipIf": true, "runIf": true, "fixme": true}
	focusMethods = map[string]bool{"only": true}
	// skipNames are the framework functions whose test is skipped (xit) or focused (fit).
	skipNames = map[string]string{"xit": "skipped", "xtest": "skipped", "xspecify": "skipped", "xdescribe": "skipped",
		"xcontext": "skipped", "fit": "focused", "fdescribe": "focused"}
)

// tests records the tests of a test file as declarations ("suite > case", at the test
// call) and every place that skips or focuses one: it.skip, describe.skip, xit,
// test.todo, test.skipIf(…), it.only and fit; a node:test { skip: … } or { todo: … }
// option; this.skip() (mocha) and t.skip() / t.todo() (node:test) in a test.
func (x *extractor) tests() {
	if !x.lf.Test {
		return
	}
	var walk func(n *syntax.Node, suite string)
	walk = func(n *syntax.Node, suite string) {
		if n.Kind == "call_expression" {
			if name, test, ok := x.testCall(n, suite); ok {
				if test {
					x.add(lang.Decl{Name: name, Kind: lang.Func, Test: true, Documented: true, Span: n.Span(), NamePos: n.Pos})
				} else {
					suite = name
				}
			}
			x.skipCall(n)
		}
		for _, c := range n.Children {
			walk(c, suite)
		}
	}
	walk(x.tree.Root, "")
}

// testCall recognises describe(name, fn) and it(name, fn) (with .skip, .only and the
// like): it returns the qualified name and whether it is a test (not a suite).
func (x *extractor) testCall(call *syntax.Node, suite string) (string, bool, bool) {
	fn := call.Child("function")
	base := calleeBase(x, fn)
	args := call.Child("arguments").NamedChildren()
	if call.Field == "function" {
		return "", false, false // it.each(table): the test is the call of what it returns
	}
	if base == "" || len(args) == 0 || !suites[base] && !cases[base] {
		return "", false, false
	}
	title := x.title(args[0])
	if suite != "" {
		title = suite + " > " + title
	}
	return title, cases[base], true
}

// calleeBase is the framework function a test call calls: "it" for it(…), it.skip(…),
// it.each(table)(…) and test.concurrent.only(…); "" for anything else.
func calleeBase(x *extractor, fn *syntax.Node) string {
	for fn != nil {
		switch fn.Kind {
		case "identifier":
			return x.text(fn)
		case "member_expression":
			fn = fn.Child("object")
		case "call_expression":
			fn = fn.Child("function")
		default:
			return ""
		}
	}
	return ""
}

// title is a test's name as written: a string's content, else the expression.
func (x *extractor) title(arg *syntax.Node) string {
	t := x.text(arg)
	if arg.Kind == "string" {
		if s, err := strconv.Unquote(`"` + strings.ReplaceAll(t[1:len(t)-1], `"`, `\"`) + `"`); err == nil {
			return s
		}
		return t[1 : len(t)-1]
	}
	if arg.Kind == "template_string" && len(t) >= 2 {
		return t[1 : len(t)-1]
	}
	return collapse(t)
}

// skipCall records the call as a skip when it skips or focuses a test.
func (x *extractor) skipCall(call *syntax.Node) {
	if how := x.skipKind(call); how != "" {
		x.lf.Skips = append(x.lf.Skips, lang.Skip{Pos: call.Pos, Text: x.shortCall(call) + " (" + how + ")"})
	}
}

// skipKind says how a call skips a test ("skipped", "focused: …"), "" when it does not.
func (x *extractor) skipKind(call *syntax.Node) string {
	fn := call.Child("function")
	base := calleeBase(x, fn)
	args := call.Child("arguments").NamedChildren()
	framework := suites[base] || cases[base]
	switch how, named := skipNames[x.text(fn)]; {
	case named && len(args) > 0:
		return how
	case framework && fn.Kind == "member_expression":
		return memberSkip(x.text(fn.Child("property")))
	case framework && fn.Kind == "identifier" && len(args) >= 2 && x.skipOption(args[1]):
		return "skipped by its options"
	case fn.Kind == "member_expression" && len(args) <= 1 && x.selfSkip(fn) && x.inTest(call):
		return "skipped"
	}
	return ""
}

// memberSkip says how it.m(…) skips a test.
func memberSkip(m string) string {
	switch {
	case skipMethods[m]:
		return "skipped"
	case focusMethods[m]:
		return "focused: every other test is skipped"
	}
	return ""
}

// selfSkip reports whether fn is mocha's this.skip or node:test's t.skip / t.todo.
func (x *extractor) selfSkip(fn *syntax.Node) bool {
	obj, m := x.text(fn.Child("object")), x.text(fn.Child("property"))
	return obj == "this" && m == "skip" || obj == "t" && (m == "skip" || m == "todo")
}

// skipOption reports whether a node:test options object skips the test: { skip: … }
// or { todo: … } with a value other than false.
func (x *extractor) skipOption(o *syntax.Node) bool {
	if o.Kind != "object" {
		return false
	}
	for _, p := range o.NamedChildren() {
		if p.Kind != "pair" {
			continue
		}
		k, v := x.text(p.Child("key")), p.Child("value")
		if (k == "skip" || k == "todo" || k == "only") && v != nil && v.Kind != "false" {
			return true
		}
	}
	return false
}

// inTest reports whether n is inside the function of a test call.
func (x *extractor) inTest(n *syntax.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Kind == "call_expression" && cases[calleeBase(x, p.Child("function"))] {
			return true
		}
	}
	return false
}

// shortCall is a call as written, its arguments after the first cut: it.skip("name").
func (x *extractor) shortCall(call *syntax.Node) string {
	args := call.Child("arguments").NamedChildren()
	s := collapse(x.text(call.Child("function"))) + "("
	if len(args) > 0 && (args[0].Kind == "string" || args[0].Kind == "template_string") {
		s += collapse(x.text(args[0]))
	}
	return s + ")"
}
