package python

import (
	"strings"

	"github.com/agentverify/agentverify/lang"
)

// skips records the places that skip a test unconditionally: a skip decorator
// (@pytest.mark.skip, @unittest.skip, skipif/skipIf with a literally true condition,
// skipUnless with a literally false one), an expected failure (@pytest.mark.xfail without
// a computed condition, @unittest.expectedFailure: a failing test hidden as well), a pytestmark assignment of such a mark, and a
// statement of a function's or the module's body (not nested in an if: a skip on a
// condition is how a test says where it cannot run) that calls pytest.skip or
// self.skipTest or raises SkipTest.
func (x *extractor) skips(root *node) {
	x.skipStatements(root.children)
	root.walk(func(n *node) bool {
		switch n.kind {
		case "decorator":
			if e := firstNamed(n); e != nil && skipMark(e, x.src) {
				x.skip(n)
			}
		case "function_definition":
			if b := n.child("body"); b != nil {
				x.skipStatements(b.children)
			}
		case "class_definition":
			if b := n.child("body"); b != nil {
				x.skipMarks(b.children)
			}
		}
		return true
	})
}

func (x *extractor) skip(n *node) {
	text := strings.TrimSpace(n.text(x.src))
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	x.lf.Skips = append(x.lf.Skips, lang.Skip{Pos: n.pos, Text: text})
}

// skipStatements records the skipping statements among one body's statements.
func (x *extractor) skipStatements(stmts []*node) {
	x.skipMarks(stmts)
	for _, s := range stmts {
		switch s.kind {
		case "expression_statement":
			if c := firstNamed(s); c != nil && c.kind == "call" && skipCall(c.child("function").text(x.src)) {
				x.skip(s)
			}
		case "raise_statement":
			if e := firstNamed(s); e != nil && lastName(calleeText(e, x.src)) == "SkipTest" {
				x.skip(s)
			}
		}
	}
}

// skipMarks records `pytestmark = <skip mark>` (or a list holding one) among stmts.
func (x *extractor) skipMarks(stmts []*node) {
	for _, s := range stmts {
		a := s.firstOfKind("assignment")
		if s.kind != "expression_statement" || a == nil || a.child("left").text(x.src) != "pytestmark" {
			continue
		}
		right := a.child("right")
		marks := []*node{right}
		if right != nil && right.kind == "list" {
			marks = right.namedChildren()
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
func calleeText(e *node, src []byte) string {
	if e.kind == "call" {
		return e.child("function").text(src)
	}
	return e.text(src)
}

// skipMark reports whether the expression e of a decorator or mark skips always.
func skipMark(e *node, src []byte) bool {
	name := calleeText(e, src)
	switch {
	case strings.HasSuffix(name, "mark.skip"), name == "unittest.skip", name == "skip",
		name == "unittest.expectedFailure", name == "expectedFailure":
		return true
	case strings.HasSuffix(name, "mark.xfail"):
		// An expected failure hides a failing test as a skip does, unless its condition is
		// computed (a platform, a version).
		c := condition(e, src)
		return e.kind != "call" || c == nil || literalTruth(c, src) == 1
	case strings.HasSuffix(name, "mark.skipif"), name == "unittest.skipIf", name == "skipIf":
		return e.kind == "call" && literalTruth(condition(e, src), src) == 1
	case name == "unittest.skipUnless", name == "skipUnless":
		return e.kind == "call" && literalTruth(condition(e, src), src) == 0
	}
	return false
}

// condition returns a skip mark's condition: its first positional argument, or its
// condition= keyword.
func condition(call *node, src []byte) *node {
	args := call.child("arguments")
	if args == nil {
		return nil
	}
	for _, a := range args.namedChildren() {
		if a.kind != "keyword_argument" {
			return a
		}
		if a.child("name").text(src) == "condition" {
			return a.child("value")
		}
	}
	return nil
}

// literalTruth is 1 for a literally true condition (True, a non-zero number), 0 for a
// literally false one (False, None, 0), -1 when the condition is computed.
func literalTruth(c *node, src []byte) int {
	if c == nil {
		return -1
	}
	switch t := strings.TrimSpace(c.text(src)); t {
	case "True", "1":
		return 1
	case "False", "None", "0":
		return 0
	}
	return -1
}
