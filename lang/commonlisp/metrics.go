package commonlisp

import (
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// Complexity on Lisp forms (design.md §4). Quoted data is data and is never counted.
//
//   - Lines: the lines of the defining form after its first that hold code: not blank, not
//     only a ';' comment, not inside a '#|…|#' comment (P16).
//   - Nesting: the deepest nesting of control forms (nesters below), the defining form's
//     body at depth 0 (P17).
//   - Cyclomatic: 1, plus 1 for each if, when, unless; for each clause of cond and of the
//     case and typecase families (otherwise/t clauses included, as each is a path); for each
//     handler-case and restart-case clause after the protected form; for each argument
//     after the first of and/or; for each iteration form (loop, do, do*, dolist, dotimes,
//     as gocyclo counts for and range) and each conditional clause keyword of a loop (if,
//     when, unless, while, until): P18, as gocyclo counts if/for/case/&&/||. So
//     (cond (a 1) (b 2) (t 3)) adds 3, (and a b c) 2, (loop for x in l when x collect x) 2.
//   - Cognitive: each decision point above costs 1 plus the nesting level it is at.

// nesters are the operators whose body is one level deeper.
var nesters = map[string]bool{
	"IF": true, "WHEN": true, "UNLESS": true, "COND": true, "CASE": true, "ECASE": true, "CCASE": true,
	"TYPECASE": true, "ETYPECASE": true, "CTYPECASE": true, "LOOP": true, "DO": true, "DO*": true,
	"DOLIST": true, "DOTIMES": true, "HANDLER-CASE": true, "HANDLER-BIND": true, "LAMBDA": true,
	"RESTART-CASE": true,
}

// clauseOps are the operators with one path per argument after the first: a clause of
// the case and typecase families or of handler-case, an operand of and/or.
var clauseOps = map[string]bool{
	"CASE": true, "ECASE": true, "CCASE": true, "TYPECASE": true, "ETYPECASE": true, "CTYPECASE": true,
	"HANDLER-CASE": true, "RESTART-CASE": true, "AND": true, "OR": true,
}

// iterations are the iteration forms other than loop: one decision each, as a Go for.
var iterations = map[string]bool{"DO": true, "DO*": true, "DOLIST": true, "DOTIMES": true}

// loopConditionals are the loop keywords that branch.
var loopConditionals = map[string]bool{"IF": true, "WHEN": true, "UNLESS": true, "WHILE": true, "UNTIL": true}

// branches returns how many decision points form f adds (0 for other forms).
func branches(f *reader.Form) int {
	head := f.Items[0]
	if head.Kind != reader.Symbol || head.Package != "" && head.Package != "COMMON-LISP" && head.Package != "CL" {
		return 0
	}
	n := len(f.Items) - 1
	switch {
	case head.Name == "IF" || head.Name == "WHEN" || head.Name == "UNLESS":
		return 1
	case head.Name == "COND":
		return n
	case clauseOps[head.Name]:
		return max(n-1, 0)
	case iterations[head.Name]:
		return 1
	case head.Name == "LOOP":
		k := 1
		for _, it := range f.Items[1:] {
			if it.Kind == reader.Symbol && loopConditionals[it.Name] {
				k++
			}
		}
		return k
	}
	return 0
}

type counter struct {
	nesting, cyclomatic, cognitive int
}

// walk visits f at nesting depth.
func (c *counter) walk(f *reader.Form, depth int) {
	if f == nil || f.Kind != reader.List || len(f.Items) == 0 {
		return // atoms; quoted and backquoted data are other kinds and are not entered
	}
	b := branches(f)
	c.cyclomatic += b
	c.cognitive += b * (1 + depth)
	inner := depth
	if h := f.Items[0]; h.Kind == reader.Symbol && nesters[h.Name] {
		inner = depth + 1
		c.nesting = max(c.nesting, inner)
	}
	for _, it := range f.Items[1:] {
		c.walk(it, inner)
	}
	for _, it := range f.Items[:1] {
		if it.Kind == reader.List {
			c.walk(it, inner) // ((lambda …) …)
		}
	}
}

// metrics measures a defining form: its body is everything after the name and lambda
// list.
func metrics(form *reader.Form, rf *reader.File, src []byte) *lang.Metrics {
	return metricsFrom(form, 3, rf, src)
}

// metricsFrom measures a form whose body starts at its item body (2 for a test: the
// operator and the name).
func metricsFrom(form *reader.Form, body int, rf *reader.File, src []byte) *lang.Metrics {
	c := &counter{cyclomatic: 1}
	for _, it := range form.Items[min(body, len(form.Items)):] {
		c.walk(it, 0)
	}
	return &lang.Metrics{Lines: codeLines(form.Span, rf, src), Nesting: c.nesting, Cyclomatic: c.cyclomatic, Cognitive: c.cognitive}
}

// codeLines counts the lines after the first of span that hold code.
func codeLines(span reader.Span, rf *reader.File, src []byte) int {
	inBlock := map[int]bool{}
	for _, c := range rf.Comments {
		if c.Block {
			for l := c.Span.Start.Line; l <= c.Span.End.Line; l++ {
				inBlock[l] = true
			}
		}
	}
	n := 0
	for l := span.Start.Line + 1; l <= span.End.Line && l <= len(rf.Lines); l++ {
		start := rf.Lines[l-1]
		end := len(src)
		if l < len(rf.Lines) {
			end = rf.Lines[l]
		}
		t := strings.TrimSpace(string(src[start:end]))
		if t != "" && !strings.HasPrefix(t, ";") && !inBlock[l] {
			n++
		}
	}
	return n
}
