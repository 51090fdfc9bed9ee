package core

import (
	"math"
	"reflect"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// Each theorem of agent/contracts/agent-loop.yaml is checked twice: on
// every state of the bounded domain (domain_test.go) and by rapid over the
// full domain. A property is a function of its inputs that calls Fatalf.

type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// permittedSpec restates ToolPermitted case by case, as the specification
// words it, so the test does not just repeat the implementation.
func permittedSpec(granted Access, exec bool, t ToolSpec) bool {
	if t.RequiresExecute && !exec {
		return false
	}
	switch t.Access {
	case AccessNone:
		return true
	case AccessRead:
		return granted == AccessRead || granted == AccessWrite
	case AccessWrite:
		return granted == AccessWrite
	}
	return false
}

func propPermissionSafety(t tb, s State, tool ToolSpec, a Action) {
	t.Helper()
	if got, want := ToolPermitted(s, tool), permittedSpec(s.FileAccess, s.ExecuteAllowed, tool); got != want {
		t.Fatalf("ToolPermitted(%+v, %+v) = %v, want %v", s, tool, got, want)
	}
	if CanInvokeTool(s, tool) && !(ToolPermitted(s, tool) && BudgetSufficient(s, tool)) {
		t.Fatalf("CanInvokeTool without permission and budget: %+v %+v", s, tool)
	}
	s2, r := ReactStep(s, a, Tools{tool})
	if r.Outcome == Invoke {
		if a.Kind != ActToolCall || a.Tool != tool.Name {
			t.Fatalf("Invoke for action %+v that does not call %q", a, tool.Name)
		}
		if MustRespond(s) || !ToolPermitted(s, tool) || !BudgetSufficient(s, tool) {
			t.Fatalf("Invoke although not allowed: state %+v tool %+v", s, tool)
		}
	} else if s2.TokenBudget != s.TokenBudget || s2.TimeBudget != s.TimeBudget {
		t.Fatalf("outcome %v spent budget: %+v -> %+v", r.Outcome, s, s2)
	}
	// Completeness: a permitted, affordable call in a live state does run.
	if a.Kind == ActToolCall && a.Tool == tool.Name && !MustRespond(s) && CanInvokeTool(s, tool) && r.Outcome != Invoke {
		t.Fatalf("permitted affordable call %+v got %v", a, r.Outcome)
	}
	if a.Kind == ActToolCall && a.Tool == tool.Name && !MustRespond(s) && !ToolPermitted(s, tool) && r.Outcome != Denied {
		t.Fatalf("forbidden call %+v got %v, want denied", a, r.Outcome)
	}
}

func TestTheoremPermissionSafety(t *testing.T) {
	t.Run("bounded", func(t *testing.T) {
		n := 0
		for s := range boundedStates() {
			for tool := range boundedTools() {
				for _, a := range boundedActions {
					propPermissionSafety(t, s, tool, a)
					n++
				}
			}
		}
		t.Logf("%d cases", n)
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		propPermissionSafety(t, validState().Draw(t, "s"), anyTool().Draw(t, "tool"), anyAction().Draw(t, "a"))
	}))
}

func propBudgetBounds(t tb, s State, tool ToolSpec) {
	t.Helper()
	s2 := DeductToolCost(s, tool)
	if s2.TokenBudget < 0 || s2.TokenBudget > s.TokenBudget || s2.TimeBudget < 0 || s2.TimeBudget > s.TimeBudget {
		t.Fatalf("budgets out of bounds: tokens %d -> %d, time %v -> %v (cost %d, %v)",
			s.TokenBudget, s2.TokenBudget, s.TimeBudget, s2.TimeBudget, tool.TokenCost, tool.TimeCost)
	}
	if BudgetSufficient(s, tool) && tool.TokenCost >= 0 && tool.TimeCost >= 0 &&
		(s2.TokenBudget != s.TokenBudget-tool.TokenCost || s2.TimeBudget != s.TimeBudget-tool.TimeCost) {
		t.Fatalf("affordable cost not deducted exactly: %+v -> %+v for %+v", s, s2, tool)
	}
	s2.TokenBudget, s2.TimeBudget = s.TokenBudget, s.TimeBudget
	if !reflect.DeepEqual(s, s2) {
		t.Fatalf("DeductToolCost changed more than the budgets")
	}
}

