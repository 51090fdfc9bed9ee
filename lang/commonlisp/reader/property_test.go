package reader

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// checkSpans asserts the invariants of every span in f: inside the source, non-empty,
// line and column agreeing with the offset, children inside their parent and siblings
// in order.
func checkSpans(t fataler, src []byte, f *File) {
	t.Helper()
	prev := 0
	for _, x := range f.Forms {
		if x.Span.Start.Offset < prev {
			t.Fatalf("top-level form %s starts at %d before the previous one ends at %d", x, x.Span.Start.Offset, prev)
		}
		checkForm(t, src, x)
		prev = x.Span.End.Offset
	}
	for _, c := range f.Comments {
		checkPos(t, src, c.Span.Start)
		checkPos(t, src, c.Span.End)
		if got := string(src[c.Span.Start.Offset:c.Span.End.Offset]); got != c.Text {
			t.Fatalf("comment text %q, source at its span %q", c.Text, got)
		}
	}
	for _, e := range f.Errors {
		checkPos(t, src, e.Pos)
	}
}

func checkForm(t fataler, src []byte, x *Form) {
	t.Helper()
	checkPos(t, src, x.Span.Start)
	checkPos(t, src, x.Span.End)
	if x.Span.Start.Offset >= x.Span.End.Offset {
		t.Fatalf("form %s has an empty span %+v", x, x.Span)
	}
	prev := x.Span.Start.Offset
	kids := x.Items
	if x.Tail != nil {
		kids = append(kids[:len(kids):len(kids)], x.Tail)
	}
	for _, k := range kids {
		if k.Span.Start.Offset < prev || k.Span.End.Offset > x.Span.End.Offset {
			t.Fatalf("child %s at %+v is not inside %s at %+v after offset %d", k, k.Span, x, x.Span, prev)
		}
		checkForm(t, src, k)
		prev = k.Span.End.Offset
	}
}

// checkPos recomputes line and column from the offset by counting.
func checkPos(t fataler, src []byte, p Pos) {
	t.Helper()
	if p.Offset < 0 || p.Offset > len(src) {
		t.Fatalf("offset %d outside the source of %d bytes", p.Offset, len(src))
	}
	line := bytes.Count(src[:p.Offset], []byte{'\n'}) + 1
	col := p.Offset - (bytes.LastIndexByte(src[:p.Offset], '\n') + 1) + 1
	if p.Line != line || p.Column != col {
		t.Fatalf("position %+v, counting gives line %d column %d", p, line, col)
	}
}

// checkReread asserts that each top-level form's source text reads back alone to the
// same form, and that the printed form reads back to itself.
func checkReread(t fataler, src []byte, f *File) {
	t.Helper()
	for _, x := range f.Forms {
		text := src[x.Span.Start.Offset:x.Span.End.Offset]
		again := Read(text, Options{})
		if len(again.Errors) > 0 || len(again.Forms) != 1 || again.Forms[0].String() != x.String() {
			t.Fatalf("the text %q of form %s reads as %v with errors %v", text, x, again.Forms, again.Errors)
		}
		printed := x.String()
		back := Read([]byte(printed), Options{})
		if len(back.Errors) > 0 || len(back.Forms) != 1 || back.Forms[0].String() != printed {
			t.Fatalf("printed %q reads back as %v with errors %v", printed, back.Forms, back.Errors)
		}
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"(defun f (x &optional (y 1)) \"doc\" (+ x y))", "#+sbcl (a . b) #-sbcl c",
		"`(a ,b ,@c)", `#\Space #\( "str\"ing" |esc aped| pkg::sym :kw`, "#x1F #b101 1/2 1.5d0",
		"#|a #|b|# c|# ; x\n(y)", "#1=(a . #1#) #(1 2) #*101 #2A((1)) #S(p :x 1) #p\"/x\"",
		"(a (b", "a)", "#z", "\"open", "#+(or) #+(or) a b c",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file := Read(src, Options{})
		checkSpans(t, src, file)
		if len(file.Errors) == 0 && utf8.Valid(src) {
			checkReread(t, src, file)
		}
	})
}

// TestPrintReadRoundTrip: a generated form, printed with arbitrary whitespace and
// comments between elements, reads back to the same structure with spans in order.
func TestPrintReadRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		forms := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) *Form { return genForm(t, 0, 0) }), 1, 4).Draw(t, "forms")
		var b strings.Builder
		for _, x := range forms {
			b.WriteString(sep(t))
			writeSpaced(t, &b, x)
		}
		src := []byte(b.String())
		file := Read(src, Options{})
		if len(file.Errors) > 0 {
			t.Fatalf("reading %q: %v", src, file.Errors)
		}
		if len(file.Forms) != len(forms) {
			t.Fatalf("reading %q: %d forms, want %d", src, len(file.Forms), len(forms))
		}
		for i, x := range forms {
			if got := file.Forms[i].String(); got != x.String() {
				t.Fatalf("reading %q: form %d is %s, want %s", src, i, got, x)
			}
		}
		checkSpans(t, src, file)
		checkReread(t, src, file)
	})
}

