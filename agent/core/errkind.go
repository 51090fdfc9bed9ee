package core

import "fmt"

// ErrorCode classifies why the agent stopped with an error.
type ErrorCode int

// The error codes; ErrNone means no error.
const (
	ErrNone ErrorCode = iota
	ErrResourceExhausted
	ErrPreconditionFailed
	ErrToolError
	ErrMaxIterations
)

// String names the error code.
func (c ErrorCode) String() string {
	switch c {
	case ErrNone:
		return "none"
	case ErrResourceExhausted:
		return "resource-exhausted"
	case ErrPreconditionFailed:
		return "precondition-failed"
	case ErrToolError:
		return "tool-error"
	case ErrMaxIterations:
		return "max-iterations"
	}
	return fmt.Sprintf("error-code(%d)", int(c))
}

// ErrorKind is the agent's error state. Reason is set for
// precondition-failed; Tool and Message for tool-error. The zero value is
// "no error".
type ErrorKind struct {
	Code    ErrorCode
	Reason  string
	Tool    string
	Message string
}

// NoError is the zero ErrorKind.
var NoError = ErrorKind{}

// ResourceExhausted is the error of a budget that ran out.
func ResourceExhausted() ErrorKind { return ErrorKind{Code: ErrResourceExhausted} }

// PreconditionFailed is the error of an action whose precondition did not hold.
func PreconditionFailed(reason string) ErrorKind {
	return ErrorKind{Code: ErrPreconditionFailed, Reason: reason}
}

// ToolError is the error of a tool (or the model server) that failed.
func ToolError(tool, message string) ErrorKind {
	return ErrorKind{Code: ErrToolError, Tool: tool, Message: message}
}

// MaxIterations is the error of a run that used all its steps.
func MaxIterations() ErrorKind { return ErrorKind{Code: ErrMaxIterations} }

// IsError reports whether e is an error state (anything but none).
func (e ErrorKind) IsError() bool { return e.Code != ErrNone }

// String describes the error with its code.
func (e ErrorKind) String() string {
	switch e.Code {
	case ErrPreconditionFailed:
		return "precondition-failed: " + e.Reason
	case ErrToolError:
		return "tool-error: " + e.Tool + ": " + e.Message
	}
	return e.Code.String()
}
