package core

import (
	"iter"
	"math"
	"time"

	"pgregory.net/rapid"
)

// The bounded domain: every combination of small values for every field a
// decision reads. Theorems are checked on all of it, then property-based on
// the full domain with rapid.

var (
	boundInts      = []int{0, 1, 2}
	boundDurations = []time.Duration{0, time.Second, 2 * time.Second}
	boundAccess    = []Access{AccessNone, AccessRead, AccessWrite}
	boundSatisfy   = []int{0, 79, 80, 100}
	boundErrors    = []ErrorKind{NoError, ResourceExhausted(), ToolError("t", "boom")}
	boundThreshold = []int{0, 1, 80, 100, 101}
)

// boundedStates yields every state of the bounded domain.
func boundedStates() iter.Seq[State] {
	bools := []bool{false, true}
	return func(yield func(State) bool) {
		for ix := range product(len(boundInts), len(boundInts), len(boundInts), len(boundDurations),
			len(boundAccess), len(bools), len(boundSatisfy), len(bools), len(boundErrors)) {
			s := State{Step: boundInts[ix[0]], MaxSteps: boundInts[ix[1]], TokenBudget: boundInts[ix[2]],
				TimeBudget: boundDurations[ix[3]], FileAccess: boundAccess[ix[4]], ExecuteAllowed: bools[ix[5]],
				Satisfaction: boundSatisfy[ix[6]], Done: bools[ix[7]], Err: boundErrors[ix[8]],
				MaxContextTokens: 8000}
			if !yield(s) {
				return
			}
		}
	}
}

// boundedTools yields every tool of the bounded domain.
func boundedTools() iter.Seq[ToolSpec] {
	bools := []bool{false, true}
	tokens := []int{0, 1, 4}
	times := []time.Duration{0, time.Second, 3 * time.Second}
	return func(yield func(ToolSpec) bool) {
		for ix := range product(len(boundAccess), len(bools), len(tokens), len(times)) {
			t := ToolSpec{Name: "t", Access: boundAccess[ix[0]], RequiresExecute: bools[ix[1]], TokenCost: tokens[ix[2]], TimeCost: times[ix[3]]}
			if !yield(t) {
				return
			}
		}
	}
}

// product yields every index tuple of the cartesian product of sets of the given sizes,
// the last index varying fastest (the order of nested loops). The slice is reused.
func product(sizes ...int) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		ix := make([]int, len(sizes))
		for _, n := range sizes {
			if n == 0 {
				return
			}
		}
		for {
			if !yield(ix) {
				return
			}
			k := len(ix) - 1
			for ; k >= 0; k-- {
				if ix[k]++; ix[k] < sizes[k] {
					break
				}
				ix[k] = 0
			}
			if k < 0 {
				return
			}
		}
	}
}

// boundedActions are the actions tried against a toolset holding one tool named "t".
var boundedActions = []Action{CallTool("t", `{}`), CallTool("missing", `{}`), FinalAnswer("42"), NoAction()}

var boundMessages = []Message{
	{Role: RoleUser, Content: "hello"},
	{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "1", Name: "t", Arguments: "{}"}}},
	{Role: RoleTool, ToolCallID: "1", Content: "out"},
}

// anyInt draws from the whole int range, with the extremes and small values likely.
func anyNat() *rapid.Generator[int] {
	return rapid.OneOf(rapid.IntRange(0, 10), rapid.IntRange(0, math.MaxInt), rapid.SampledFrom([]int{0, 1, math.MaxInt - 1, math.MaxInt}))
}

func anyInt() *rapid.Generator[int] {
	return rapid.OneOf(anyNat(), rapid.Int(), rapid.SampledFrom([]int{math.MinInt, -1}))
}

func anyDuration() *rapid.Generator[time.Duration] {
	return rapid.Custom(func(t *rapid.T) time.Duration {
		return time.Duration(rapid.OneOf(rapid.Int64Range(0, 10*int64(time.Second)), rapid.Int64Range(0, math.MaxInt64),
			rapid.SampledFrom([]int64{0, 1, math.MaxInt64})).Draw(t, "d"))
	})
}

func anyErrorKind() *rapid.Generator[ErrorKind] {
	return rapid.Custom(func(t *rapid.T) ErrorKind {
		return ErrorKind{Code: ErrorCode(rapid.IntRange(int(ErrNone), int(ErrMaxIterations)).Draw(t, "code")),
			Reason: rapid.String().Draw(t, "reason"), Tool: rapid.String().Draw(t, "tool"), Message: rapid.String().Draw(t, "msg")}
	})
}

func anyMessage() *rapid.Generator[Message] {
	return rapid.Custom(func(t *rapid.T) Message {
		m := Message{Role: rapid.SampledFrom([]Role{RoleSystem, RoleUser, RoleAssistant, RoleTool}).Draw(t, "role"),
			Content: rapid.String().Draw(t, "content"), ToolCallID: rapid.StringN(0, 3, 3).Draw(t, "id")}
		for range rapid.IntRange(0, 2).Draw(t, "calls") {
			m.ToolCalls = append(m.ToolCalls, ToolCall{ID: rapid.StringN(0, 3, 3).Draw(t, "cid"), Name: "t", Arguments: "{}"})
		}
		return m
	})
}

// validState draws any valid state: the full domain the theorems quantify over.
func validState() *rapid.Generator[State] {
	return rapid.Custom(func(t *rapid.T) State {
		return State{
			Step:             anyNat().Draw(t, "step"),
			MaxSteps:         anyNat().Draw(t, "maxSteps"),
			TokenBudget:      anyNat().Draw(t, "tokens"),
			TimeBudget:       anyDuration().Draw(t, "time"),
			FileAccess:       Access(rapid.IntRange(0, 2).Draw(t, "access")),
			ExecuteAllowed:   rapid.Bool().Draw(t, "exec"),
			Satisfaction:     rapid.IntRange(0, 100).Draw(t, "satisfaction"),
			Done:             rapid.Bool().Draw(t, "done"),
			Err:              rapid.OneOf(rapid.Just(NoError), anyErrorKind()).Draw(t, "err"),
			Messages:         rapid.SliceOfN(anyMessage(), 0, 3).Draw(t, "messages"),
			MaxContextTokens: anyNat().Draw(t, "maxContext"),
			SystemPrompt:     rapid.String().Draw(t, "system"),
		}
	})
}

// anyTool draws any tool, including negative costs a careless caller might build.
func anyTool() *rapid.Generator[ToolSpec] {
	return rapid.Custom(func(t *rapid.T) ToolSpec {
		return ToolSpec{
			Name:            rapid.SampledFrom([]string{"t", "u"}).Draw(t, "name"),
			Access:          Access(rapid.IntRange(0, 2).Draw(t, "access")),
			RequiresExecute: rapid.Bool().Draw(t, "exec"),
			TokenCost:       anyInt().Draw(t, "tokenCost"),
			TimeCost:        rapid.OneOf(anyDuration(), rapid.Just(time.Duration(-1))).Draw(t, "timeCost"),
			Capability:      rapid.SampledFrom([]string{"", "fs", "network"}).Draw(t, "cap"),
		}
	})
}

func anyAction() *rapid.Generator[Action] {
	return rapid.OneOf(
		rapid.Custom(func(t *rapid.T) Action {
			return CallTool(rapid.SampledFrom([]string{"t", "u", "missing"}).Draw(t, "tool"), rapid.String().Draw(t, "input"))
		}),
		rapid.Custom(func(t *rapid.T) Action { return FinalAnswer(rapid.String().Draw(t, "answer")) }),
		rapid.Just(NoAction()),
	)
}
