package guard

import (
	"fmt"
	"testing"
)

func BenchmarkCheckToolCall(b *testing.B) {
	g, err := New(Config{MaxToolCalls: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	inputs := make([]string, 64)
	for i := range inputs {
		inputs[i] = fmt.Sprintf(`{"path": "pkg/file%d.go", "content": "package pkg"}`, i)
	}
	i := 0
	for b.Loop() {
		g.CheckToolCall("write_file", inputs[i%len(inputs)])
		i++
	}
}
