package reader

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// printAll reads src and prints its forms one per line.
func printAll(t *testing.T, src string) (string, *File) {
	t.Helper()
	f := Read([]byte(src), Options{})
	var out []string
	for _, x := range f.Forms {
		out = append(out, x.String())
	}
	return strings.Join(out, "\n"), f
}

func TestReadForms(t *testing.T) {
	tests := []struct{ src, want string }{
		{"(a b c)", "(A B C)"},
		{"(a . b)", "(A . B)"},
		{"(a b . (c d))", "(A B . (C D))"},
		{"()", "()"},
		{`"a \"q\" \\ b"`, `"a \"q\" \\ b"`},
		{`#\a #\Space #\( #\) #\; #\\ #\"`, "#\\a\n#\\Space\n#\\(\n#\\)\n#\\;\n#\\\\\n#\\\""},
		{"1 -2 +3 4. 1/2 -3/4", "1\n-2\n+3\n4.\n1/2\n-3/4"},
		{"1.5 .5 -.5 1e10 1.0d0 2f-3 1.e5 6.02S23 1L0", "1.5\n.5\n-.5\n1e10\n1.0d0\n2f-3\n1.e5\n6.02S23\n1L0"},
		{"#xFF #b101 #o17 #36rZZ #x-1/2", "#XFF\n#B101\n#O17\n#36RZZ\n#X-1/2"},
		{"1+ - + 1- a.b 1/ /2 1e", "1+\n-\n+\n1-\nA.B\n1/\n/2\n1E"},
		{"'a `(a ,b ,@c ,.d) #'car", "'A\n`(A ,B ,@C ,.D)\n#'CAR"},
		{"#(1 2) #*1010 #* #:foo #.(+ 1 2)", "#(1 2)\n#*1010\n#*\n#:FOO\n#.(+ 1 2)"},
		{`#p"/tmp/x" #P"y"`, "#P\"/tmp/x\"\n#P\"y\""},
		{"#2A((1 2) (3 4)) #C(1 2) #S(point :x 1)", "#2A((1 2) (3 4))\n#C(1 2)\n#S(POINT :X 1)"},
		{"#1=(a . #1#)", "#1=(A . #1#)"},
		{"foo:bar foo::bar :key ::key cl-user::|lower case|", "FOO:BAR\nFOO::BAR\n:KEY\n:KEY\nCL-USER::|lower case|"},
		{`|Hello World| a\bc \1 |a|b|c| ab\:c`, "|Hello World|\n|AbC|\n|1|\n|aBc|\n|AB:C|"},
		{"CamelCase éclair", "CAMELCASE\nÉCLAIR"},
		{"a ; comment (b\n#| block #| nested |# (c) |# d", "A\nD"},
		{"#+sbcl a #-sbcl b #+(or ccl ecl) c #+(and unix (not windows)) d", "A\nD"},
		{"(a #+nil b c) #+nil (x:y z::w #z) e", "(A C)\nE"},
		{"#+nil #z 1 2", "2"},
		{"#+nil #+nil a b c", "C"},
		{"#-(or) kept #+(:and) kept2 #+(:or) dropped", "KEPT\nKEPT2"},
		{"`(,@(list 1) `(,,x))", "`(,@(LIST 1) `(,,X))"},
		{"(a\n  (b\n   c))", "(A (B C))"},
		{"\xEF\xBB\xBF(a)", "(A)"},
	}
	for _, tt := range tests {
		got, f := printAll(t, tt.src)
		if len(f.Errors) > 0 {
			t.Errorf("Read(%q): errors %v", tt.src, f.Errors)
		}
		if got != tt.want {
			t.Errorf("Read(%q):\n got %q\nwant %q", tt.src, got, tt.want)
		}
	}
}

