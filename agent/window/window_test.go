package window

import (
	"fmt"
	"iter"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentverify/agentverify/agent/core"
	"pgregory.net/rapid"
)

type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

func TestEstimateTokens(t *testing.T) {
	for s, want := range map[string]int{"": 0, "a": 1, "abcd": 1, "abcde": 2, "日本語の文": 2, "\xff\xfe\xfd\xfc": 1, strings.Repeat("x", 4001): 1001} {
		if got := EstimateTokens(s); got != want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", s, got, want)
		}
	}
	m := core.Message{Role: core.RoleAssistant, Content: "abcdefgh", ToolCalls: []core.ToolCall{{ID: "1", Name: "read_file", Arguments: `{"path":"a"}`}}}
	if got := MessageTokens(m); got != 2+3+3 {
		t.Errorf("MessageTokens = %d, want 8", got)
	}
	if !Fits([]core.Message{m}, 508) || Fits([]core.Message{m}, 507) || Fits(nil, math.MinInt) {
		t.Errorf("Fits disagrees with max − %d", Reserve)
	}
}

// The bounded domain: every conversation of up to five messages over an
// alphabet that has system prompts, plain messages of several sizes, tool
// calls with their results and orphan results.
var alphabet = []core.Message{
	{Role: core.RoleSystem, Content: "sys."},                // 1 token
	{Role: core.RoleUser, Content: "question"},              // 2 tokens
	{Role: core.RoleUser, Content: strings.Repeat("x", 20)}, // 5 tokens
	{Role: core.RoleAssistant, Content: "", ToolCalls: []core.ToolCall{{ID: "a", Name: "t", Arguments: "{}"}, {ID: "b", Name: "t", Arguments: "{}"}}}, // 2
	{Role: core.RoleTool, ToolCallID: "a", Content: "result a result a"},                                                                              // 5
	{Role: core.RoleTool, ToolCallID: "b", Content: "rb"},                                                                                             // 1
	{Role: core.RoleAssistant, Content: "answer"},                                                                                                     // 2
}

var boundMax = []int{0, 499, 500, 501, 502, 503, 505, 508, 512, 520, 530}

func boundedConversations(maxLen int) iter.Seq[[]core.Message] {
	return func(yield func([]core.Message) bool) {
		var rec func(prefix []core.Message) bool
		rec = func(prefix []core.Message) bool {
			if !yield(slices.Clone(prefix)) {
				return false
			}
			if len(prefix) == maxLen {
				return true
			}
			for _, m := range alphabet {
				if !rec(append(prefix, m)) {
					return false
				}
			}
			return true
		}
		rec(nil)
	}
}

func genMessage() *rapid.Generator[core.Message] {
	content := rapid.OneOf(rapid.StringN(0, 40, -1), rapid.StringOfN(rapid.RuneFrom([]rune("aé日\U0001F600")), 0, 200, -1))
	id := rapid.SampledFrom([]string{"a", "b", "c"})
	return rapid.Custom(func(t *rapid.T) core.Message {
		m := core.Message{Role: rapid.SampledFrom([]core.Role{core.RoleSystem, core.RoleUser, core.RoleAssistant, core.RoleTool, core.RoleTool}).Draw(t, "role"),
			Content: content.Draw(t, "content")}
		switch m.Role {
		case core.RoleTool:
			m.ToolCallID = id.Draw(t, "id")
		case core.RoleAssistant:
			for i := range rapid.IntRange(0, 3).Draw(t, "calls") {
				m.ToolCalls = append(m.ToolCalls, core.ToolCall{ID: id.Draw(t, fmt.Sprint("cid", i)), Name: "read_file", Arguments: content.Draw(t, "args")})
			}
		}
		return m
	})
}

