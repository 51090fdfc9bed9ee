package extract

import (
	"testing"

	"github.com/agentverify/agentverify/lang"
)

func TestMetrics(t *testing.T) {
	tests := []struct {
		name, src string
		want      lang.Metrics
	}{
		{"one-line body", "def f(): return 1\n", lang.Metrics{Cyclomatic: 1}},
		{"docstring, comments and blank lines are not counted", `
def f(a,
      b):
    """Doc
    string."""
    # comment

    x = """a
b"""
    return x
`, lang.Metrics{Lines: 3, Cyclomatic: 1}},
		{"elif chain is one level; boolean operators are no decision to mccabe", `
def f(x):
    if x and y or z:
        pass
    elif x:
        pass
    elif y:
        pass
    else:
        pass
`, lang.Metrics{Lines: 8, Nesting: 1, Cyclomatic: 4, Cognitive: 1 + 1 + 1 + 1 + 2}},
		{"loops, try and with nest", `
def f(xs):
    for x in xs:
        while x:
            with open(x) as fh:
                try:
                    pass
                except A:
                    pass
                except B:
                    pass
                else:
                    pass
                finally:
                    if x:
                        pass
`, lang.Metrics{Lines: 14, Nesting: 5, Cyclomatic: 1 + 1 + 1 + 3, Cognitive: 1 + 2 + 3 + 3 + 1 + 3}},
		{"closures count toward the function, with their decisions", `
def f():
    def g():
        if a:
            return lambda: 1
    class K:
        def m(self):
            pass
`, lang.Metrics{Lines: 6, Nesting: 4, Cyclomatic: 4, Cognitive: 2}},
		{"match and try/except* are simple statements to mccabe", `
def f(x):
    match x:
        case 1:
            pass
        case _:
            pass
    try:
        pass
    except* E:
        pass
`, lang.Metrics{Lines: 9, Nesting: 1, Cyclomatic: 1, Cognitive: 2}},
		{"recursion and conditional expressions", `
def fact(n):
    return 1 if n < 2 else n * fact(n - 1)
`, lang.Metrics{Lines: 1, Cyclomatic: 1, Cognitive: 2}},
		{"async loops count like loops", `
async def f(xs):
    async for x in xs:
        async with x:
            pass
`, lang.Metrics{Lines: 3, Nesting: 2, Cyclomatic: 2, Cognitive: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lf := parseT(t, "m.py", tt.src)
			if len(lf.SyntaxErrors) > 0 {
				t.Fatalf("syntax errors: %v", lf.SyntaxErrors)
			}
			if len(lf.Decls) == 0 || lf.Decls[0].Metrics == nil {
				t.Fatalf("no function: %+v", lf.Decls)
			}
			if got := *lf.Decls[0].Metrics; got != tt.want {
				t.Errorf("metrics = %+v, want %+v", got, tt.want)
			}
		})
	}
}