func TestReadKinds(t *testing.T) {
	tests := []struct {
		src  string
		kind Kind
	}{
		{"12", Integer}, {"12.", Integer}, {"1/3", Ratio}, {"1.5e3", Float}, {".5", Float},
		{"#x1F", Integer}, {"#b1/10", Ratio}, {"abc", Symbol}, {`"s"`, String}, {`#\x`, Char},
		{"#(1)", Vector}, {"#*01", BitVector}, {"#0A1", Array}, {"#C(0 1)", Complex},
		{"#S(s)", Struct}, {`#p"p"`, Pathname}, {"'x", Quote}, {"#'f", Function},
		{"`x", Backquote}, {"#.x", ReadEval}, {"#1=x", Label}, {"(a)", List},
	}
	for _, tt := range tests {
		f := Read([]byte(tt.src), Options{})
		if len(f.Forms) != 1 || f.Forms[0].Kind != tt.kind {
			t.Errorf("Read(%q) = %v (errors %v), want one %v", tt.src, f.Forms, f.Errors, tt.kind)
		}
	}
}

func TestSymbolParts(t *testing.T) {
	tests := []struct {
		src, pkg, name string
		internal       bool
	}{
		{"foo", "", "FOO", false},
		{"alexandria:flatten", "ALEXANDRIA", "FLATTEN", false},
		{"sb-impl::%foo", "SB-IMPL", "%FOO", true},
		{":test", Keyword, "TEST", false},
		{"|pkg|:|Sym|", "pkg", "Sym", false},
		{`a\:b`, "", "A:B", false},
	}
	for _, tt := range tests {
		f := Read([]byte(tt.src), Options{})
		if len(f.Forms) != 1 {
			t.Fatalf("Read(%q): %v %v", tt.src, f.Forms, f.Errors)
		}
		s := f.Forms[0]
		if s.Kind != Symbol || s.Package != tt.pkg || s.Name != tt.name || s.Internal != tt.internal {
			t.Errorf("Read(%q) = %+v, want package %q name %q internal %v", tt.src, s, tt.pkg, tt.name, tt.internal)
		}
	}
}

