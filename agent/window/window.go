// Package window is the agent's context manager: it estimates how many
// tokens a conversation takes and trims it to fit the model's context
// window. The guarantees are theorems of the agent-loop contract:
// TruncateToFit keeps every system message, drops the oldest messages
// first, never separates an assistant tool call from its results, never
// grows the conversation, and its result fits whenever the system messages
// plus the newest message (with its tool-call group) fit.
package window

import (
	"math"
	"unicode/utf8"

	"github.com/agentverify/agentverify/agent/core"
)

// Reserve is the number of tokens kept free for the model's reply.
const Reserve = 500

// EstimateTokens is ⌈characters/4⌉, counting characters as runes (an
// invalid byte counts as one).
func EstimateTokens(s string) int {
	n := utf8.RuneCountInString(s)
	return n/4 + min(n%4, 1)
}

// MessageTokens estimates one message: its content and, for each tool
// call, the tool name and the arguments.
func MessageTokens(m core.Message) int {
	n := EstimateTokens(m.Content)
	for _, c := range m.ToolCalls {
		n += EstimateTokens(c.Name) + EstimateTokens(c.Arguments)
	}
	return n
}

// Tokens estimates a conversation: the sum over its messages.
func Tokens(msgs []core.Message) int {
	n := 0
	for _, m := range msgs {
		n += MessageTokens(m)
	}
	return n
}

// Fits reports whether the conversation leaves Reserve tokens of a
// maxTokens window free.
func Fits(msgs []core.Message, maxTokens int) bool {
	return Tokens(msgs) <= budget(maxTokens)
}

// budget is maxTokens − Reserve without wrapping around.
func budget(maxTokens int) int {
	if maxTokens < math.MinInt+Reserve {
		return math.MinInt
	}
	return maxTokens - Reserve
}

// TruncateToFit returns the conversation with the oldest non-system
// messages dropped until it fits maxTokens. An assistant message with tool
// calls and the tool results that follow it are dropped or kept together.
// The newest group is always kept, so the result may still not fit when the
// system messages and that group alone do not. The input is not modified.
func TruncateToFit(msgs []core.Message, maxTokens int) []core.Message {
	keep := keepMask(msgs, maxTokens)
	out := make([]core.Message, 0, len(msgs))
	for i, m := range msgs {
		if keep[i] {
			out = append(out, m)
		}
	}
	return out
}

// ForState returns the conversation to send for s: its system prompt (when
// not empty) followed by its messages, truncated to s.MaxContextTokens.
func ForState(s core.State) []core.Message {
	msgs := make([]core.Message, 0, len(s.Messages)+1)
	if s.SystemPrompt != "" {
		msgs = append(msgs, core.Message{Role: core.RoleSystem, Content: s.SystemPrompt})
	}
	return TruncateToFit(append(msgs, s.Messages...), s.MaxContextTokens)
}

// groups splits the indices of the non-system messages into units that are
// dropped together: an assistant message with tool calls and the tool
// results answering those calls that follow it (system messages between
// them do not interrupt), or a single other message.
func groups(msgs []core.Message) [][]int {
	var gs [][]int
	var open map[string]bool // call IDs of the group being built
	for i, m := range msgs {
		switch {
		case m.Role == core.RoleSystem:
			continue
		case m.Role == core.RoleTool && open != nil && open[m.ToolCallID]:
			gs[len(gs)-1] = append(gs[len(gs)-1], i)
			continue
		}
		open = nil
		if m.Role == core.RoleAssistant && len(m.ToolCalls) > 0 {
			open = make(map[string]bool, len(m.ToolCalls))
			for _, c := range m.ToolCalls {
				open[c.ID] = true
			}
		}
		gs = append(gs, []int{i})
	}
	return gs
}

// keepMask decides which messages TruncateToFit keeps.
func keepMask(msgs []core.Message, maxTokens int) []bool {
	keep := make([]bool, len(msgs))
	for i := range keep {
		keep[i] = true
	}
	total := Tokens(msgs)
	gs := groups(msgs)
	for g := 0; g < len(gs)-1 && total > budget(maxTokens); g++ {
		for _, i := range gs[g] {
			keep[i] = false
			total -= MessageTokens(msgs[i])
		}
	}
	return keep
}
