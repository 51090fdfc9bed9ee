package lambdalist

import (
	"strings"
	"testing"

	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

func parse(t *testing.T, src string, mode Mode) (*List, error) {
	t.Helper()
	f := reader.Read([]byte(src), reader.Options{})
	if len(f.Errors) > 0 || len(f.Forms) != 1 {
		t.Fatalf("reading %q: %v", src, f.Errors)
	}
	return Parse(f.Forms[0], mode)
}

func TestParse(t *testing.T) {
	tests := []struct {
		src      string
		mode     Mode
		want     string
		min, max int
	}{
		{"nil", Ordinary, "()", 0, 0},
		{"()", Ordinary, "()", 0, 0},
		{"(a b)", Ordinary, "(a b)", 2, 2},
		{"(a &optional (b 1 b-p) c)", Ordinary, "(a &optional b c)", 1, 3},
		{"(a &rest r)", Ordinary, "(a &rest r)", 1, -1},
		{"(&key a (b 2) ((:cee c) 3 c-p) &allow-other-keys)", Ordinary, "(&key a b ((:cee c)) &allow-other-keys)", 0, -1},
		{"(x &key)", Ordinary, "(x &key)", 1, -1},
		{"(x &aux (y 1) z)", Ordinary, "(x)", 1, 1},
		{"(&whole w (a b) &body body &environment env)", Macro, "((a b) &body body)", 1, -1},
		{"(a . rest)", Macro, "(a &rest rest)", 1, -1},
		{"((x integer) (y (eql :z)) &optional o)", Specialized, "(x y &optional o)", 2, 3},
		{"(a &optional b &key c)", Generic, "(a &optional b &key c)", 1, -1},
		{"(string &key (start 0) end)", Ordinary, "(string &key start end)", 1, -1},
	}
	for _, tt := range tests {
		l, err := parse(t, tt.src, tt.mode)
		if err != nil {
			t.Errorf("Parse(%s): %v", tt.src, err)
			continue
		}
		if l.String() != tt.want || l.Min() != tt.min || l.Max() != tt.max {
			t.Errorf("Parse(%s) = %s min %d max %d, want %s min %d max %d", tt.src, l, l.Min(), l.Max(), tt.want, tt.min, tt.max)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		src  string
		mode Mode
		msg  string
	}{
		{"x", Ordinary, "not a list"},
		{"(&rest)", Ordinary, "ends without"},
		{"(&rest a b)", Ordinary, "more than one variable after &rest"},
		{"(&key a &optional b)", Ordinary, "out of order"},
		{"(&whole w)", Ordinary, "not allowed"},
		{"(a &whole w)", Macro, "not allowed"},
		{"(&allow-other-keys)", Ordinary, "&allow-other-keys"},
		{"(:k)", Ordinary, "not a variable"},
		{"((a b))", Ordinary, "not a variable"},
		{"(a . b)", Ordinary, "dotted"},
		{"(&optional (a 1 b c))", Ordinary, "not (variable"},
		{"(&key ((a) b))", Ordinary, "not ((keyword variable)"},
		{"((x y z))", Specialized, "not (variable specializer)"},
		{"(&rest x &optional y)", Ordinary, "out of order"},
	}
	for _, tt := range tests {
		_, err := parse(t, tt.src, tt.mode)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Parse(%s) error %v, want …%s…", tt.src, err, tt.msg)
		}
	}
}

func TestAccepts(t *testing.T) {
	tests := []struct {
		src  string
		n    int
		want bool
	}{
		{"(a b)", 1, false}, {"(a b)", 2, true}, {"(a b)", 3, false},
		{"(a &optional b)", 2, true}, {"(a &optional b)", 3, false},
		{"(a &rest r)", 9, true},
		{"(a &key k)", 2, false}, {"(a &key k)", 3, true}, {"(a &key k)", 1, true},
		{"(a &rest r &key k)", 2, true},
	}
	for _, tt := range tests {
		l, err := parse(t, tt.src, Ordinary)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.Accepts(tt.n); got != tt.want {
			t.Errorf("%s accepts %d arguments: %v, want %v", tt.src, tt.n, got, tt.want)
		}
	}
}

func TestHasKeyword(t *testing.T) {
	l, _ := parse(t, "(&key test ((:key k)))", Ordinary)
	if !l.HasKeyword("TEST") || !l.HasKeyword("KEY") || l.HasKeyword("K") || l.HasKeyword("START") {
		t.Errorf("keywords of %s wrong: %+v", l, l.Key)
	}
	l, _ = parse(t, "(&key a &allow-other-keys)", Ordinary)
	if !l.HasKeyword("ANYTHING") {
		t.Error("&allow-other-keys accepts any keyword")
	}
}

func TestParamDetails(t *testing.T) {
	l, err := parse(t, "(a &optional (b 10 b-p) &key ((:x xv) 'd))", Ordinary)
	if err != nil {
		t.Fatal(err)
	}
	b := l.Optional[0]
	if b.Name != "B" || b.Default.String() != "10" || b.Supplied != "B-P" {
		t.Errorf("optional b = %+v", b)
	}
	x := l.Key[0]
	if x.Name != "XV" || x.Keyword != "X" || x.Default.String() != "'D" || x.Form.Span.Start.Column != 30 {
		t.Errorf("key x = %+v", x)
	}
}
