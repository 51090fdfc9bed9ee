package reader

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// charNames are the character names SBCL reads, by lower-case name: the ASCII control
// names it prints, the standard ones (CLHS 13.1.7) and the aliases it accepts.
var charNames = map[string]rune{
	"nul": 0, "null": 0, "soh": 1, "stx": 2, "etx": 3, "eot": 4, "enq": 5, "ack": 6, "bel": 7,
	"backspace": 8, "tab": 9, "newline": 10, "linefeed": 10, "vt": 11, "page": 12,
	"return": 13, "so": 14, "si": 15, "dle": 16, "dc1": 17, "dc2": 18, "dc3": 19, "dc4": 20,
	"nak": 21, "syn": 22, "etb": 23, "can": 24, "em": 25, "sub": 26, "esc": 27, "escape": 27,
	"fs": 28, "gs": 29, "rs": 30, "us": 31, "space": 32, "rubout": 127, "del": 127,
}

// CharCode returns the code of a Char form: its one character, a name SBCL knows
// (Space, Newline, Tab, Nul, Esc, …) or U+hex. ok is false for other names, such as
// Unicode character names, which this package does not list.
func (f *Form) CharCode() (code rune, ok bool) {
	if f == nil || f.Kind != Char || f.Name == "" {
		return 0, false
	}
	if r, n := utf8.DecodeRuneInString(f.Name); n == len(f.Name) && r != utf8.RuneError {
		return r, true
	}
	lower := strings.ToLower(f.Name)
	if r, ok := charNames[lower]; ok {
		return r, true
	}
	if hex, found := strings.CutPrefix(lower, "u+"); found {
		n, err := strconv.ParseUint(hex, 16, 32)
		return rune(n), err == nil && n <= utf8.MaxRune
	}
	return 0, false
}
