package core

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Defaults of the verified-agent specification.
const (
	DefaultMaxSteps              = 100
	DefaultTokenBudget           = 10000
	DefaultTimeBudget            = 3600 * time.Second
	DefaultMaxContextTokens      = 8000
	DefaultSatisfactionThreshold = 80
	MaxSatisfaction              = 100
)

// Access is the file access level granted to the agent or required by a tool.
// Levels are ordered: a higher level includes the lower ones.
type Access int

// The file-access levels, each including the ones below it.
const (
	AccessNone  Access = 0
	AccessRead  Access = 1
	AccessWrite Access = 2
)

// String names the access level as --access spells it.
func (a Access) String() string {
	switch a {
	case AccessNone:
		return "none"
	case AccessRead:
		return "read"
	case AccessWrite:
		return "write"
	}
	return fmt.Sprintf("access(%d)", int(a))
}

// ParseAccess reads "none", "read" or "write" (the runner's --access flag).
func ParseAccess(s string) (Access, error) {
	switch s {
	case "none":
		return AccessNone, nil
	case "read":
		return AccessRead, nil
	case "write":
		return AccessWrite, nil
	}
	return 0, fmt.Errorf("access %q: want none, read or write", s)
}

// Role is the author of a message, as in the chat-completions protocol.
type Role string

// The chat roles of the OpenAI-compatible API.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// ToolCall is one function call requested by the model in an assistant message.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string // JSON text, exactly as the model sent it
}

// Message is one entry of the conversation. An assistant message may carry
// tool calls; a tool message answers the call whose ID it names.
type Message struct {
	Role       Role
	Content    string
	ToolCalls  []ToolCall
	ToolCallID string
}

// State is everything the decision functions look at. Messages and
// SystemPrompt never influence a decision (theorem
// messages-preserve-control-flow); they are carried so one value describes
// the agent completely.
type State struct {
	Step             int
	MaxSteps         int
	TokenBudget      int           // tokens left
	TimeBudget       time.Duration // time left
	FileAccess       Access
	ExecuteAllowed   bool
	Satisfaction     int // 0…100
	Done             bool
	Err              ErrorKind
	Messages         []Message
	MaxContextTokens int
	SystemPrompt     string
}

// NewState returns the specification's initial state: step 0, default
// budgets, no file access, no execution, no messages.
func NewState(systemPrompt string) State {
	return State{
		MaxSteps:         DefaultMaxSteps,
		TokenBudget:      DefaultTokenBudget,
		TimeBudget:       DefaultTimeBudget,
		MaxContextTokens: DefaultMaxContextTokens,
		SystemPrompt:     systemPrompt,
	}
}

// Validate reports the first way s breaks the state invariant: counters and
// budgets non-negative, access a known level, satisfaction within 0…100, a
// known error code. Step may exceed MaxSteps (MustRespond then holds).
func Validate(s State) error {
	var errs []error
	if s.Step < 0 {
		errs = append(errs, fmt.Errorf("step %d is negative", s.Step))
	}
	if s.MaxSteps < 0 {
		errs = append(errs, fmt.Errorf("max steps %d is negative", s.MaxSteps))
	}
	if s.TokenBudget < 0 {
		errs = append(errs, fmt.Errorf("token budget %d is negative", s.TokenBudget))
	}
	if s.TimeBudget < 0 {
		errs = append(errs, fmt.Errorf("time budget %v is negative", s.TimeBudget))
	}
	if s.FileAccess < AccessNone || s.FileAccess > AccessWrite {
		errs = append(errs, fmt.Errorf("file access %d is not none, read or write", int(s.FileAccess)))
	}
	if s.Satisfaction < 0 || s.Satisfaction > MaxSatisfaction {
		errs = append(errs, fmt.Errorf("satisfaction %d is outside 0…%d", s.Satisfaction, MaxSatisfaction))
	}
	if s.MaxContextTokens < 0 {
		errs = append(errs, fmt.Errorf("max context tokens %d is negative", s.MaxContextTokens))
	}
	if s.Err.Code < ErrNone || s.Err.Code > ErrMaxIterations {
		errs = append(errs, fmt.Errorf("error code %d is unknown", int(s.Err.Code)))
	}
	return errors.Join(errs...)
}

// Valid reports whether Validate finds nothing wrong.
func Valid(s State) bool { return Validate(s) == nil }

// withMessages returns s with its own copy of the message slice, so that
// appending to the result never writes into the caller's backing array.
func (s State) withMessages(extra ...Message) State {
	msgs := make([]Message, 0, len(s.Messages)+len(extra))
	msgs = append(msgs, s.Messages...)
	s.Messages = append(msgs, extra...)
	return s
}

// Clone returns s with its own copy of the messages.
func (s State) Clone() State {
	s = s.withMessages()
	for i := range s.Messages {
		s.Messages[i].ToolCalls = slices.Clone(s.Messages[i].ToolCalls)
	}
	return s
}
