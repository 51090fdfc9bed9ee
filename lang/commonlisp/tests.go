package commonlisp

import (
	"bytes"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// Tests and skipped tests (design.md §4). A test is a top-level form (or one in a progn)
// of a test framework's defining operator, whatever package prefix it is written with:
//
//   - FiveAM: (test name …), (test (name :suite s …) …), (def-test name (…) …);
//   - rove and RT (sb-rt, which alexandria's tests use): (deftest name …);
//   - parachute: (define-test name …), name a symbol or a string.
//
// Its Decl has Test set and the test's name in lower case (a string name as written), so
// the semantics dimension reports a test the change deletes. The places that skip a test
// are File.Skips: a (skip …) or (skip-on …) form in a test's evaluated body (FiveAM,
// rove and parachute each name theirs skip), a parachute :skip option, and a test
// definition that a #+/#- feature expression excludes under the frontend's features
// (#+(or), #+nil, #-sbcl on SBCL): the reader records the excluded span, which is read
// again here to see whether it holds a test.

// testOps are the test-defining operators by symbol name, and the first body item.
var testOps = map[string]bool{"TEST": true, "DEF-TEST": true, "DEFTEST": true, "DEFINE-TEST": true}

// skipOps are the operators that skip the test they are in.
var skipOps = map[string]bool{"SKIP": true, "SKIP-ON": true}

// testName returns the name of the test f defines and the form that holds it, or nil.
func testName(f *reader.Form) (string, *reader.Form) {
	h := f.Head()
	if h == nil || h.Kind != reader.Symbol || h.Package == reader.Keyword || !testOps[h.Name] || len(f.Items) < 2 {
		return "", nil
	}
	n := f.Items[1]
	if n.Kind == reader.List && h.Name == "TEST" && len(n.Items) > 0 {
		n = n.Items[0] // FiveAM (test (name :suite s) …)
	}
	switch {
	case n.Kind == reader.Symbol && n.Package != reader.Keyword && n.Name != "NIL":
		return strings.ToLower(n.Name), n
	case n.Kind == reader.String && h.Name == "DEFINE-TEST":
		return n.Name, n
	}
	return "", nil
}

// topLevel calls fn for each top-level form, entering progn.
func topLevel(forms []*reader.Form, fn func(*reader.Form)) {
	for _, f := range forms {
		if h := f.Head(); h != nil && h.IsSymbol("PROGN") {
			topLevel(f.Items[1:], fn)
			continue
		}
		fn(f)
	}
}

// addTests adds the file's tests to Decls and the places that skip one to Skips.
func addTests(lf *lang.File, rf *reader.File, src []byte) {
	topLevel(rf.Forms, func(f *reader.Form) {
		name, at := testName(f)
		if at == nil {
			return
		}
		lf.Decls = append(lf.Decls, lang.Decl{
			Name:    name,
			Kind:    lang.Func,
			Test:    true,
			Span:    lang.Span{Start: pos(f.Span.Start), End: pos(f.Span.End)},
			NamePos: pos(at.Span.Start),
			Metrics: metricsFrom(f, 2, rf, src),
		})
		lf.Skips = append(lf.Skips, skipsIn(f, src)...)
	})
	for _, sp := range rf.Skipped {
		if s, name, ok := excludedTest(sp, src); ok {
			// Still a test of the file, skipped: not also a removed one.
			lf.Decls = append(lf.Decls, lang.Decl{Name: name, Kind: lang.Func, Test: true, NamePos: s.Pos,
				Span: lang.Span{Start: pos(sp.Start), End: pos(sp.End)}})
			lf.Skips = append(lf.Skips, s)
		}
	}
}

// skipsIn returns the skip forms in the evaluated code of test form f and its parachute
// :skip option.
func skipsIn(f *reader.Form, src []byte) []lang.Skip {
	var out []lang.Skip
	for i, it := range f.Items[2:] {
		if it.IsKeyword("SKIP") && f.Items[0].Name == "DEFINE-TEST" && i+3 < len(f.Items) {
			out = append(out, lang.Skip{Pos: pos(it.Span.Start), Text: firstLine(src, it.Span.Start.Offset, f.Items[i+3].Span.End.Offset)})
		}
	}
	var walk func(*reader.Form)
	walk = func(x *reader.Form) {
		if x.Kind != reader.List || len(x.Items) == 0 {
			return // quoted and backquoted data are other kinds
		}
		if h := x.Items[0]; h.Kind == reader.Symbol && h.Package != reader.Keyword && skipOps[h.Name] {
			out = append(out, lang.Skip{Pos: pos(x.Span.Start), Text: firstLine(src, x.Span.Start.Offset, x.Span.End.Offset)})
			return
		}
		for _, it := range x.Items {
			walk(it)
		}
	}
	for _, it := range f.Items[2:] {
		walk(it)
	}
	return out
}

// excludedTest reports a test definition in a span a feature expression excluded, at the
// feature expression when it is on the form's line, and the test's name.
func excludedTest(sp reader.Span, src []byte) (lang.Skip, string, bool) {
	if sp.Start.Offset < 0 || sp.End.Offset > len(src) || sp.Start.Offset >= sp.End.Offset {
		return lang.Skip{}, "", false
	}
	rf := reader.Read(src[sp.Start.Offset:sp.End.Offset], reader.Options{})
	if len(rf.Forms) != 1 {
		return lang.Skip{}, "", false
	}
	name, at := testName(rf.Forms[0])
	if at == nil {
		return lang.Skip{}, "", false
	}
	// The feature expression is on the form's line or, alone, on the line before.
	start, line := sp.Start.Offset, sp.Start.Line
	before := bytes.TrimRight(src[:start], " \t\r\n")
	ls := bytes.LastIndexByte(before, '\n') + 1
	if i := max(bytes.LastIndex(before[ls:], []byte("#+")), bytes.LastIndex(before[ls:], []byte("#-"))); i >= 0 {
		start = ls + i
		line -= bytes.Count(src[start:sp.Start.Offset], []byte("\n"))
	} else {
		ls = bytes.LastIndexByte(src[:start], '\n') + 1
	}
	text := strings.Join(strings.Fields(string(src[start:sp.Start.Offset+at.Span.End.Offset])), " ")
	return lang.Skip{Pos: lang.Pos{Line: line, Column: start - ls + 1}, Text: text + " …"}, name, true
}

// firstLine is the source from start to end, cut at the first line end (with " …").
func firstLine(src []byte, start, end int) string {
	s := string(src[start:min(end, len(src))])
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " …"
	}
	return s
}
