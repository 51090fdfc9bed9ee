package core

import (
	"fmt"
	"math"
	"time"
)

// ToolPermitted reports whether the granted access covers the tool's and
// execution is allowed when the tool needs it.
func ToolPermitted(s State, t ToolSpec) bool {
	return s.FileAccess >= t.Access && (!t.RequiresExecute || s.ExecuteAllowed)
}

// BudgetSufficient reports whether both budgets cover one call of the tool.
func BudgetSufficient(s State, t ToolSpec) bool {
	return s.TokenBudget >= t.TokenCost && s.TimeBudget >= t.TimeCost
}

// CanInvokeTool is ToolPermitted and BudgetSufficient.
func CanInvokeTool(s State, t ToolSpec) bool {
	return ToolPermitted(s, t) && BudgetSufficient(s, t)
}

// MustRespond reports whether the agent has to stop acting and answer:
// done, in an error state, out of steps, or out of a budget.
func MustRespond(s State) bool {
	return s.Done || s.Err.IsError() || s.Step >= s.MaxSteps || s.TokenBudget <= 0 || s.TimeBudget <= 0
}

// ShouldContinue reports whether the agent should take another step: it
// need not respond yet and is not satisfied with its work.
func ShouldContinue(s State, threshold int) bool {
	return !MustRespond(s) && s.Satisfaction < threshold
}

// Satisfied reports whether the agent may stop by choice: it need not
// respond and its satisfaction reached the threshold.
func Satisfied(s State, threshold int) bool {
	return !MustRespond(s) && s.Satisfaction >= threshold
}

// Decision is the three-way partition of states (theorem decision-partition):
// exactly one of ShouldContinue, MustRespond and Satisfied holds.
type Decision int

// The three decisions.
const (
	DecideContinue Decision = iota
	DecideRespond
	DecideSatisfied
)

// String names the decision.
func (d Decision) String() string {
	switch d {
	case DecideContinue:
		return "continue"
	case DecideRespond:
		return "respond"
	case DecideSatisfied:
		return "satisfied"
	}
	return fmt.Sprintf("decision(%d)", int(d))
}

// Decide returns which part of the partition s falls in.
func Decide(s State, threshold int) Decision {
	switch {
	case MustRespond(s):
		return DecideRespond
	case s.Satisfaction >= threshold:
		return DecideSatisfied
	}
	return DecideContinue
}

// StopReason says why MustRespond holds, or "" when it does not. The first
// matching reason wins, in the order done, error, steps, tokens, time.
func StopReason(s State) string {
	switch {
	case s.Done:
		return "done"
	case s.Err.IsError():
		return s.Err.String()
	case s.Step >= s.MaxSteps:
		return fmt.Sprintf("max steps reached (%d)", s.MaxSteps)
	case s.TokenBudget <= 0:
		return "token budget exhausted"
	case s.TimeBudget <= 0:
		return "time budget exhausted"
	}
	return ""
}

// RemainingSteps is how many steps the agent may still take, never negative.
func RemainingSteps(s State) int {
	if s.Step >= s.MaxSteps {
		return 0
	}
	return s.MaxSteps - s.Step
}

// IncrementStep advances the step counter by one (saturating at the
// largest int, where it can no longer be below any MaxSteps).
func IncrementStep(s State) State {
	if s.Step < math.MaxInt {
		s.Step++
	}
	return s
}

// DeductUsage subtracts tokens and elapsed time from the budgets, saturating
// at zero. Negative amounts count as zero: a deduction never raises a budget.
func DeductUsage(s State, tokens int, elapsed time.Duration) State {
	s.TokenBudget = saturatingSub(s.TokenBudget, tokens)
	s.TimeBudget = time.Duration(saturatingSub(int64(s.TimeBudget), int64(elapsed)))
	return s
}

// DeductToolCost subtracts one call's cost of t from the budgets (see DeductUsage).
func DeductToolCost(s State, t ToolSpec) State {
	return DeductUsage(s, t.TokenCost, t.TimeCost)
}

func saturatingSub[N int | int64](budget, amount N) N {
	if amount <= 0 {
		return budget
	}
	if budget <= amount {
		return 0
	}
	return budget - amount
}