// forAll checks prop on the bounded domain and then with rapid.
func forAll(t *testing.T, prop func(t tb, msgs []core.Message, max int)) {
	t.Run("bounded", func(t *testing.T) {
		n, depth := 0, 5
		if testing.Short() {
			depth = 4
		}
		for msgs := range boundedConversations(depth) {
			for _, max := range boundMax {
				prop(t, msgs, max)
				n++
			}
		}
		t.Logf("%d cases", n)
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		msgs := rapid.SliceOfN(genMessage(), 0, 14).Draw(t, "msgs")
		max := rapid.OneOf(rapid.IntRange(400, 800), rapid.Int()).Draw(t, "max")
		prop(t, msgs, max)
	}))
}

func run(t tb, msgs []core.Message, max int) ([]core.Message, []bool) {
	t.Helper()
	before := slices.Clone(msgs)
	out := TruncateToFit(msgs, max)
	if !reflect.DeepEqual(before, msgs) {
		t.Fatalf("TruncateToFit modified its input")
	}
	keep := keepMask(msgs, max)
	var want []core.Message
	for i, m := range msgs {
		if keep[i] {
			want = append(want, m)
		}
	}
	if len(out) != len(want) || len(out) > 0 && !reflect.DeepEqual(out, want) {
		t.Fatalf("TruncateToFit is not the kept subsequence")
	}
	return out, keep
}

func TestTheoremTruncatePreservesSystemPrompt(t *testing.T) { forAll(t, propSystem) }

func propSystem(t tb, msgs []core.Message, max int) {
	t.Helper()
	out, keep := run(t, msgs, max)
	for i, m := range msgs {
		if m.Role == core.RoleSystem && !keep[i] {
			t.Fatalf("system message %d dropped", i)
		}
	}
	count := func(ms []core.Message) (n int) {
		for _, m := range ms {
			if m.Role == core.RoleSystem {
				n++
			}
		}
		return n
	}
	if count(out) != count(msgs) {
		t.Fatalf("%d system messages in, %d out", count(msgs), count(out))
	}
}

func TestTheoremTruncateToFitLengthBound(t *testing.T) { forAll(t, propLength) }

func propLength(t tb, msgs []core.Message, max int) {
	t.Helper()
	out, _ := run(t, msgs, max)
	if len(out) > len(msgs) || Tokens(out) > Tokens(msgs) {
		t.Fatalf("grew: %d -> %d messages, %d -> %d tokens", len(msgs), len(out), Tokens(msgs), Tokens(out))
	}
	if Fits(msgs, max) && len(out) != len(msgs) {
		t.Fatalf("dropped messages from a conversation that fits")
	}
}

// pairs lists, independently of groups(), each assistant tool call index
// with the indices of the results that answer it.
func pairs(msgs []core.Message) map[int][]int {
	ps := map[int][]int{}
	for i, m := range msgs {
		if m.Role != core.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		ids := map[string]bool{}
		for _, c := range m.ToolCalls {
			ids[c.ID] = true
		}
		ps[i] = nil
		for j := i + 1; j < len(msgs); j++ {
			if msgs[j].Role == core.RoleSystem {
				continue
			}
			if msgs[j].Role != core.RoleTool || !ids[msgs[j].ToolCallID] {
				break
			}
			ps[i] = append(ps[i], j)
		}
	}
	return ps
}

func TestTheoremTruncateKeepsToolPairs(t *testing.T) { forAll(t, propPairs) }

func propPairs(t tb, msgs []core.Message, max int) {
	t.Helper()
	_, keep := run(t, msgs, max)
	for call, results := range pairs(msgs) {
		for _, r := range results {
			if keep[call] != keep[r] {
				t.Fatalf("tool call %d kept=%v but its result %d kept=%v", call, keep[call], r, keep[r])
			}
		}
	}
}

func TestTheoremTruncateDropsOldestFirst(t *testing.T) { forAll(t, propOldest) }

