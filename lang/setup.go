package lang

// SetupError is a frontend's failure that lies in the environment, not in the change: a
// tool the frontend needs to verify its language (pyright for Python) is missing or
// unusable. The verification then fails as a usage error does (exit 2, one line that
// says how to install the tool) instead of reporting a finding: nothing about the code
// was learnt, and the fix is the user's, not the agent's.
type SetupError struct{ Err error }

// Error is the tool's error, which says how to install it.
func (e *SetupError) Error() string { return e.Err.Error() }

// Unwrap returns the tool's error.
func (e *SetupError) Unwrap() error { return e.Err }