func TestPositions(t *testing.T) {
	src := "(defun f (x)\n  \"doc\" ; c\n  (car x))\n\n#\\a 'é-x"
	f := Read([]byte(src), Options{})
	if len(f.Errors) != 0 || len(f.Forms) != 3 {
		t.Fatalf("forms %v errors %v", f.Forms, f.Errors)
	}
	def := f.Forms[0]
	checks := []struct {
		what       string
		got        Span
		start, end Pos
	}{
		{"defun form", def.Span, Pos{0, 1, 1}, Pos{35, 3, 11}},
		{"defun symbol", def.Items[0].Span, Pos{1, 1, 2}, Pos{6, 1, 7}},
		{"lambda list", def.Items[2].Span, Pos{9, 1, 10}, Pos{12, 1, 13}},
		{"docstring", def.Items[3].Span, Pos{15, 2, 3}, Pos{20, 2, 8}},
		{"x in (car x)", def.Items[4].Items[1].Span, Pos{32, 3, 8}, Pos{33, 3, 9}},
		{"character", f.Forms[1].Span, Pos{37, 5, 1}, Pos{40, 5, 4}},
		{"quoted symbol after é", f.Forms[2].Items[0].Span, Pos{42, 5, 6}, Pos{46, 5, 10}},
	}
	for _, c := range checks {
		if c.got.Start != c.start || c.got.End != c.end {
			t.Errorf("%s: span %+v, want %+v–%+v", c.what, c.got, c.start, c.end)
		}
	}
	if len(f.Comments) != 1 || f.Comments[0].Text != "; c" || f.Comments[0].Span.Start != (Pos{21, 2, 9}) {
		t.Errorf("comments %+v, want \"; c\" at 2:9", f.Comments)
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		msg       string
		forms     string // what was still read
	}{
		{"(defun f ()\n  (car x)\n(defun g () 1)", 1, 1, "unbalanced '('", "(DEFUN G () 1)"},
		{"a)\nb", 1, 2, "unmatched ')'", "A\nB"},
		{"(a #z b)\n(c)", 1, 4, "unknown dispatch macro character #z", "(C)"},
		{"x \"abc\n(d)", 1, 3, "end of file in a string", "X\n(D)"},
		{"(a . )", 1, 6, "')' where a form after '.'", ""},
		{"(. a)", 1, 2, "'.' not after a list element", ""},
		{"(a . b c)", 1, 4, "more than one form after '.'", ""},
		{"#(a . b)", 1, 5, "'.' inside a vector", ""},
		{"a . b", 1, 3, "'.' outside a list", "A\nB"},
		{"..", 1, 1, "dots alone", ""},
		{"a:b:c d", 1, 1, "too many package markers", ""},
		{"foo: x", 1, 1, "no symbol name", ""},
		{",a", 1, 1, "comma not inside a backquote", ""},
		{"'", 1, 1, "no form after '", ""},
		{"(a ')", 1, 5, "')' where a form after '", ""},
		{"#| open", 1, 1, "end of file in a #|", ""},
		{"|abc", 1, 1, "|…| escape", ""},
		{"#+(foo :x) a", 1, 4, "unknown operator in a feature expression", ""},
		{"#+sbcl", 1, 1, "no form after #+ feature expression", ""},
		{"#1#", 1, 1, "refers to no #1= label", ""},
		{"#xZZ", 1, 1, "not a rational in base 16", ""},
		{"#r1", 1, 1, "#R needs a radix", ""},
		{"#*102", 1, 1, "#* followed by", ""},
		{"#:a:b", 1, 1, "package marker in the uninterned", ""},
		{"#<foo>", 1, 1, "unknown dispatch macro character #<", ""},
		{"#", 1, 1, "end of file after '#'", ""},
		{`#\`, 1, 1, `end of file after #\`, ""},
		{"#C(1)", 1, 1, "#C needs", ""},
		{"#S(1)", 1, 1, "#S needs", ""},
		{"#P1", 1, 1, "#P needs a string", ""},
		{"#=a", 1, 1, "#= needs a label number", ""},
		{"(a\n b\n\n  (c d e)) (x\n", 4, 12, "unbalanced '('", "(A B (C D E))"},
	}
	for _, tt := range tests {
		got, f := printAll(t, tt.src)
		if len(f.Errors) == 0 {
			t.Errorf("Read(%q): no error, want %q", tt.src, tt.msg)
			continue
		}
		e := f.Errors[0]
		if e.Pos.Line != tt.line || e.Pos.Column != tt.col || !strings.Contains(e.Msg, tt.msg) {
			t.Errorf("Read(%q): error %v, want %d:%d: …%s…", tt.src, e.Error(), tt.line, tt.col, tt.msg)
		}
		if got != tt.forms {
			t.Errorf("Read(%q): recovered forms %q, want %q", tt.src, got, tt.forms)
		}
	}
}

func TestRecoveryKeepsLaterForms(t *testing.T) {
	src := "(defun a () 1)\n(defun b () (x #<y>))\n(defun c () \"unterminated)\n(defun d () 4)\n"
	got, f := printAll(t, src)
	if len(f.Errors) != 2 {
		t.Errorf("errors %v, want 2", f.Errors)
	}
	// c's string runs into d's line, so d is read again from its '(' at column 1.
	want := "(DEFUN A () 1)\n(DEFUN D () 4)"
	if got != want {
		t.Errorf("forms %q, want %q", got, want)
	}
}

func TestRecoveryReportsAnErrorOnce(t *testing.T) {
	src := "(defun f ()\n(bad #z))\n(defun g () 1)\n"
	got, f := printAll(t, src)
	if len(f.Errors) != 1 || f.Errors[0].Pos.Line != 2 {
		t.Errorf("errors %v, want one at line 2", f.Errors)
	}
	if got != "(DEFUN G () 1)" {
		t.Errorf("forms %q", got)
	}
}

// TestRecoveryIsLinear: thousands of unclosed lines would make re-reading after each
// error quadratic (minutes); the re-read budget keeps it linear.
func TestRecoveryIsLinear(t *testing.T) {
	for _, line := range []string{"(a\n", "(\"\n", "(#|\n", "(|\n", "(a:b:c\n"} {
		src := strings.Repeat(line, 20000)
		start := time.Now()
		f := Read([]byte(src), Options{})
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("reading %q × 20000 took %v", line, d)
		}
		if len(f.Errors) == 0 {
			t.Errorf("no error for %q × 20000", line)
		}
	}
	long := "|" + strings.Repeat(":", 200000) + "|"
	start := time.Now()
	if f := Read([]byte(long), Options{}); len(f.Errors) != 0 || len(f.Forms) != 1 || time.Since(start) > 20*time.Second {
		t.Errorf("a symbol of 200000 escaped colons: %v after %v", f.Errors, time.Since(start))
	}
}

