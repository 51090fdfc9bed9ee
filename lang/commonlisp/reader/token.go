package reader

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is the text of a token with, when it had escapes, which runes were escaped.
type token struct {
	text    string
	escaped []bool // per rune of text; nil when nothing was escaped
	start   int
}

// scanToken reads a token starting at r.off: constituents, with \x and |…| escapes,
// up to whitespace or a terminating macro character.
func (r *reader) scanToken() (token, *Error) {
	start := r.off
	i := start
	for i < len(r.src) && !isTerminating(r.src[i]) {
		if r.src[i] == '\\' || r.src[i] == '|' {
			return r.scanEscapedToken(start)
		}
		i++
	}
	r.off = i
	return token{text: r.intern(r.src[start:i]), start: start}, nil
}

// scanEscapedToken is scanToken's slow path for a token with escapes.
func (r *reader) scanEscapedToken(start int) (token, *Error) {
	var text []rune
	var esc []bool
	multi := -1 // offset of the open '|', or -1
	i := start
	for i < len(r.src) && (multi >= 0 || !isTerminating(r.src[i])) {
		c := r.src[i]
		switch {
		case c == '|':
			multi = flip(multi, i)
			i++
			continue
		case c == '\\':
			i++
			if i >= len(r.src) {
				return token{}, r.errAt(i-1, "end of file after '\\' in a token")
			}
		}
		ru, n := utf8.DecodeRune(r.src[i:])
		text = append(text, ru)
		esc = append(esc, c == '\\' || multi >= 0)
		i += n
	}
	if multi >= 0 {
		r.off = len(r.src)
		return token{}, r.errAt(multi, "end of file in a |…| escape that starts here")
	}
	r.off = i
	return token{text: string(text), escaped: esc, start: start}, nil
}

func flip(multi, i int) int {
	if multi >= 0 {
		return -1
	}
	return i
}

// readTokenForm reads a token and interprets it as a number, a symbol or a consing dot.
func (r *reader) readTokenForm(start int) (*Form, item, *Error) {
	tok, err := r.scanToken()
	if err != nil {
		return nil, itemForm, err
	}
	if r.suppress > 0 {
		return r.alloc(Form{Kind: Symbol, Name: tok.text, Span: r.span(start, r.off)}), itemForm, nil
	}
	if tok.escaped == nil {
		if allDots(tok.text) {
			if tok.text == "." {
				return nil, itemDot, nil
			}
			return nil, itemForm, r.errAt(start, "a token of dots alone: "+tok.text)
		}
		if k := numberKind(tok.text); k != Invalid {
			f := r.alloc(Form{Kind: k, Name: tok.text, Span: r.span(start, r.off)})
			if k != Float {
				f.Radix = 10
			}
			return f, itemForm, nil
		}
	}
	f, err := r.symbol(tok)
	return f, itemForm, err
}

func allDots(s string) bool {
	return s != "" && strings.Trim(s, ".") == ""
}

// symbol interprets a token as a symbol: package markers split it, unescaped characters
// are upcased (readtable case :upcase).
func (r *reader) symbol(tok token) (*Form, *Error) {
	f := r.alloc(Form{Kind: Symbol, Span: r.span(tok.start, r.off)})
	colon, n := tok.colons()
	switch {
	case n == 0:
		f.Name = r.upcase(tok, 0, len(tok.text))
		return f, nil
	case n == 1 && colon == 0:
		f.Package, f.Name = Keyword, r.upcase(tok, 1, len(tok.text))
	case n == 2 && colon == 0 && tok.text[1] == ':' && !tok.isEscaped(1):
		f.Package, f.Name = Keyword, r.upcase(tok, 2, len(tok.text)) // SBCL reads ::a as :a
	case n == 1 || n == 2 && tok.text[colon+1] == ':' && !tok.isEscaped(colon+1):
		f.Package = r.upcase(tok, 0, colon)
		f.Internal = n == 2
		f.Name = r.upcase(tok, colon+n, len(tok.text))
	default:
		return nil, r.errAt(tok.start, "too many package markers in "+tok.text)
	}
	if f.Name == "" && !tok.hasEscapes() {
		return nil, r.errAt(tok.start, "no symbol name after the package marker in "+tok.text)
	}
	return f, nil
}

