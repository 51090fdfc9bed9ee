package commonlisp

import "testing"

// TestCountingRules: each decision form of the documented counting adds what metrics.go
// says to cyclomatic complexity (P18) and control forms nest (P17).
func TestCountingRules(t *testing.T) {
	for _, c := range []struct {
		body           string
		cyclo, nesting int
	}{
		{"(+ 1 2)", 1, 0},
		{"(if a b c)", 2, 1},
		{"(when a b)", 2, 1},
		{"(unless a b)", 2, 1},
		{"(cond (a 1) (b 2) (t 3))", 4, 1},
		{"(case x (1 :a) (2 :b) (otherwise :c))", 4, 1},
		{"(ecase x (1 :a) (2 :b))", 3, 1},
		{"(typecase x (integer 1) (string 2))", 3, 1},
		{"(and a b c)", 3, 0},
		{"(or a b)", 2, 0},
		{"(loop for x in l collect x)", 2, 1},
		{"(loop for x in l when x collect x while x)", 4, 1},
		{"(dolist (x l) (print x))", 2, 1},
		{"(dotimes (i 3) (print i))", 2, 1},
		{"(handler-case (f) (error () 1) (warning () 2))", 3, 1},
		{"(when a (if b (cond (c 1))))", 4, 3},
		{"'(if a (if b c))", 1, 0},
		{"(list `(if ,a b))", 1, 0},
	} {
		f := parse(t, "(defun f (a b c x l)\n  "+c.body+")\n")
		m := f.Decls[0].Metrics
		if m == nil || m.Cyclomatic != c.cyclo || m.Nesting != c.nesting {
			t.Errorf("%s: %+v, want cyclomatic %d nesting %d", c.body, m, c.cyclo, c.nesting)
		}
	}
}