var nameRunes = []rune("abcxyzABC019-*+.:|\\ ()\"';#é%")

func genAtom(t *rapid.T) *Form {
	switch rapid.IntRange(0, 6).Draw(t, "atom") {
	case 0:
		return genSymbol(t)
	case 1:
		return &Form{Kind: String, Name: rapid.StringOf(rapid.RuneFrom(nameRunes)).Draw(t, "string")}
	case 2:
		return &Form{Kind: Integer, Radix: 10, Name: strconv.Itoa(rapid.Int().Draw(t, "int"))}
	case 3:
		n, d := rapid.Int().Draw(t, "num"), rapid.IntRange(1, 1000).Draw(t, "den")
		return &Form{Kind: Ratio, Radix: 10, Name: strconv.Itoa(n) + "/" + strconv.Itoa(d)}
	case 4:
		e := rapid.SampledFrom([]string{"", "e5", "d-3", "f0", "L+2"}).Draw(t, "exp")
		return &Form{Kind: Float, Name: strconv.Itoa(rapid.IntRange(-99, 99).Draw(t, "i")) + "." + strconv.Itoa(rapid.IntRange(0, 99).Draw(t, "f")) + e}
	case 5:
		return &Form{Kind: Char, Name: rapid.SampledFrom([]string{"a", "Space", "(", ")", `\`, ";", `"`, "Newline", "é", "|"}).Draw(t, "char")}
	}
	base := rapid.SampledFrom([]int{2, 8, 16, 36}).Draw(t, "base")
	return &Form{Kind: Integer, Radix: base, Name: strings.ToUpper(strconv.FormatInt(int64(rapid.Int().Draw(t, "n")), base))}
}

func genSymbol(t *rapid.T) *Form {
	s := &Form{Kind: Symbol, Name: rapid.StringOfN(rapid.RuneFrom(nameRunes), 1, 8, -1).Draw(t, "name")}
	switch rapid.IntRange(0, 4).Draw(t, "pkg") {
	case 1:
		s.Package = Keyword
	case 2:
		s.Package = rapid.SampledFrom([]string{"CL", "ALEXANDRIA", "my pkg"}).Draw(t, "package")
		s.Internal = rapid.Bool().Draw(t, "internal")
	case 3:
		s.Uninterned = true
	}
	return s
}

func genForm(t *rapid.T, depth, bq int) *Form {
	n := 2
	if depth < 4 {
		n = 7
	}
	switch rapid.IntRange(0, n).Draw(t, "form") {
	case 3:
		return &Form{Kind: List, Items: genItems(t, depth, bq, 0)}
	case 4:
		f := &Form{Kind: List, Items: genItems(t, depth, bq, 1)}
		f.Tail = genForm(t, depth+1, bq)
		return f
	case 5:
		return &Form{Kind: Vector, Items: genItems(t, depth, bq, 0)}
	case 6:
		k := rapid.SampledFrom([]Kind{Quote, Function, ReadEval}).Draw(t, "prefix")
		return &Form{Kind: k, Items: []*Form{genForm(t, depth+1, bq)}}
	case 7:
		if bq > 0 {
			k := rapid.SampledFrom([]Kind{Unquote, UnquoteSplice, UnquoteNSplice}).Draw(t, "unquote")
			return &Form{Kind: k, Items: []*Form{genForm(t, depth+1, bq-1)}}
		}
		return &Form{Kind: Backquote, Items: []*Form{genForm(t, depth+1, bq+1)}}
	}
	return genAtom(t)
}

func genItems(t *rapid.T, depth, bq, least int) []*Form {
	n := rapid.IntRange(least, 4).Draw(t, "items")
	items := make([]*Form, n)
	for i := range items {
		items[i] = genForm(t, depth+1, bq)
	}
	return items
}

func sep(t *rapid.T) string {
	return rapid.SampledFrom([]string{" ", "\n", "  \t", " ; c (\n", " #| c #| d |# |# ", "\n\n "}).Draw(t, "sep")
}

// writeSpaced prints x like Form.String but with arbitrary separators in lists.
func writeSpaced(t *rapid.T, b *strings.Builder, x *Form) {
	open := map[Kind]string{List: "(", Vector: "#("}[x.Kind]
	if open == "" {
		if p, ok := prefixes[x.Kind]; ok {
			b.WriteString(p)
			if inner := x.Items[0].String(); x.Kind == Unquote && (inner[0] == '@' || inner[0] == '.') {
				b.WriteByte(' ')
			}
			writeSpaced(t, b, x.Items[0])
			return
		}
		b.WriteString(x.String())
		return
	}
	b.WriteString(open)
	for i, it := range x.Items {
		if i > 0 {
			b.WriteString(sep(t))
		}
		writeSpaced(t, b, it)
	}
	if x.Tail != nil {
		b.WriteString(sep(t) + "." + sep(t))
		writeSpaced(t, b, x.Tail)
	}
	b.WriteString(sep(t) + ")")
}

// fataler is what the checks need of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}
