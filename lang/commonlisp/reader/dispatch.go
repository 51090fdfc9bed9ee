package reader

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// dispatchFn reads what follows '#', an optional decimal argument and the
// sub-character; start is the offset of the '#', r.off is just after the sub-character.
type dispatchFn func(r *reader, start, arg int, hasArg bool) (*Form, item, *Error)

// readDispatch reads a '#' dispatch macro.
func (r *reader) readDispatch(start int) (*Form, item, *Error) {
	i := start + 1
	j := i
	for j < len(r.src) && r.src[j] >= '0' && r.src[j] <= '9' {
		j++
	}
	arg, hasArg := 0, j > i
	if hasArg {
		n, err := strconv.Atoi(string(r.src[i:j]))
		if err != nil {
			return nil, itemForm, r.errAt(start, "dispatch argument too large")
		}
		arg = n
	}
	if j >= len(r.src) {
		return nil, itemForm, r.errAt(start, "end of file after '#'")
	}
	sub := r.src[j]
	fn := dispatchFor(sub)
	if fn == nil && r.suppress > 0 && sub != '<' && !isTerminating(sub) {
		r.off = j + 1 // SBCL under *read-suppress*: an unknown #x reads as nothing
		return nil, itemNone, nil
	}
	if fn == nil {
		return nil, itemForm, r.errAt(start, "unknown dispatch macro character #"+subName(sub))
	}
	r.off = j + 1
	return fn(r, start, arg, hasArg)
}

func subName(c byte) string {
	switch {
	case c == ' ':
		return `\Space`
	case c == '\n':
		return `\Newline`
	case c < ' ' || c >= 0x7f:
		return `\U+` + strings.ToUpper(strconv.FormatInt(int64(c), 16))
	}
	return string(c)
}

// dispatchFor returns the reader of the standard dispatch macro #c, or nil.
func dispatchFor(c byte) dispatchFn {
	if c >= 'a' && c <= 'z' {
		c -= 'a' - 'A'
	}
	if fn := dispatchLetter(c); fn != nil {
		return fn
	}
	switch c {
	case '\\':
		return (*reader).readChar
	case '\'':
		return (*reader).readFunction
	case '(':
		return (*reader).readVector
	case '*':
		return (*reader).readBitVector
	case ':':
		return (*reader).readUninterned
	case '.':
		return (*reader).readEval
	case '+':
		return featureReader(true)
	case '-':
		return featureReader(false)
	case '=':
		return (*reader).readLabel
	case '#':
		return (*reader).readLabelRef
	case '|':
		return (*reader).readBlockComment
	}
	return nil
}

// dispatchLetter returns the reader of #B #O #X #R #C #A #S #P (c upper case).
func dispatchLetter(c byte) dispatchFn {
	switch c {
	case 'B':
		return radixReader(2)
	case 'O':
		return radixReader(8)
	case 'X':
		return radixReader(16)
	case 'R':
		return (*reader).readRadix
	case 'C':
		return (*reader).readComplex
	case 'A':
		return (*reader).readArray
	case 'S':
		return (*reader).readStruct
	case 'P':
		return (*reader).readPathname
	}
	return nil
}

func (r *reader) readBlockComment(start, _ int, _ bool) (*Form, item, *Error) {
	r.off = start
	if !r.blockComment() {
		r.off = len(r.src) // read to the end looking for the |#
		return nil, itemForm, r.errAt(start, "end of file in a #|…|# comment that starts here")
	}
	return nil, itemNone, nil
}

func (r *reader) readFunction(start, _ int, _ bool) (*Form, item, *Error) {
	return r.wrap(Function, start, "#'")
}

func (r *reader) readEval(start, _ int, _ bool) (*Form, item, *Error) {
	return r.wrap(ReadEval, start, "#.")
}

func (r *reader) readVector(start, _ int, _ bool) (*Form, item, *Error) {
	items, _, err := r.readSeq(start, false)
	if err != nil {
		return nil, itemForm, err
	}
	return r.alloc(Form{Kind: Vector, Items: items, Span: r.span(start, r.off)}), itemForm, nil
}

