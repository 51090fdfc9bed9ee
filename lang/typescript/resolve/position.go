package resolve

import (
	"bytes"
	"unicode/utf8"
)

// byteColumn converts a 1-based column in UTF-16 code units (the compiler's) on line
// (1-based) of src into a 1-based byte column.
func byteColumn(src []byte, line, col16 int) int {
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[start:], '\n')
		if i < 0 {
			return col16
		}
		start += i + 1
	}
	units, off := 0, start
	for off < len(src) && src[off] != '\n' && units < col16-1 {
		r, size := utf8.DecodeRune(src[off:])
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		off += size
	}
	return off - start + 1
}