// UpdateSatisfaction sets the satisfaction, clamped into 0…100.
func UpdateSatisfaction(s State, v int) State {
	s.Satisfaction = min(max(v, 0), MaxSatisfaction)
	return s
}

// MarkDone records that the agent gave its final answer.
func MarkDone(s State) State {
	s.Done = true
	return s
}

// SetError puts the agent into the error state e. An unknown error code
// is recorded as precondition-failed so the state stays valid.
func SetError(s State, e ErrorKind) State {
	if e.Code < ErrNone || e.Code > ErrMaxIterations {
		e = PreconditionFailed(fmt.Sprintf("unknown error code %d", int(e.Code)))
	}
	s.Err = e
	return s
}

// AddMessage appends m to the conversation. It never touches anything a
// decision reads, and never writes into the caller's message slice.
func AddMessage(s State, m Message) State {
	return s.withMessages(m)
}

// Outcome is what ReactStep decided about an action.
type Outcome int

const (
	// Refused: MustRespond held, nothing changed; the caller must answer.
	Refused Outcome = iota
	// Invoke: the tool may run; its cost is already deducted.
	Invoke
	// Denied: the tool call is not allowed (unknown tool, access or
	// execution missing); the step counts, and Err says why so the model
	// can be told. The agent is not put into an error state.
	Denied
	// Exhausted: the tool is permitted but a budget cannot pay for it; the
	// agent is now in the resource-exhausted error state.
	Exhausted
	// Answered: the final answer was accepted; the agent is done.
	Answered
	// Idle: the model proposed nothing; the step counts.
	Idle
)

// String names the outcome.
func (o Outcome) String() string {
	switch o {
	case Refused:
		return "refused"
	case Invoke:
		return "invoke"
	case Denied:
		return "denied"
	case Exhausted:
		return "exhausted"
	case Answered:
		return "answered"
	case Idle:
		return "idle"
	}
	return fmt.Sprintf("outcome(%d)", int(o))
}

// StepResult is ReactStep's verdict on one action.
type StepResult struct {
	Outcome Outcome
	Tool    ToolSpec  // the tool looked up, for Invoke, Denied (if known) and Exhausted
	Err     ErrorKind // why a call was Denied or Exhausted
}

// Tools is the set of tools the agent knows, looked up by name.
type Tools []ToolSpec

// Lookup returns the first tool named name.
func (ts Tools) Lookup(name string) (ToolSpec, bool) {
	for _, t := range ts {
		if t.Name == name {
			return t, true
		}
	}
	return ToolSpec{}, false
}

// ReactStep is one act of the ReAct loop. It refuses to run when
// MustRespond holds (the state is returned unchanged); otherwise every
// action takes exactly one step, and a tool call is only ever answered with
// Invoke when CanInvokeTool holds (theorem permission-safety).
func ReactStep(s State, a Action, tools Tools) (State, StepResult) {
	if MustRespond(s) {
		return s, StepResult{Outcome: Refused}
	}
	switch a.Kind {
	case ActToolCall:
		t, ok := tools.Lookup(a.Tool)
		if !ok {
			return IncrementStep(s), StepResult{Outcome: Denied,
				Err: PreconditionFailed(fmt.Sprintf("unknown tool %q", a.Tool))}
		}
		if !ToolPermitted(s, t) {
			return IncrementStep(s), StepResult{Outcome: Denied, Tool: t, Err: PreconditionFailed(denyReason(s, t))}
		}
		if !BudgetSufficient(s, t) {
			e := ResourceExhausted()
			return SetError(IncrementStep(s), e), StepResult{Outcome: Exhausted, Tool: t, Err: e}
		}
		return IncrementStep(DeductToolCost(s, t)), StepResult{Outcome: Invoke, Tool: t}
	case ActFinalAnswer:
		return MarkDone(IncrementStep(s)), StepResult{Outcome: Answered}
	default:
		return IncrementStep(s), StepResult{Outcome: Idle}
	}
}

func denyReason(s State, t ToolSpec) string {
	if s.FileAccess < t.Access {
		return fmt.Sprintf("tool %q needs %s access; granted %s", t.Name, t.Access, s.FileAccess)
	}
	return fmt.Sprintf("tool %q runs commands; execution is not allowed", t.Name)
}
