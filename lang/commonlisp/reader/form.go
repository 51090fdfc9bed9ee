package reader

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pos is a position in the source: the byte offset from 0, the line from 1 and the
// column from 1 counted in bytes, as go/token and lang.Pos count.
type Pos struct {
	Offset int
	Line   int
	Column int
}

// Span is a source range; End is the position just after its last byte.
type Span struct {
	Start Pos
	End   Pos
}

// Kind classifies a form.
type Kind uint8

// Form kinds. The reader-macro kinds (Quote through ReadEval, Label) hold the form they
// apply to in Items[0].
const (
	Invalid        Kind = iota
	List                // (a b . c): Items, Tail for a dotted list
	Symbol              // Name, Package, Internal, Uninterned
	String              // "…": Name holds the contents without escapes
	Char                // #\x: Name holds the name as written ("a", "Space", "(")
	Integer             // Name holds the digits as written, Radix the base
	Ratio               // Name as written, Radix the base
	Float               // Name as written
	Vector              // #(…): Items
	BitVector           // #*101: Name holds the bits
	Array               // #nA form: Rank, Items[0]
	Complex             // #C(r i): Items
	Struct              // #S(name slot value …): Items
	Pathname            // #P"…": Name holds the namestring
	Quote               // 'x
	Function            // #'x
	Backquote           // `x
	Unquote             // ,x
	UnquoteSplice       // ,@x
	UnquoteNSplice      // ,.x
	ReadEval            // #.x
	Label               // #n=x: Label, Items[0]
	LabelRef            // #n#: Label
)

