package guard

import "fmt"

// Kind is the severity of a verdict, ordered from harmless to fatal.
type Kind int

// The verdict kinds, from harmless to fatal.
const (
	Allow Kind = iota
	Warn
	Block
	CircuitBreak
)

// String names the verdict kind.
func (k Kind) String() string {
	switch k {
	case Allow:
		return "allow"
	case Warn:
		return "warn"
	case Block:
		return "block"
	case CircuitBreak:
		return "circuit-break"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Verdict is the guard's answer to one check. Invariant names the contract
// invariant that produced it ("" for Allow); Message is written for the
// model (for Block) or the operator (for Warn and CircuitBreak).
type Verdict struct {
	Kind      Kind
	Invariant string
	Message   string
}

// Allowed is the verdict of a check that found nothing.
var Allowed = Verdict{Kind: Allow}

// String describes the verdict for logs.
func (v Verdict) String() string {
	if v.Kind == Allow {
		return "allow"
	}
	return fmt.Sprintf("%s [%s]: %s", v.Kind, v.Invariant, v.Message)
}

// Stops reports whether the action must not go ahead (Block or CircuitBreak).
func (v Verdict) Stops() bool { return v.Kind >= Block }

func verdict(k Kind, inv, format string, args ...any) Verdict {
	return Verdict{Kind: k, Invariant: inv, Message: fmt.Sprintf(format, args...)}
}
