package hallucination

import (
	"fmt"

	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/policy"
)

// vetDoc ends the doc of every rule of a go vet analyzer.
const vetDoc = " Reported by go vet's analyzer of the same name (golang.org/x/tools/go/analysis/passes), run on the type information agentverify already has; " +
	"the policy turns it off with `rules: {%s: off}`."

// vetRule declares the rule of one go vet analyzer: hallucination/vet-NAME, an error by
// default, as `go vet` fails on it (design.md §5).
func vetRule(id, short, doc string) *check.Rule {
	return &check.Rule{ID: id, Default: policy.Error, Short: short, Doc: doc + fmt.Sprintf(vetDoc, id)}
}

// vetRules are the rules of the analyzers `go vet` runs by default (lang/golang/vet.Suite),
// but stdversion, whose findings are api-too-new.
var vetRules = []*check.Rule{
	vetRule("hallucination/vet-appends", "append called with a slice and no values",
		"`append(s)` with nothing to append does nothing; the values were forgotten."),
	vetRule("hallucination/vet-asmdecl", "an assembly function does not match its Go declaration",
		"An assembly (.s) function's frame, argument names, sizes or offsets disagree with the Go declaration of the function it implements."),
	vetRule("hallucination/vet-assign", "a variable is assigned to itself",
		"`x = x` has no effect; usually another variable or field was meant."),
	vetRule("hallucination/vet-atomic", "the result of an atomic update is assigned to the updated variable",
		"`x = atomic.AddUint64(&x, 1)` races: the atomic call already stores the new value, and the assignment is not atomic."),
	vetRule("hallucination/vet-bools", "a boolean expression is redundant or always decided",
		"A condition repeats an operand (`e && e`), or decides itself (`x != a || x != b` is always true): the code does not test what it means to."),
	vetRule("hallucination/vet-buildtag", "a build constraint is malformed or misplaced",
		"A `//go:build` or `// +build` line is malformed, misplaced (after the package clause) or disagrees with the other; the go command may build the file where it should not, or not at all."),
	vetRule("hallucination/vet-cgocall", "a Go pointer is passed to C in a way cgo forbids",
		"A cgo call passes a value containing Go pointers that the cgo pointer-passing rules forbid; the program may crash at run time."),
	vetRule("hallucination/vet-composites", "a literal of another package's struct type has unkeyed fields",
		"A composite literal of a struct type imported from another package lists its fields by position; a field added to that type breaks it or silently shifts the values."),
	vetRule("hallucination/vet-copylocks", "a value containing a lock is copied",
		"A sync.Mutex, sync.WaitGroup or other type that must not be copied is passed, returned, assigned or ranged over by value; the copy guards nothing."),
	vetRule("hallucination/vet-defers", "a deferred call's arguments are evaluated too early",
		"`defer log.Println(time.Since(start))` measures nothing: the arguments of a deferred call are evaluated when the defer statement runs."),
	vetRule("hallucination/vet-directive", "a //go: directive is misplaced or malformed",
		"A known `//go:` directive (such as `//go:debug`) is malformed or in a place the toolchain ignores, so it has no effect."),
	vetRule("hallucination/vet-errorsas", "errors.As is not given a pointer to an error type",
		"The second argument to errors.As must be a non-nil pointer to an interface or to a type implementing error; otherwise the call panics."),
	vetRule("hallucination/vet-framepointer", "assembly clobbers the frame pointer",
		"An assembly function writes the frame pointer register before saving it, which breaks profilers and tracebacks."),
	vetRule("hallucination/vet-httpresponse", "an HTTP response is used before its error is checked",
		"`resp.Body` is used (often deferred Close) before checking the error of the request; when the request fails, resp is nil and the program panics."),
	vetRule("hallucination/vet-hostport", "an address is built with fmt.Sprintf where net.JoinHostPort belongs",
		"`fmt.Sprintf(\"%s:%d\", host, port)` passed to net.Dial breaks on IPv6 hosts; net.JoinHostPort adds the brackets they need."),
	vetRule("hallucination/vet-ifaceassert", "an interface type assertion can never succeed",
		"A type assertion or type switch case from one interface to another whose methods conflict can never succeed."),
	vetRule("hallucination/vet-loopclosure", "a closure captures a loop variable that the loop changes",
		"Before Go 1.22 (the module's go directive decides), a goroutine or deferred closure started in a loop sees the loop variable's last value, not the value of its iteration."),
	vetRule("hallucination/vet-lostcancel", "the cancel function of a context is not called on every path",
		"The cancel function returned by context.WithCancel, WithTimeout or WithDeadline is discarded or not called on every path to a return, leaking the context's resources until its parent ends."),
	vetRule("hallucination/vet-nilfunc", "a function is compared with nil",
		"A declared function is never nil; the comparison is always decided and the call was probably meant."),
	vetRule("hallucination/vet-printf", "a format string does not match its arguments",
		"A call to fmt.Printf, log.Printf, t.Errorf, fmt.Errorf or a function that forwards to one has a format string whose directives do not match the arguments (wrong count or type, %w outside fmt.Errorf, an unknown verb), or a non-constant format string with no arguments. Wrappers are recognised among the packages of the change (diff) or of the module (check), design.md §5."),
	vetRule("hallucination/vet-shift", "a shift equals or exceeds the operand's width",
		"A constant shift count equals or exceeds the width of the shifted integer, so the result is always 0 (or -1)."),
	vetRule("hallucination/vet-sigchanyzer", "signal.Notify is given an unbuffered channel",
		"signal.Notify does not block when sending; a signal that arrives before the receiver is ready is lost on an unbuffered channel."),
	vetRule("hallucination/vet-slog", "a log/slog call has mismatched key-value pairs",
		"A log/slog call passes a key without a value, or a value where a string key or slog.Attr belongs."),
	vetRule("hallucination/vet-stdmethods", "a well-known method name has the wrong signature",
		"A method named like one of a standard interface (String, Format, MarshalJSON, ReadByte, …) has another signature, so the type does not implement the interface it seems to."),
	vetRule("hallucination/vet-stringintconv", "string(x) converts an integer to a rune, not to digits",
		"`string(i)` of an integer yields the UTF-8 encoding of code point i, not its decimal digits."),
	vetRule("hallucination/vet-structtag", "a struct tag is malformed or repeats a key",
		"A struct field tag does not follow the `key:\"value\"` convention, or two fields claim the same JSON or XML name; encoding packages then ignore or mangle the field."),
	vetRule("hallucination/vet-testinggoroutine", "t.Fatal is called from a goroutine the test started",
		"t.Fatal, t.FailNow and t.Skip stop only the goroutine that calls them; from another goroutine they do not stop the test."),
	vetRule("hallucination/vet-tests", "a test, benchmark, fuzz test or example is malformed",
		"A Test, Benchmark, Fuzz or Example function has a malformed name or signature, or an example refers to an unknown identifier; `go test` ignores or rejects it."),
	vetRule("hallucination/vet-timeformat", "a time layout uses 2006-02-01",
		"The layout 2006-02-01 (yyyy-dd-mm) is almost always a mistake for 2006-01-02 (yyyy-mm-dd)."),
	vetRule("hallucination/vet-unmarshal", "a non-pointer is passed to an unmarshal function",
		"json.Unmarshal, xml.Unmarshal, gob's Decode and their kin need a pointer to fill; a value is filled nowhere."),
	vetRule("hallucination/vet-unreachable", "code after a return or panic never runs",
		"Statements follow a return, panic, infinite loop or other statement that never completes; they never run."),
	vetRule("hallucination/vet-unsafeptr", "a uintptr is converted to unsafe.Pointer invalidly",
		"A uintptr held in a variable is converted back to unsafe.Pointer; the garbage collector may have moved or freed the object meanwhile."),
	vetRule("hallucination/vet-unusedresult", "the result of a function without side effects is not used",
		"The result of a call such as fmt.Sprintf, errors.New or strings.TrimSpace is dropped; the call does nothing else."),
	vetRule("hallucination/vet-waitgroup", "WaitGroup.Add is called inside the goroutine it counts",
		"`go func() { wg.Add(1); … }()` races with wg.Wait, which may return before Add runs; call Add before the go statement, or use wg.Go."),
}

// RuleBuildError is reported for what the go command rejects though the type checker
// accepts it.
const RuleBuildError = "hallucination/build-error"

var ruleBuildError = &check.Rule{
	ID: RuleBuildError, Default: policy.Error, Short: "the go command rejects the package",
	Doc: "`go build` rejects the package for a reason outside the type checker: a `//go:embed` pattern that matches no file (or only files it cannot embed), " +
		"a malformed `//go:build` line, an import cycle, two package names in one directory. The package does not build, whatever the rest of the code.",
}
