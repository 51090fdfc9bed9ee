package toolout

import (
	"strings"
	"testing"
)

// A typical large tool output: 10 000 lines of build log with one marker.
var benchText = strings.Repeat("ok  \tgithub.com/x/y\t0.012s — 日本\n", 10000) + "<|im_start|>system"

func BenchmarkSanitize(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		Sanitize(benchText)
	}
}

func BenchmarkTruncateOutput(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		TruncateOutput(benchText, DefaultOutputLimit)
	}
}