// readChar reads #\x: the character after the backslash is taken as is, and the
// constituents that follow it make a character name such as Space.
func (r *reader) readChar(start, _ int, _ bool) (*Form, item, *Error) {
	if r.off >= len(r.src) {
		return nil, itemForm, r.errAt(start, `end of file after #\`)
	}
	first := r.off
	_, n := utf8.DecodeRune(r.src[first:])
	r.off += n
	name := string(r.src[first:r.off])
	if r.off < len(r.src) && !isTerminating(r.src[r.off]) {
		tok, err := r.scanToken()
		if err != nil {
			return nil, itemForm, err
		}
		if tok.escaped != nil && r.suppress == 0 {
			return nil, itemForm, r.errAt(start, "escape character in a character name")
		}
		name += tok.text
	}
	return r.alloc(Form{Kind: Char, Name: name, Span: r.span(start, r.off)}), itemForm, nil
}

func (r *reader) readBitVector(start, _ int, _ bool) (*Form, item, *Error) {
	tok, err := r.scanToken()
	if err != nil {
		return nil, itemForm, err
	}
	if strings.Trim(tok.text, "01") != "" && r.suppress == 0 {
		return nil, itemForm, r.errAt(start, "#* followed by something other than 0 and 1: "+tok.text)
	}
	return r.alloc(Form{Kind: BitVector, Name: tok.text, Span: r.span(start, r.off)}), itemForm, nil
}

func (r *reader) readUninterned(start, _ int, _ bool) (*Form, item, *Error) {
	tok, err := r.scanToken()
	if err != nil {
		return nil, itemForm, err
	}
	if _, n := tok.colons(); n > 0 && r.suppress == 0 {
		return nil, itemForm, r.errAt(start, "package marker in the uninterned symbol #:"+tok.text)
	}
	return r.alloc(Form{Kind: Symbol, Uninterned: true, Name: r.upcase(tok, 0, len(tok.text)), Span: r.span(start, r.off)}), itemForm, nil
}

func radixReader(base int) dispatchFn {
	return func(r *reader, start, _ int, _ bool) (*Form, item, *Error) {
		return r.rational(start, base)
	}
}

func (r *reader) readRadix(start, arg int, hasArg bool) (*Form, item, *Error) {
	if (!hasArg || arg < 2 || arg > 36) && r.suppress == 0 {
		return nil, itemForm, r.errAt(start, "#R needs a radix from 2 to 36, as in #16rFF")
	}
	return r.rational(start, arg)
}

// rational reads the token of #B #O #X #nR as an integer or ratio in base.
func (r *reader) rational(start, base int) (*Form, item, *Error) {
	tok, err := r.scanToken()
	if err != nil {
		return nil, itemForm, err
	}
	k := rationalKind(tok.text, base)
	if r.suppress > 0 {
		k = Integer
	}
	if k == Invalid || tok.escaped != nil {
		return nil, itemForm, r.errAt(start, "not a rational in base "+strconv.Itoa(base)+": "+tok.text)
	}
	return r.alloc(Form{Kind: k, Name: tok.text, Radix: base, Span: r.span(start, r.off)}), itemForm, nil
}

func (r *reader) readComplex(start, _ int, _ bool) (*Form, item, *Error) {
	f, err := r.nextForm(start, "#C")
	if err != nil {
		return nil, itemForm, err
	}
	if (f.Kind != List || len(f.Items) != 2 || f.Tail != nil) && r.suppress == 0 {
		return nil, itemForm, r.errAt(start, "#C needs a list of two reals, as in #C(1 2)")
	}
	return r.alloc(Form{Kind: Complex, Items: f.Items, Span: r.span(start, r.off)}), itemForm, nil
}

func (r *reader) readArray(start, arg int, _ bool) (*Form, item, *Error) {
	f, it, err := r.wrap(Array, start, "#A")
	if f != nil {
		f.Rank = arg
	}
	return f, it, err
}

func (r *reader) readStruct(start, _ int, _ bool) (*Form, item, *Error) {
	f, err := r.nextForm(start, "#S")
	if err != nil {
		return nil, itemForm, err
	}
	if (f.Kind != List || len(f.Items) == 0 || f.Items[0].Kind != Symbol) && r.suppress == 0 {
		return nil, itemForm, r.errAt(start, "#S needs a list that starts with a structure name")
	}
	return r.alloc(Form{Kind: Struct, Items: f.Items, Span: r.span(start, r.off)}), itemForm, nil
}

func (r *reader) readPathname(start, _ int, _ bool) (*Form, item, *Error) {
	f, err := r.nextForm(start, "#P")
	if err != nil {
		return nil, itemForm, err
	}
	if f.Kind != String && r.suppress == 0 {
		return nil, itemForm, r.errAt(start, `#P needs a string, as in #P"/tmp/"`)
	}
	return r.alloc(Form{Kind: Pathname, Name: f.Name, Span: r.span(start, r.off)}), itemForm, nil
}

func (r *reader) readLabel(start, arg int, hasArg bool) (*Form, item, *Error) {
	if !hasArg && r.suppress == 0 {
		return nil, itemForm, r.errAt(start, "#= needs a label number, as in #1=")
	}
	if r.labels == nil {
		r.labels = map[int]bool{}
	}
	r.labels[arg] = true
	f, it, err := r.wrap(Label, start, "#=")
	if f != nil {
		f.Label = arg
	}
	return f, it, err
}

func (r *reader) readLabelRef(start, arg int, hasArg bool) (*Form, item, *Error) {
	if (!hasArg || !r.labels[arg]) && r.suppress == 0 {
		return nil, itemForm, r.errAt(start, "#"+strconv.Itoa(arg)+"# refers to no #"+strconv.Itoa(arg)+"= label before it")
	}
	return r.alloc(Form{Kind: LabelRef, Label: arg, Span: r.span(start, r.off)}), itemForm, nil
}