// colons returns the byte offset of the first unescaped ':' and how many there are.
func (t token) colons() (first, n int) {
	first, k := -1, 0 // k counts runes, the index into t.escaped
	for i, c := range t.text {
		if c == ':' && (t.escaped == nil || !t.escaped[k]) {
			if first < 0 {
				first = i
			}
			n++
		}
		k++
	}
	return first, n
}

func (t token) hasEscapes() bool { return t.escaped != nil }

// isEscaped reports whether the rune at byte offset i of the text was escaped.
func (t token) isEscaped(i int) bool {
	if t.escaped == nil {
		return false
	}
	return t.escaped[utf8.RuneCountInString(t.text[:i])]
}

// intern returns b as a string, the same string for the same bytes within one read, so
// that the many repeated symbols of a file cost one allocation each.
func (r *reader) intern(b []byte) string {
	if s, ok := r.strs[string(b)]; ok {
		return s
	}
	if r.strs == nil {
		r.strs = map[string]string{}
	}
	s := string(b)
	r.strs[s] = s
	return s
}

// upcase returns tok.text[from:to] with its unescaped runes upcased, from a cache when
// nothing was escaped.
func (r *reader) upcase(tok token, from, to int) string {
	if tok.escaped != nil {
		return tok.upcase(from, to)
	}
	s := tok.text[from:to]
	if u, ok := r.upper[s]; ok {
		return u
	}
	if r.upper == nil {
		r.upper = map[string]string{}
	}
	u := upcaseASCIIFast(s)
	r.upper[s] = u
	return u
}

// upcase returns text[from:to] with its unescaped runes upcased.
func (t token) upcase(from, to int) string {
	s := t.text[from:to]
	var b strings.Builder
	k := utf8.RuneCountInString(t.text[:from])
	for _, ru := range s {
		if !t.escaped[k] {
			ru = unicode.ToUpper(ru)
		}
		b.WriteRune(ru)
		k++
	}
	return b.String()
}

func upcaseASCIIFast(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= utf8.RuneSelf {
			return strings.ToUpper(s)
		}
	}
	return s
}

// numberKind classifies a token by the number syntax of CLHS 2.3.1 in base 10:
// Integer, Ratio, Float, or Invalid when it is not a number.
func numberKind(s string) Kind {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	j := digits(s, i, 10)
	switch {
	case j > i && j == len(s), j > i && j == len(s)-1 && s[j] == '.':
		return Integer
	case j > i && j < len(s) && s[j] == '/':
		if k := digits(s, j+1, 10); k > j+1 && k == len(s) {
			return Ratio
		}
		return Invalid
	}
	return floatKind(s, i, j)
}

// floatKind finishes numberKind for floats: s[i:j] are the integer digits.
func floatKind(s string, i, j int) Kind {
	k, frac := j, 0
	if k < len(s) && s[k] == '.' {
		m := digits(s, k+1, 10)
		frac, k = m-k-1, m
	}
	if j == i && frac == 0 {
		return Invalid
	}
	if k == len(s) {
		if frac > 0 {
			return Float
		}
		return Invalid
	}
	if !strings.ContainsRune("esfdlESFDL", rune(s[k])) {
		return Invalid
	}
	k++
	if k < len(s) && (s[k] == '+' || s[k] == '-') {
		k++
	}
	if m := digits(s, k, 10); m > k && m == len(s) {
		return Float
	}
	return Invalid
}

// digits returns the offset after the run of digits in base starting at i.
func digits(s string, i, base int) int {
	for i < len(s) && digitValue(s[i]) < base {
		i++
	}
	return i
}

func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 99
}

// rationalKind classifies s as an Integer or Ratio in base, or Invalid.
func rationalKind(s string, base int) Kind {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	j := digits(s, i, base)
	switch {
	case j == i:
		return Invalid
	case j == len(s):
		return Integer
	case s[j] != '/':
		return Invalid
	}
	if k := digits(s, j+1, base); k > j+1 && k == len(s) {
		return Ratio
	}
	return Invalid
}