func TestTheoremBudgetBoundsAfterDeduct(t *testing.T) {
	t.Run("bounded", func(t *testing.T) {
		for s := range boundedStates() {
			for tool := range boundedTools() {
				propBudgetBounds(t, s, tool)
			}
			for _, neg := range []int{-1, math.MinInt} {
				propBudgetBounds(t, s, ToolSpec{TokenCost: neg, TimeCost: time.Duration(neg)})
			}
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		propBudgetBounds(t, validState().Draw(t, "s"), anyTool().Draw(t, "tool"))
	}))
}

func propErrorForcesRespond(t tb, s State, e ErrorKind, a Action) {
	t.Helper()
	if s.Err.IsError() && !MustRespond(s) {
		t.Fatalf("error state %v without MustRespond", s.Err)
	}
	if !e.IsError() {
		return
	}
	s2 := SetError(s, e)
	if !MustRespond(s2) {
		t.Fatalf("SetError(%v) does not force MustRespond", e)
	}
	s3, r := ReactStep(s2, a, Tools{{Name: "t"}})
	if r.Outcome != Refused || !reflect.DeepEqual(s3, s2) {
		t.Fatalf("ReactStep in error state: outcome %v, state changed %v", r.Outcome, !reflect.DeepEqual(s3, s2))
	}
}

func TestTheoremErrorStateForcesMustRespond(t *testing.T) {
	errs := []ErrorKind{NoError, ResourceExhausted(), PreconditionFailed("x"), ToolError("t", "m"), MaxIterations()}
	t.Run("bounded", func(t *testing.T) {
		for s := range boundedStates() {
			for _, e := range errs {
				for _, a := range boundedActions {
					propErrorForcesRespond(t, s, e, a)
				}
			}
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		propErrorForcesRespond(t, validState().Draw(t, "s"), anyErrorKind().Draw(t, "e"), anyAction().Draw(t, "a"))
	}))
}

// runToEnd applies actions until ReactStep refuses and returns how many ran.
func runToEnd(t tb, s State, next func(i int) Action, tools Tools) int {
	t.Helper()
	limit := RemainingSteps(s)
	for i := 0; ; i++ {
		if i > limit {
			t.Fatalf("ran %d steps from %+v; only %d remained", i, s, limit)
		}
		s2, r := ReactStep(s, next(i), tools)
		if r.Outcome == Refused {
			if !MustRespond(s) {
				t.Fatalf("refused without MustRespond")
			}
			return i
		}
		if s2.Step != s.Step+1 || s2.MaxSteps != s.MaxSteps {
			t.Fatalf("step %d: step %d -> %d, max %d -> %d", i, s.Step, s2.Step, s.MaxSteps, s2.MaxSteps)
		}
		s = s2
	}
}

func propTerminationLocal(t tb, s State, a Action) {
	t.Helper()
	if s.Step >= s.MaxSteps && !MustRespond(s) {
		t.Fatalf("step %d >= max %d without MustRespond", s.Step, s.MaxSteps)
	}
	s2, r := ReactStep(s, a, Tools{{Name: "t"}, {Name: "u", TokenCost: 1}})
	if r.Outcome != Refused && (s2.Step != s.Step+1 || RemainingSteps(s2) != RemainingSteps(s)-1) {
		t.Fatalf("a step that ran did not use one remaining step: %d -> %d", RemainingSteps(s), RemainingSteps(s2))
	}
}

