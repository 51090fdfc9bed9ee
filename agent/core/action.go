package core

import (
	"fmt"
	"time"
)

// ToolSpec is what the decision logic knows about a tool: the access and
// execution it needs, what one call costs, and the capability the guard
// checks.
type ToolSpec struct {
	Name            string
	Access          Access
	RequiresExecute bool
	TokenCost       int
	TimeCost        time.Duration
	Capability      string
}

// ActionKind tells the three actions apart.
type ActionKind int

// The action kinds.
const (
	ActNone ActionKind = iota
	ActToolCall
	ActFinalAnswer
)

// String names the action kind as the audit log writes it.
func (k ActionKind) String() string {
	switch k {
	case ActNone:
		return "no-action"
	case ActToolCall:
		return "tool-call"
	case ActFinalAnswer:
		return "final-answer"
	}
	return fmt.Sprintf("action(%d)", int(k))
}

// Action is what the model proposed: call a tool with an input, give the
// final answer, or nothing.
type Action struct {
	Kind   ActionKind
	Tool   string
	Input  string
	Answer string
}

// CallTool is the tool-call action.
func CallTool(tool, input string) Action { return Action{Kind: ActToolCall, Tool: tool, Input: input} }

// FinalAnswer is the final-answer action.
func FinalAnswer(answer string) Action { return Action{Kind: ActFinalAnswer, Answer: answer} }

// NoAction is the action of a turn that proposed nothing.
func NoAction() Action { return Action{Kind: ActNone} }