var kindNames = [...]string{"invalid", "list", "symbol", "string", "character", "integer",
	"ratio", "float", "vector", "bit-vector", "array", "complex", "structure", "pathname",
	"quote", "function", "backquote", "unquote", "unquote-splice", "unquote-nsplice",
	"read-eval", "label", "label-reference"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Keyword is the package of keywords (":name").
const Keyword = "KEYWORD"

// Form is one datum read from the source, with its span.
type Form struct {
	Kind  Kind
	Span  Span
	Items []*Form
	// Tail is the cdr of the last cons of a dotted list, nil for a proper list.
	Tail *Form
	// Name is a symbol's name after readtable case conversion, a string's contents, a
	// character's name, a number's or bit vector's text, or a pathname's namestring.
	Name string
	// Package is a symbol's package prefix after case conversion: "" when it has none,
	// Keyword for ":name".
	Package string
	// Internal is set for "pkg::name".
	Internal bool
	// Uninterned is set for "#:name".
	Uninterned bool
	// Radix is the base of an Integer or Ratio: 10, or 2..36 for #b #o #x #nR.
	Radix int
	// Label is the number of a Label or LabelRef.
	Label int
	// Rank is the rank of an Array.
	Rank int
}

// IsSymbol reports whether f is a symbol named name in no package or in COMMON-LISP,
// which is how a defining operator such as DEFUN is written. name is upper case.
func (f *Form) IsSymbol(name string) bool {
	if f == nil || f.Kind != Symbol || f.Uninterned || f.Name != name {
		return false
	}
	return f.Package == "" || f.Package == "CL" || f.Package == "COMMON-LISP"
}

// IsKeyword reports whether f is the keyword :name (name upper case).
func (f *Form) IsKeyword(name string) bool {
	return f != nil && f.Kind == Symbol && f.Package == Keyword && f.Name == name
}

// Head returns the first element of a list form, or nil.
func (f *Form) Head() *Form {
	if f == nil || f.Kind != List || len(f.Items) == 0 {
		return nil
	}
	return f.Items[0]
}

// String prints f in a syntax the reader reads back to the same structure.
func (f *Form) String() string {
	var b strings.Builder
	f.print(&b)
	return b.String()
}

var prefixes = map[Kind]string{Quote: "'", Function: "#'", Backquote: "`", Unquote: ",",
	UnquoteSplice: ",@", UnquoteNSplice: ",.", ReadEval: "#."}

func (f *Form) print(b *strings.Builder) {
	if f == nil {
		b.WriteString("NIL")
		return
	}
	if p, ok := prefixes[f.Kind]; ok {
		f.printPrefixed(b, p)
		return
	}
	switch f.Kind {
	case List:
		printSeq(b, "(", f.Items, f.Tail)
	case Vector:
		printSeq(b, "#(", f.Items, nil)
	case Complex:
		printSeq(b, "#C(", f.Items, nil)
	case Struct:
		printSeq(b, "#S(", f.Items, nil)
	case Array:
		b.WriteString("#" + strconv.Itoa(f.Rank) + "A")
		f.Items[0].print(b)
	case Label:
		b.WriteString("#" + strconv.Itoa(f.Label) + "=")
		f.Items[0].print(b)
	default:
		f.printAtom(b)
	}
}

func (f *Form) printPrefixed(b *strings.Builder, prefix string) {
	b.WriteString(prefix)
	inner := f.Items[0].String()
	if f.Kind == Unquote && (strings.HasPrefix(inner, "@") || strings.HasPrefix(inner, ".")) {
		b.WriteByte(' ')
	}
	b.WriteString(inner)
}

func (f *Form) printAtom(b *strings.Builder) {
	switch f.Kind {
	case Symbol:
		printSymbol(b, f)
	case String:
		printString(b, f.Name)
	case Char:
		b.WriteString(`#\` + f.Name)
	case Integer, Ratio:
		b.WriteString(radixPrefix(f.Radix) + f.Name)
	case BitVector:
		b.WriteString("#*" + f.Name)
	case Pathname:
		b.WriteString("#P")
		printString(b, f.Name)
	case LabelRef:
		b.WriteString("#" + strconv.Itoa(f.Label) + "#")
	default:
		b.WriteString(f.Name)
	}
}

func radixPrefix(radix int) string {
	switch radix {
	case 0, 10:
		return ""
	case 2:
		return "#B"
	case 8:
		return "#O"
	case 16:
		return "#X"
	}
	return "#" + strconv.Itoa(radix) + "R"
}

func printSeq(b *strings.Builder, open string, items []*Form, tail *Form) {
	b.WriteString(open)
	for i, it := range items {
		if i > 0 {
			b.WriteByte(' ')
		}
		it.print(b)
	}
	if tail != nil {
		b.WriteString(" . ")
		tail.print(b)
	}
	b.WriteByte(')')
}

func printString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
}

func printSymbol(b *strings.Builder, f *Form) {
	switch {
	case f.Uninterned:
		b.WriteString("#:")
	case f.Package == Keyword:
		b.WriteString(":")
	case f.Package != "":
		b.WriteString(escapeName(f.Package))
		if f.Internal {
			b.WriteString("::")
		} else {
			b.WriteString(":")
		}
	}
	b.WriteString(escapeName(f.Name))
}

// escapeName returns name as a token that reads back as name: itself when that is safe,
// else in |…|.
func escapeName(name string) string {
	if !needsEscape(name) {
		return name
	}
	var b strings.Builder
	b.WriteByte('|')
	for _, r := range name {
		if r == '|' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('|')
	return b.String()
}

func needsEscape(name string) bool {
	if name == "" || allDots(name) || numberKind(name) != Invalid {
		return true
	}
	for i, r := range name {
		if runeNeedsEscape(r, i == 0) {
			return true
		}
	}
	return false
}

func runeNeedsEscape(r rune, first bool) bool {
	switch {
	case r == utf8.RuneError || r == ':' || r == '|' || r == '\\' || r == '#' && first:
		return true
	case r < utf8.RuneSelf:
		return isWhitespace(byte(r)) || isTerminating(byte(r)) || r >= 'a' && r <= 'z'
	}
	return unicode.ToUpper(r) != r
}