func TestCustomFeatures(t *testing.T) {
	f := Read([]byte("#+ccl a #+sbcl b #-ccl c #+(or ccl sbcl) d"), Options{Features: []string{"CCL"}})
	var got []string
	for _, x := range f.Forms {
		got = append(got, x.String())
	}
	if strings.Join(got, " ") != "A D" {
		t.Errorf("with CCL: %v, want A D", got)
	}
	if len(f.Skipped) != 2 || f.Skipped[0].Start.Column != 16 {
		t.Errorf("skipped %+v, want b at column 16 and c", f.Skipped)
	}
}

func TestComments(t *testing.T) {
	src := ";;; header\n(a) ; trailing\n#|\nblock |#\n(b \"; not a comment\")"
	f := Read([]byte(src), Options{})
	var got []string
	for _, c := range f.Comments {
		got = append(got, c.Text)
	}
	want := []string{";;; header", "; trailing", "#|\nblock |#"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("comments %q, want %q", got, want)
	}
	if !f.Comments[2].Block || f.Comments[2].Span.End.Line != 4 {
		t.Errorf("block comment %+v, want Block ending on line 4", f.Comments[2])
	}
}

func TestDeepNestingIsAnError(t *testing.T) {
	src := strings.Repeat("(", maxDepth+5) + strings.Repeat(")", maxDepth+5)
	f := Read([]byte(src), Options{})
	if len(f.Errors) == 0 || !strings.Contains(f.Errors[0].Msg, "nested too deeply") {
		t.Errorf("errors %v, want nested too deeply", f.Errors)
	}
}

const alexandriaDir = "/usr/share/common-lisp/source/alexandria"

func alexandriaFiles(tb testing.TB) []string {
	tb.Helper()
	var files []string
	_ = filepath.WalkDir(alexandriaDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && (strings.HasSuffix(p, ".lisp") || strings.HasSuffix(p, ".asd")) {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		tb.Skip("cl-alexandria is not installed: apt-get install -y cl-alexandria")
	}
	return files
}

// TestAlexandria reads every file of Debian's cl-alexandria without a syntax error.
func TestAlexandria(t *testing.T) {
	for _, p := range alexandriaFiles(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := Read(src, Options{})
		for _, e := range f.Errors {
			t.Errorf("%s:%s", p, e.Error())
		}
		if len(f.Forms) == 0 {
			t.Errorf("%s: no forms", p)
		}
	}
}

// BenchmarkReadAlexandria reads all of alexandria per iteration.
func BenchmarkReadAlexandria(b *testing.B) {
	var srcs [][]byte
	size := 0
	for _, p := range alexandriaFiles(b) {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		size += len(src)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			Read(src, Options{})
		}
	}
}

// TestNestedConditionals reads a feature expression inside a form that an outer #+/#-
// excludes as SBCL does, with *read-suppress* off, so (or …) there is still an operator
// (closer-mop's #-(or abcl sbcl) (progn … #-(or allegro lispworks) …)).
func TestNestedConditionals(t *testing.T) {
	for _, src := range []string{
		"#-sbcl (progn #-(or allegro lispworks) (f))\n(g)",
		"#+ccl (a #+(and unix (not darwin)) b #-(or) c)\n(g)",
		"#+nil `(,@x #-(or sunos darwin) \"-Wl\")\n(g)",
	} {
		f := Read([]byte(src), Options{})
		if len(f.Errors) != 0 {
			t.Errorf("%q: errors %v, want none", src, f.Errors)
		}
		if len(f.Forms) != 1 || f.Forms[0].String() != "(G)" {
			t.Errorf("%q: forms %v, want only (G)", src, f.Forms)
		}
		if len(f.Skipped) != 1 {
			t.Errorf("%q: skipped %+v, want the outer form only", src, f.Skipped)
		}
	}
}
