package core

import (
	"strings"
	"testing"
	"time"
)

func TestValidateRejectsEachBrokenField(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(*State)
		want   string
	}{
		{"step", func(s *State) { s.Step = -1 }, "step -1 is negative"},
		{"maxSteps", func(s *State) { s.MaxSteps = -1 }, "max steps"},
		{"tokens", func(s *State) { s.TokenBudget = -5 }, "token budget -5"},
		{"time", func(s *State) { s.TimeBudget = -time.Second }, "time budget"},
		{"access", func(s *State) { s.FileAccess = 3 }, "file access 3"},
		{"satisfaction", func(s *State) { s.Satisfaction = 101 }, "satisfaction 101"},
		{"context", func(s *State) { s.MaxContextTokens = -1 }, "max context tokens"},
		{"err", func(s *State) { s.Err.Code = 42 }, "error code 42"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewState("sys")
			if err := Validate(s); err != nil {
				t.Fatalf("NewState invalid: %v", err)
			}
			tc.break_(&s)
			err := Validate(s)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate = %v, want mention of %q", err, tc.want)
			}
		})
	}
}

func TestNewStateDefaults(t *testing.T) {
	s := NewState("be careful")
	if s.MaxSteps != 100 || s.TokenBudget != 10000 || s.TimeBudget != time.Hour || s.MaxContextTokens != 8000 ||
		s.FileAccess != AccessNone || s.ExecuteAllowed || s.SystemPrompt != "be careful" {
		t.Fatalf("NewState = %+v", s)
	}
	if MustRespond(s) || Decide(s, DefaultSatisfactionThreshold) != DecideContinue {
		t.Fatalf("a fresh agent must be able to act")
	}
}

func TestParseAccess(t *testing.T) {
	for in, want := range map[string]Access{"none": AccessNone, "read": AccessRead, "write": AccessWrite} {
		got, err := ParseAccess(in)
		if err != nil || got != want || got.String() != in {
			t.Fatalf("ParseAccess(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseAccess("Write"); err == nil || !strings.Contains(err.Error(), `"Write"`) {
		t.Fatalf("ParseAccess(Write) error = %v", err)
	}
}

func TestReactStepOutcomes(t *testing.T) {
	tools := Tools{
		{Name: "read_file", Access: AccessRead, TokenCost: 10, TimeCost: time.Second},
		{Name: "write_file", Access: AccessWrite, TokenCost: 10},
		{Name: "run_command", RequiresExecute: true},
		{Name: "pricey", TokenCost: 1 << 30},
	}
	base := NewState("")
	base.FileAccess = AccessRead
	for _, tc := range []struct {
		name    string
		s       State
		a       Action
		outcome Outcome
		step    int
		tokens  int
		errIn   string // substring of StepResult.Err
		stop    string // StopReason after the step
	}{
		{"read runs", base, CallTool("read_file", `{"path":"a"}`), Invoke, 1, 9990, "", ""},
		{"write denied", base, CallTool("write_file", `{}`), Denied, 1, 10000, `needs write access; granted read`, ""},
		{"exec denied", base, CallTool("run_command", `{}`), Denied, 1, 10000, "execution is not allowed", ""},
		{"unknown tool", base, CallTool("rm_rf", `{}`), Denied, 1, 10000, `unknown tool "rm_rf"`, ""},
		{"over budget", base, CallTool("pricey", `{}`), Exhausted, 1, 10000, "resource-exhausted", "resource-exhausted"},
		{"answer", base, FinalAnswer("done"), Answered, 1, 10000, "", "done"},
		{"idle", base, NoAction(), Idle, 1, 10000, "", ""},
		{"refused at max", func() State { s := base; s.Step = 100; return s }(), NoAction(), Refused, 100, 10000, "", "max steps reached (100)"},
		{"refused no tokens", func() State { s := base; s.TokenBudget = 0; return s }(), CallTool("read_file", ""), Refused, 0, 0, "", "token budget exhausted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, r := ReactStep(tc.s, tc.a, tools)
			if r.Outcome != tc.outcome || s.Step != tc.step || s.TokenBudget != tc.tokens {
				t.Fatalf("got outcome %v step %d tokens %d, want %v %d %d", r.Outcome, s.Step, s.TokenBudget, tc.outcome, tc.step, tc.tokens)
			}
			if tc.errIn != "" && !strings.Contains(r.Err.String(), tc.errIn) {
				t.Fatalf("Err = %q, want %q", r.Err, tc.errIn)
			}
			if got := StopReason(s); got != tc.stop {
				t.Fatalf("StopReason = %q, want %q", got, tc.stop)
			}
		})
	}
}

func TestErrorKindString(t *testing.T) {
	for e, want := range map[ErrorKind]string{
		NoError:                      "none",
		ResourceExhausted():          "resource-exhausted",
		PreconditionFailed("no"):     "precondition-failed: no",
		ToolError("llm", "HTTP 500"): "tool-error: llm: HTTP 500",
		MaxIterations():              "max-iterations",
	} {
		if e.String() != want {
			t.Errorf("%#v.String() = %q, want %q", e, e.String(), want)
		}
	}
	if s := SetError(State{}, ErrorKind{Code: 77}); s.Err.Code != ErrPreconditionFailed || !Valid(s) {
		t.Fatalf("SetError with unknown code = %+v", s.Err)
	}
}
