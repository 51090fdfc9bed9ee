package extract

import (
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// skips records the places that skip a test unconditionally: a skip decorator
// (@pytest.mark.skip, @unittest.skip, skipif/skipIf with a literally true condition,
// skipUnless with a literally false one), an expected failure (@pytest.mark.xfail without
// a computed condition, @unittest.expectedFailure: a failing test hidden as well), a pytestmark assignment of such a mark, and a
// statement of a function's or the module's body (not nested in an if: a skip on a
// condition is how a test says where it cannot run) that calls pytest.skip or
// self.skipTest or raises SkipTest.
func (x *extractor) skips(root *syntax.Node) {
	x.skipStatements(root.Children)
	root.Walk(func(n *syntax.Node) bool {
		switch n.Kind {
		case "decorator":
			if e := n.FirstNamed(); e != nil && skipMark(e, x.src) {
				x.skip(n)
			}
		case "function_definition":
			if b := n.Child("body"); b != nil {
				x.skipStatements(b.Children)
			}
		case "class_definition":
			if b := n.Child("body"); b != nil {
				x.skipMarks(b.Children)
			}
		}
		return true
	})
}

func (x *extractor) skip(n *syntax.Node) {
	text := strings.TrimSpace(n.Text(x.src))
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	x.lf.Skips = append(x.lf.Skips, lang.Skip{Pos: n.Pos, Text: text})
}

// skipStatements records the skipping statements among one body's statements.
func (x *extractor) skipStatements(stmts []*syntax.Node) {
	x.skipMarks(stmts)
	for _, s := range stmts {
		switch s.Kind {
		case "expression_statement":
			if c := s.FirstNamed(); c != nil && c.Kind == "call" && skipCall(c.Child("function").Text(x.src)) {
				x.skip(s)
			}
		case "raise_statement":
			if e := s.FirstNamed(); e != nil && syntax.LastName(calleeText(e, x.src)) == "SkipTest" {
				x.skip(s)
			}
		}
	}
}

// skipMarks records `pytestmark = <skip mark>` (or a list holding one) among stmts.
func (x *extractor) skipMarks(stmts []*syntax.Node) {
	for _, s := range stmts {
		a := s.FirstOfKind("assignment")
		if s.Kind != "expression_statement" || a == nil || a.Child("left").Text(x.src) != "pytestmark" {
			continue
		}
		right := a.Child("right")
		marks := []*syntax.Node{right}
		if right != nil && right.Kind == "list" {
			marks = right.NamedChildren()
		}
		for _, m := range marks {
			if m != nil && skipMark(m, x.src) {
				x.skip(s)
				break
			}
		}
	}
}

// skipCall reports whether a called function skips the running test.
func skipCall(fn string) bool {
	return fn == "pytest.skip" || fn == "self.skipTest"
}

// calleeText is the called function of a call expression, or the expression itself.
func calleeText(e *syntax.Node, src []byte) string {
	if e.Kind == "call" {
		return e.Child("function").Text(src)
	}
	return e.Text(src)
}

// skipMark reports whether the expression e of a decorator or mark skips always.
func skipMark(e *syntax.Node, src []byte) bool {
	name := calleeText(e, src)
	switch {
	case strings.HasSuffix(name, "mark.skip"), name == "unittest.skip", name == "skip",
		name == "unittest.expectedFailure", name == "expectedFailure":
		return true
	case strings.HasSuffix(name, "mark.xfail"):
		// An expected failure hides a failing test as a skip does, unless its condition is
		// computed (a platform, a version).
		c := condition(e, src)
		return e.Kind != "call" || c == nil || literalTruth(c, src) == 1
	case strings.HasSuffix(name, "mark.skipif"), name == "unittest.skipIf", name == "skipIf":
		return e.Kind == "call" && literalTruth(condition(e, src), src) == 1
	case name == "unittest.skipUnless", name == "skipUnless":
		return e.Kind == "call" && literalTruth(condition(e, src), src) == 0
	}
	return false
}

// condition returns a skip mark's condition: its first positional argument, or its
// condition= keyword.
func condition(call *syntax.Node, src []byte) *syntax.Node {
	args := call.Child("arguments")
	if args == nil {
		return nil
	}
	for _, a := range args.NamedChildren() {
		if a.Kind != "keyword_argument" {
			return a
		}
		if a.Child("name").Text(src) == "condition" {
			return a.Child("value")
		}
	}
	return nil
}

// literalTruth is 1 for a literally true condition (True, a non-zero number), 0 for a
// literally false one (False, None, 0), -1 when the condition is computed.
func literalTruth(c *syntax.Node, src []byte) int {
	if c == nil {
		return -1
	}
	switch t := strings.TrimSpace(c.Text(src)); t {
	case "True", "1":
		return 1
	case "False", "None", "0":
		return 0
	}
	return -1
}
