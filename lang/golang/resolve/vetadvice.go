package resolve

import "strings"

// vetAdvices say what to do about go vet's most frequent diagnostics, whose messages
// say only what is wrong. The first entry whose analyzer matches and whose text the
// message contains applies.
var vetAdvices = []struct {
	analyzer, contains, advice string
}{
	{"printf", "does not support error-wrapping directive %w", "use %v to print the error; only fmt.Errorf wraps an error with %w"},
	{"printf", "of wrong type", "use a verb that fits the argument's type (%v prints any value)"},
	{"printf", " call needs ", "pass one argument per formatting directive"},
	{"printf", "reads arg #", "pass one argument per formatting directive"},
	{"printf", "call has possible Printf formatting directive", "call the formatting variant (the name ending in f) or drop the directive"},
	{"printf", "call has arguments but no formatting directives", "add the directives the arguments need, or call the variant without f"},
	{"printf", "is a func value, not called", "call the function, or print it with %p"},
	{"copylocks", "passes lock by value", "pass a pointer: a copied lock does not guard the original"},
	{"copylocks", "copies lock", "use a pointer: a copied lock does not guard the original"},
	{"lostcancel", "", "call the cancel function on every path, usually with defer cancel() right after the call"},
	{"unusedresult", "", "use the result: the call has no other effect"},
	{"httpresponse", "", "check the error before using the response (defer resp.Body.Close() after the check)"},
	{"errorsas", "", "pass a non-nil pointer to a variable of an error type or interface: errors.As(err, &target)"},
	{"loopclosure", "", "copy the variable inside the loop (v := v) before the closure captures it, or raise the go directive to 1.22 or later in a reviewed change"},
	{"testinggoroutine", "", "report with t.Error and return from the goroutine: FailNow only stops the goroutine that calls it"},
	{"waitgroup", "", "call wg.Add before the go statement, or start the goroutine with wg.Go"},
	{"defers", "", "defer a closure that calls time.Since when the deferred call runs: defer func() { … time.Since(start) … }()"},
	{"unmarshal", "", "pass a pointer to the value to fill"},
	{"structtag", "", `write the tag as space-separated key:"value" pairs, one per key`},
	{"stdmethods", "", "give the method the signature the interface its name belongs to expects, or rename it"},
	{"tests", "", "follow the naming and signatures `go test` expects"},
	{"nilfunc", "", "call the function, or compare a function variable: a declared function is never nil"},
	{"bools", "", "simplify the condition: one operand decides it or repeats another"},
	{"assign", "", "remove the assignment, or assign what was meant"},
	{"atomic", "", "do not assign the result of an atomic.Add* to the variable it updates: the call already stores it"},
	{"stringintconv", "", "use string(rune(x)) for a code point or strconv.Itoa(x) for decimal digits"},
	{"unsafeptr", "", "convert the uintptr back to unsafe.Pointer in the same expression that computed it"},
	{"shift", "", "shift by less than the operand's width"},
	{"ifaceassert", "", "the assertion can never succeed: the two interfaces' methods conflict"},
	{"appends", "", "pass the values to append"},
	{"slog", "", "pass alternating string keys and values, or slog.Attr values"},
	{"composites", "", "name the fields of the literal: a new field in the other package would change its meaning"},
}

// vetAdvice returns the advice for a diagnostic of analyzer, or "".
func vetAdvice(analyzer, msg string) string {
	for _, a := range vetAdvices {
		if a.analyzer == analyzer && strings.Contains(msg, a.contains) {
			return a.advice
		}
	}
	return ""
}
