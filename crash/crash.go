// Package crash turns a panic into an error that names where it happened, so that a bug
// in a dimension, a frontend or a loader becomes one `<dimension>/internal-error` line
// (exit 2) instead of a stack dump that kills the process and every other dimension's
// result with it (design.md §7). A panic is recovered only by a deferred call in its own
// goroutine: every goroutine the project starts defers Recover (or runs under a Group),
// which TestEveryGoroutineRecovers enforces.
package crash

import (
	"fmt"
	"path"
	"runtime"
	"strings"
	"sync"
)

// Module is the import path of agentverify's own code: the first frame under it is
// where a panic is reported.
const Module = "github.com/agentverify/agentverify"

// Error is a recovered panic.
type Error struct {
	// Value is what was passed to panic.
	Value any
	// Where is the innermost frame of agentverify's own code, as
	// "load.(*stream).check (lang/golang/load/stream.go:359)"; "" when none is on the stack.
	Where string
	// Inner is the innermost frame outside the runtime when it is not ours (a panic
	// inside go/types), as "go/types.(*Checker).objDecl"; else "".
	Inner string
}

// Error is one line: the panic's value and where it happened.
func (e *Error) Error() string {
	return "panicked: " + oneLine(fmt.Sprint(e.Value)) + e.Site()
}

// Site is where the panic happened, as Error words it after the value: " at WHERE",
// " in INNER, called from WHERE", " in INNER", or "" when nothing is known. A caller
// that words its own message ("the python frontend crashed: VALUE") appends it.
func (e *Error) Site() string {
	switch {
	case e.Inner != "" && e.Where != "":
		return " in " + e.Inner + ", called from " + e.Where
	case e.Inner != "":
		return " in " + e.Inner
	case e.Where != "":
		return " at " + e.Where
	}
	return ""
}

// Unwrap returns the panic's value when it is an error (a runtime.Error, say).
func (e *Error) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Recover, deferred directly (`defer crash.Recover(&err)`), turns a panic of the calling
// goroutine into an *Error stored in *err. A panic whose value is already an *Error (one
// re-raised from another goroutine by Group.Wait's caller) keeps its place.
func Recover(err *error) {
	if r := recover(); r != nil {
		*err = New(r)
	}
}

// New returns the *Error of a value just recovered; it must be called from the deferred
// function that recovered it, while the panicking frames are still on the stack.
func New(r any) *Error {
	if e, ok := r.(*Error); ok {
		return e
	}
	e := &Error{Value: r}
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	panicking := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic" || strings.HasPrefix(f.Function, "runtime.panic"):
			panicking = true // the frames below are the panicking code's
		case !panicking || strings.HasPrefix(f.Function, "runtime."):
		case strings.HasPrefix(f.Function, Module+"/") || strings.HasPrefix(f.Function, Module+"."):
			e.Where = frame(f)
			return e
		case e.Inner == "":
			e.Inner = f.Function
		}
		if !more {
			return e
		}
	}
}

// frame writes a frame of ours as the function (qualified by its package's name) and
// the module-relative file and line: "load.(*stream).check (lang/golang/load/stream.go:359)".
func frame(f runtime.Frame) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(f.Function, Module), "/")
	head := rel
	if i := strings.IndexAny(head, "(["); i >= 0 {
		head = head[:i] // type arguments and receivers may hold slashes and dots
	}
	dir, name := "", "agentverify"+rel // the root package: ".(*Checker).Check"
	if !strings.HasPrefix(rel, ".") {
		slash := strings.LastIndex(head, "/") + 1
		dot := strings.Index(head[slash:], ".")
		if dot < 0 {
			dot = len(head) - slash
		}
		dir, name = strings.TrimSuffix(rel[:slash+dot], "_test"), rel[slash:]
	}
	return fmt.Sprintf("%s (%s:%d)", name, path.Join(dir, path.Base(f.File)), f.Line)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Group runs goroutines that must not crash the process: a panic in one is recovered and
// kept (the first one), and Wait returns it. Its zero value is ready to use.
type Group struct {
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

// Go runs fn in a new goroutine.
func (g *Group) Go(fn func()) {
	g.wg.Go(func() {
		var err error
		defer func() {
			if err != nil {
				g.once.Do(func() { g.err = err })
			}
		}()
		defer Recover(&err)
		fn()
	})
}

// Wait waits for every goroutine and returns the first panic as an *Error, or nil. A
// caller with no error to return re-raises it in its own goroutine (panic(err)), where the
// engine's recover reports it with the place it first happened.
func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}
