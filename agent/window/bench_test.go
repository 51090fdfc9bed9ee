package window

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/agent/core"
)

// BenchmarkTruncateToFit trims a 300-message conversation of tool calls
// and results to the default 8000-token window.
func BenchmarkTruncateToFit(b *testing.B) {
	msgs := []core.Message{{Role: core.RoleSystem, Content: "you are a careful coding agent"}}
	for i := range 150 {
		id := fmt.Sprint(i)
		msgs = append(msgs,
			core.Message{Role: core.RoleAssistant, ToolCalls: []core.ToolCall{{ID: id, Name: "read_file", Arguments: `{"path":"main.go"}`}}},
			core.Message{Role: core.RoleTool, ToolCallID: id, Content: strings.Repeat("func main() {}\n", 20)})
	}
	for b.Loop() {
		TruncateToFit(msgs, core.DefaultMaxContextTokens)
	}
}
