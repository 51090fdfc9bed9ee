// Package toolout prepares a tool's output for the model: TruncateOutput
// keeps its head and tail within a character limit, and Sanitize defuses
// the markers prompt injections use to pose as system or instruction text
// (agent-loop invariant INV-011). Both are UTF-8 safe: they never split a
// multi-byte character, so valid UTF-8 stays valid.
package toolout

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultOutputLimit is how many characters of a tool's output the model sees.
const DefaultOutputLimit = 10000

// Marker is the text TruncateOutput puts where it elided n characters.
func Marker(n int) string {
	return fmt.Sprintf("\n[... %d characters elided ...]\n", n)
}

// TruncateOutput returns s unchanged when it has at most limit characters
// (runes; an invalid byte counts as one). Otherwise it keeps the first
// limit/2 and the last limit−limit/2 characters joined by Marker(elided),
// so the result has exactly limit characters plus the marker. A negative
// limit counts as zero.
func TruncateOutput(s string, limit int) string {
	limit = max(limit, 0)
	n := utf8.RuneCountInString(s)
	if n <= limit {
		return s
	}
	head := limit / 2
	tail := limit - head
	return s[:runeOffset(s, head)] + Marker(n-limit) + s[runeOffset(s, n-tail):]
}

// runeOffset is the byte offset of the k-th rune of s.
func runeOffset(s string, k int) int {
	off := 0
	for ; k > 0 && off < len(s); k-- {
		_, w := utf8.DecodeRuneInString(s[off:])
		off += w
	}
	return off
}

// Sanitized replaces each injection marker in sanitised output.
const Sanitized = "[SANITIZED]"

// injectionMarkers are the known markers, longest first so that a longer
// marker wins over a shorter one starting at the same place.
var injectionMarkers = func() []string {
	ms := []string{
		"<|system|>", "<|im_start|>system", "[INST]", "<<SYS>>",
		"IGNORE PREVIOUS INSTRUCTIONS", "IGNORE ALL PREVIOUS", "DISREGARD PREVIOUS",
		"NEW SYSTEM PROMPT:", "OVERRIDE:",
	}
	slices.SortStableFunc(ms, func(a, b string) int { return len(b) - len(a) })
	return ms
}()

// InjectionMarkers returns the markers Sanitize replaces.
func InjectionMarkers() []string { return slices.Clone(injectionMarkers) }

// Sanitize replaces every occurrence of an injection marker by Sanitized,
// matching case-insensitively (Unicode simple case folding, so "ſystem"
// counts as "system"), and leaves every other byte as it was. It is
// idempotent: the replacement text cannot form a new marker.
func Sanitize(s string) string {
	var b strings.Builder
	last := 0 // s[last:i] is pending, unchanged text
	for i := 0; i < len(s); {
		if n := matchAt(s[i:]); n > 0 {
			if b.Len() == 0 {
				b.Grow(len(s))
			}
			b.WriteString(s[last:i])
			b.WriteString(Sanitized)
			i += n
			last = i
			continue
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// starts holds every rune that folds to the first rune of a marker; a
// position starting with any other rune is skipped without trying markers.
var starts = func() map[rune]bool {
	set := map[rune]bool{}
	for _, m := range injectionMarkers {
		r, _ := utf8.DecodeRuneInString(m)
		set[r] = true
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			set[f] = true
		}
	}
	return set
}()

// asciiStarts is starts for single bytes, the common case.
var asciiStarts = func() (t [utf8.RuneSelf]bool) {
	for r := range starts {
		if r < utf8.RuneSelf {
			t[r] = true
		}
	}
	return t
}()

// matchAt returns the byte length of the marker s starts with, or 0.
func matchAt(s string) int {
	if c := s[0]; c < utf8.RuneSelf && !asciiStarts[c] {
		return 0
	}
	if r, _ := utf8.DecodeRuneInString(s); !starts[r] {
		return 0
	}
	for _, m := range injectionMarkers {
		if n := prefixFold(s, m); n > 0 {
			return n
		}
	}
	return 0
}

// prefixFold returns how many bytes of s match marker m rune by rune under
// simple case folding, or 0 when s does not start with m.
func prefixFold(s, m string) int {
	off := 0
	for _, mr := range m {
		if off >= len(s) {
			return 0
		}
		r, w := utf8.DecodeRuneInString(s[off:])
		if r == utf8.RuneError && w <= 1 || !foldEqual(r, mr) {
			return 0
		}
		off += w
	}
	return off
}

// foldEqual reports whether a and b are equal under simple case folding.
func foldEqual(a, b rune) bool {
	if a == b {
		return true
	}
	if a < utf8.RuneSelf && b < utf8.RuneSelf {
		return 'A' <= a && a <= 'Z' && a+'a'-'A' == b || 'A' <= b && b <= 'Z' && b+'a'-'A' == a
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}