func TestTheoremTerminationByMaxSteps(t *testing.T) {
	tools := Tools{{Name: "t"}, {Name: "u", Access: AccessWrite}}
	t.Run("bounded", func(t *testing.T) {
		for s := range boundedStates() {
			for _, a := range boundedActions {
				// The agent that never answers is the one that must be stopped.
				if a.Kind != ActFinalAnswer {
					runToEnd(t, s, func(int) Action { return a }, tools)
				}
				propTerminationLocal(t, s, a)
			}
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		s := validState().Draw(t, "s")
		propTerminationLocal(t, s, anyAction().Draw(t, "a"))
		// Whole runs need a step count we can afford to walk.
		s.MaxSteps = rapid.IntRange(0, 300).Draw(t, "maxSteps")
		s.Step = rapid.IntRange(0, 300).Draw(t, "step")
		actions := rapid.SliceOfN(anyAction(), 1, 20).Draw(t, "actions")
		runToEnd(t, s, func(i int) Action { return actions[i%len(actions)] }, tools)
	}))
}

func propStepIncreases(t tb, s State) {
	t.Helper()
	s2 := IncrementStep(s)
	if s.Step < math.MaxInt && s2.Step != s.Step+1 {
		t.Fatalf("IncrementStep: %d -> %d", s.Step, s2.Step)
	}
	if s2.Step < s.Step {
		t.Fatalf("IncrementStep decreased the step: %d -> %d", s.Step, s2.Step)
	}
	s2.Step = s.Step
	if !reflect.DeepEqual(s, s2) {
		t.Fatalf("IncrementStep changed more than the step")
	}
}

func TestTheoremStepIncreasesAfterIncrement(t *testing.T) {
	t.Run("bounded", func(t *testing.T) {
		for s := range boundedStates() {
			propStepIncreases(t, s)
		}
		propStepIncreases(t, State{Step: math.MaxInt})
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) { propStepIncreases(t, validState().Draw(t, "s")) }))
}

func propRemainingDecreases(t tb, s State) {
	t.Helper()
	before, after := RemainingSteps(s), RemainingSteps(IncrementStep(s))
	if before < 0 || after < 0 {
		t.Fatalf("negative remaining steps: %d, %d", before, after)
	}
	if before > 0 && after != before-1 {
		t.Fatalf("remaining %d -> %d after IncrementStep, want %d", before, after, before-1)
	}
	if before == 0 && after != 0 {
		t.Fatalf("remaining 0 -> %d after IncrementStep", after)
	}
}

func TestTheoremRemainingStepsDecreasesAfterIncrement(t *testing.T) {
	t.Run("bounded", func(t *testing.T) {
		for s := range boundedStates() {
			propRemainingDecreases(t, s)
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) { propRemainingDecreases(t, validState().Draw(t, "s")) }))
}

