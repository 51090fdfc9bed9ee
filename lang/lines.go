package lang

import "strings"

// SplitLines splits src into the lines File.Lines holds: without terminators ("\n" or
// "\r\n"); a final newline does not start another line, and an empty source has none.
func SplitLines(src []byte) []string {
	if len(src) == 0 {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}