func propOldest(t tb, msgs []core.Message, max int) {
	t.Helper()
	_, keep := run(t, msgs, max)
	seenKept := false
	for i, m := range msgs {
		if m.Role == core.RoleSystem {
			continue
		}
		if seenKept && !keep[i] {
			t.Fatalf("message %d dropped after a newer one was kept", i)
		}
		seenKept = seenKept || keep[i]
	}
}

// newestGroup is the last non-system message together with, when it is a
// tool result, the assistant call it answers and that call's other results.
func newestGroup(msgs []core.Message) []int {
	for call, results := range pairs(msgs) {
		if len(results) > 0 && lastNonSystem(msgs) == results[len(results)-1] {
			return append([]int{call}, results...)
		}
	}
	if l := lastNonSystem(msgs); l >= 0 {
		return []int{l}
	}
	return nil
}

func lastNonSystem(msgs []core.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != core.RoleSystem {
			return i
		}
	}
	return -1
}

// TestTheoremTruncateFitsWhenNewestFits: whenever the system messages and
// the newest message (with its tool-call group) fit, the result fits; and
// when it does not fit, nothing but that group is left to drop.
func TestTheoremTruncateFitsWhenNewestFits(t *testing.T) { forAll(t, propNewest) }

func propNewest(t tb, msgs []core.Message, max int) {
	t.Helper()
	out, keep := run(t, msgs, max)
	minimal := 0
	inNewest := map[int]bool{}
	for _, i := range newestGroup(msgs) {
		inNewest[i] = true
	}
	for i, m := range msgs {
		if m.Role == core.RoleSystem || inNewest[i] {
			minimal += MessageTokens(m)
			if !keep[i] {
				t.Fatalf("message %d of the system prompt or newest group was dropped", i)
			}
		}
	}
	if minimal <= budget(max) && !Fits(out, max) {
		t.Fatalf("system + newest take %d tokens of %d, but the result takes %d", minimal, budget(max), Tokens(out))
	}
	if !Fits(out, max) && Tokens(out) != minimal {
		t.Fatalf("result does not fit yet keeps more than system + newest")
	}
}

func TestForState(t *testing.T) {
	s := core.NewState("you are careful")
	s.MaxContextTokens = Reserve + 10
	for i := range 6 {
		s = core.AddMessage(s, core.Message{Role: core.RoleUser, Content: fmt.Sprintf("message %02d", i)}) // 3 tokens
	}
	got := ForState(s)
	var contents []string
	for _, m := range got {
		contents = append(contents, m.Content)
	}
	want := []string{"you are careful", "message 04", "message 05"}
	if !slices.Equal(contents, want) {
		t.Fatalf("ForState = %q, want %q", contents, want)
	}
	if got[0].Role != core.RoleSystem || len(s.Messages) != 6 {
		t.Fatalf("ForState changed the state or lost the system role")
	}
}

func FuzzTruncateToFit(f *testing.F) {
	f.Add("sys", "hello", "call", "result", 3, 510)
	f.Add("", "日本語", "", "", 0, 0)
	f.Fuzz(func(t *testing.T, sys, user, args, result string, layout, max int) {
		var msgs []core.Message
		// layout picks, two bits per message, which kinds to append.
		for i := range 8 {
			switch (layout >> (2 * i)) & 3 {
			case 0:
				msgs = append(msgs, core.Message{Role: core.RoleSystem, Content: sys})
			case 1:
				msgs = append(msgs, core.Message{Role: core.RoleUser, Content: user})
			case 2:
				msgs = append(msgs, core.Message{Role: core.RoleAssistant, ToolCalls: []core.ToolCall{{ID: fmt.Sprint(i), Name: "t", Arguments: args}}})
			case 3:
				msgs = append(msgs, core.Message{Role: core.RoleTool, ToolCallID: fmt.Sprint(i - 1), Content: result})
			}
		}
		for _, prop := range []func(tb, []core.Message, int){propSystem, propLength, propPairs, propOldest, propNewest} {
			prop(t, msgs, max)
		}
	})
}