func propPartition(t tb, s State, threshold int) {
	t.Helper()
	c, r, sat := ShouldContinue(s, threshold), MustRespond(s), Satisfied(s, threshold)
	n := 0
	for _, b := range []bool{c, r, sat} {
		if b {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("continue=%v respond=%v satisfied=%v for %+v threshold %d", c, r, sat, s, threshold)
	}
	want := map[bool]Decision{c: DecideContinue, r: DecideRespond, sat: DecideSatisfied}[true]
	if d := Decide(s, threshold); d != want {
		t.Fatalf("Decide = %v, want %v", d, want)
	}
}

func TestTheoremDecisionPartition(t *testing.T) {
	t.Run("bounded", func(t *testing.T) {
		for s := range boundedStates() {
			for _, th := range boundThreshold {
				propPartition(t, s, th)
			}
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		propPartition(t, validState().Draw(t, "s"), anyInt().Draw(t, "threshold"))
	}))
}

func checkValid(t tb, name string, s State) {
	t.Helper()
	if err := Validate(s); err != nil {
		t.Fatalf("%s broke validity: %v", name, err)
	}
}

// propPreservesValidity checks the transitions that take no tool.
func propPreservesValidity(t tb, s State, n int, d time.Duration, e ErrorKind, m Message) {
	t.Helper()
	checkValid(t, "the domain", s)
	checkValid(t, "IncrementStep", IncrementStep(s))
	checkValid(t, "DeductUsage", DeductUsage(s, n, d))
	checkValid(t, "UpdateSatisfaction", UpdateSatisfaction(s, n))
	checkValid(t, "MarkDone", MarkDone(s))
	checkValid(t, "SetError", SetError(s, e))
	checkValid(t, "AddMessage", AddMessage(s, m))
}

// propToolPreservesValidity checks the transitions that take a tool.
func propToolPreservesValidity(t tb, s State, tool ToolSpec, a Action) {
	t.Helper()
	checkValid(t, "DeductToolCost", DeductToolCost(s, tool))
	next, _ := ReactStep(s, a, Tools{tool})
	checkValid(t, "ReactStep", next)
}

func TestTheoremTransitionsPreserveValidity(t *testing.T) {
	t.Run("bounded", func(t *testing.T) {
		for s := range boundedStates() {
			for _, n := range []int{math.MinInt, -1, 0, 50, 101, math.MaxInt} {
				propPreservesValidity(t, s, n, time.Duration(n), ErrorKind{Code: ErrorCode(n)}, boundMessages[1])
			}
			for tool := range boundedTools() {
				for _, a := range boundedActions {
					propToolPreservesValidity(t, s, tool, a)
				}
			}
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		s := validState().Draw(t, "s")
		propPreservesValidity(t, s, anyInt().Draw(t, "n"), time.Duration(rapid.Int64().Draw(t, "d")),
			ErrorKind{Code: ErrorCode(rapid.IntRange(-2, 7).Draw(t, "code"))}, anyMessage().Draw(t, "m"))
		propToolPreservesValidity(t, s, anyTool().Draw(t, "tool"), anyAction().Draw(t, "a"))
	}))
}

// controlView is everything a decision may depend on: the state without
// its messages and system prompt.
func controlView(s State) State {
	s.Messages, s.SystemPrompt = nil, ""
	return s
}

func propMessagesPreserveControl(t tb, s State, m Message, a Action, threshold int) {
	t.Helper()
	before := s.Clone()
	s2 := AddMessage(s, m)
	if !reflect.DeepEqual(s, before) {
		t.Fatalf("AddMessage changed its argument")
	}
	if len(s2.Messages) != len(s.Messages)+1 || !reflect.DeepEqual(s2.Messages[len(s.Messages)], m) {
		t.Fatalf("AddMessage did not append the message")
	}
	if !reflect.DeepEqual(controlView(s), controlView(s2)) {
		t.Fatalf("AddMessage changed control state: %+v -> %+v", controlView(s), controlView(s2))
	}
	if MustRespond(s) != MustRespond(s2) || Decide(s, threshold) != Decide(s2, threshold) || StopReason(s) != StopReason(s2) {
		t.Fatalf("AddMessage changed a decision")
	}
	tools := Tools{{Name: "t", Access: AccessRead, TokenCost: 1}}
	n1, r1 := ReactStep(s, a, tools)
	n2, r2 := ReactStep(s2, a, tools)
	if !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(controlView(n1), controlView(n2)) {
		t.Fatalf("ReactStep differs after AddMessage: %+v vs %+v", r1, r2)
	}
}

func TestTheoremMessagesPreserveControlFlow(t *testing.T) {
	t.Run("bounded", func(t *testing.T) {
		for s := range boundedStates() {
			for i, m := range boundMessages {
				s.Messages = boundMessages[:i]
				for _, a := range boundedActions {
					propMessagesPreserveControl(t, s, m, a, DefaultSatisfactionThreshold)
				}
			}
		}
	})
	t.Run("rapid", rapid.MakeCheck(func(t *rapid.T) {
		s := validState().Draw(t, "s")
		// Spare capacity is where an aliasing append would show.
		s.Messages = append(make([]Message, 0, len(s.Messages)+4), s.Messages...)
		propMessagesPreserveControl(t, s, anyMessage().Draw(t, "m"), anyAction().Draw(t, "a"), anyInt().Draw(t, "threshold"))
	}))
}
