package python

import (
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang"
)

// FuzzParse: no input makes Parse fail, panic or report a position outside the file,
// and every comment it reports is a real '#' comment.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "def f(:\n", "class C:\n  def m(self): pass\n", "x = '''\n", "if x:\n\tpass\n  pass\n",
		"async def f[T](*, a=1, **k) -> T:\n    match a:\n        case [1, *r]: pass\n",
		"print 'x'\n", "\x00\xff\xfe", "lambda: (yield)", "@d\n", "f'{x:{y}}'\n# c\r\n",
	} {
		f.Add([]byte(s))
	}
	fe := New()
	f.Fuzz(func(t *testing.T, src []byte) {
		lf, err := fe.Parse("fuzz.py", src)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		lines := strings.Count(string(src), "\n") + 1
		check := func(what string, p lang.Pos) {
			if p.Line < 1 || p.Line > lines || p.Column < 1 {
				t.Fatalf("%s at %d:%d, outside a %d-line file", what, p.Line, p.Column, lines)
			}
		}
		for _, e := range lf.SyntaxErrors {
			check("syntax error", e.Pos)
		}
		for _, c := range lf.Comments {
			check("comment", c.Pos)
			if !strings.HasPrefix(c.Text, "#") {
				t.Fatalf("comment %q does not start with #", c.Text)
			}
		}
		for _, d := range lf.Decls {
			check("declaration "+d.Name, d.NamePos)
			if d.Metrics != nil && (d.Metrics.Cyclomatic < 1 || d.Metrics.Lines < 0) {
				t.Fatalf("%s: metrics %+v", d.Name, *d.Metrics)
			}
		}
		for _, id := range lf.Idents {
			check("identifier "+id.Name, id.Pos)
		}
	})
}
