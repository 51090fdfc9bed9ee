package resolve

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/tsc"
	"github.com/agentverify/agentverify/lazyregexp"
)

// kinds maps the compiler's diagnostic codes to the shared vocabulary; any other error
// is a type error (every error of the change is reported, nothing hidden).
var kinds = map[int]lang.Kind{
	2307: lang.UnknownImport,     // Cannot find module 'x' or its corresponding type declarations.
	2792: lang.UnknownImport,     // Cannot find module 'x'. Did you mean to set the 'moduleResolution' option …?
	2305: lang.UnknownSymbol,     // Module 'x' has no exported member 'y'.
	2724: lang.UnknownSymbol,     // 'x' has no exported member named 'y'. Did you mean 'z'?
	2614: lang.UnknownSymbol,     // Module 'x' has no exported member 'y'. Did you mean to use 'import y from "x"' instead?
	2694: lang.UnknownSymbol,     // Namespace 'x' has no exported member 'y'.
	2459: lang.UnknownSymbol,     // Module 'x' declares 'y' locally, but it is not exported.
	2460: lang.UnknownSymbol,     // Module 'x' declares 'y' locally, but it is exported as 'z'.
	2339: lang.UnknownMember,     // Property 'x' does not exist on type 'T'.
	2551: lang.UnknownMember,     // Property 'x' does not exist on type 'T'. Did you mean 'y'?
	2304: lang.Undefined,         // Cannot find name 'x'.
	2552: lang.Undefined,         // Cannot find name 'x'. Did you mean 'y'?
	2554: lang.WrongArity,        // Expected N arguments, but got M.
	2555: lang.WrongArity,        // Expected at least N arguments, but got M.
	2575: lang.WrongArity,        // No overload expects N arguments, but overloads do exist that expect either …
	2353: lang.UnknownKeyword,    // Object literal may only specify known properties, and 'x' does not exist in type 'T'.
	2561: lang.UnknownKeyword,    // Object literal may only specify known properties, but 'x' does not exist in type 'T'. Did you mean to write 'y'?
	2345: lang.WrongSignature,    // Argument of type 'A' is not assignable to parameter of type 'P'.
	2769: lang.WrongSignature,    // No overload matches this call.
	2556: lang.WrongSignature,    // A spread argument must either have a tuple type or be passed to a rest parameter.
	2550: lang.APITooNew,         // Property 'x' does not exist on type 'T'. Do you need to change your target library? …
	2583: lang.APITooNew,         // Cannot find name 'x'. Do you need to change your target library? …
	2580: lang.MissingDependency, // Cannot find name 'require'. Do you need to install type definitions for node? …
	2591: lang.MissingDependency, // … and then add 'node' to the types field in your tsconfig.
	2582: lang.MissingDependency, // Cannot find name 'describe'. Do you need to install type definitions for a test runner? …
	2593: lang.MissingDependency, // … and then add 'jest' or 'mocha' to the types field in your tsconfig.
}

var (
	quoted        = lazyregexp.New(`'([^']+)'`)
	tscDidYouMean = lazyregexp.New(`Did you mean(?: to write)? '([^']+)'\?`)
	onModule      = lazyregexp.New(`on type 'typeof import\("([^"]+)"\)'`)
)

// classify turns one of the compiler's errors at a place of src into a problem.
func classify(d tsc.Diagnostic, file string, src []byte) lang.Problem {
	kind, ok := kinds[d.Code]
	switch {
	case !ok && d.Code >= 1000 && d.Code < 2000:
		kind = lang.SyntaxErrorKind
	case !ok:
		kind = lang.TypeError
	}
	if kind == lang.UnknownMember && onModule.MatchString(d.Message) {
		kind = lang.UnknownSymbol // a member of a module namespace (import * as m)
	}
	p := lang.Problem{Kind: kind, Message: fmt.Sprintf("%s (TS%d)", d.Message, d.Code)}
	p.Location = lang.Location{File: file, Line: max(d.Line, 1), Column: byteColumn(src, d.Line, d.Column)}
	if q := quoted.FindStringSubmatch(d.Message); q != nil {
		p.Symbol = q[1]
	}
	if m := tscDidYouMean.FindStringSubmatch(d.Message); m != nil {
		p.Suggestion = "did you mean " + m[1] + "?"
		p.Fix = rename(p, src, m[1])
	}
	switch kind {
	case lang.APITooNew:
		p.Suggestion = "the project's lib/target does not have it: use an API of the configured target, or raise target/lib in tsconfig.json deliberately"
	case lang.MissingDependency:
		p.Suggestion = "install the declared type definitions (" + typesHint(d.Message) + ") where the verification runs, and list them in tsconfig's types"
	case lang.UnknownImport:
		if p.Suggestion == "" {
			p.Suggestion = "import a module that exists: a project file or a package the project depends on; never install a package because an import names it"
		}
	}
	return p
}

// typesHint names the @types package a "do you need to install type definitions"
// message suggests.
func typesHint(msg string) string {
	if i := strings.Index(msg, "npm i --save-dev "); i >= 0 {
		rest := msg[i+len("npm i --save-dev "):]
		if j := strings.IndexAny(rest, "`"); j > 0 {
			return rest[:j]
		}
	}
	return "the @types package the message names"
}

// rename is the edit that replaces the misspelt name at p's place with name, when the
// source there is the name the message quotes.
func rename(p lang.Problem, src []byte, name string) *lang.Fix {
	if p.Symbol == "" || p.Symbol == name {
		return nil
	}
	line := lineOf(src, p.Location.Line)
	col := p.Location.Column
	if col < 1 || col-1+len(p.Symbol) > len(line) || string(line[col-1:col-1+len(p.Symbol)]) != p.Symbol {
		return nil
	}
	return &lang.Fix{
		Description: fmt.Sprintf("replace %s with %s", p.Symbol, name),
		Edits: []lang.Edit{{Range: lang.Location{File: p.Location.File, Line: p.Location.Line, Column: col,
			EndLine: p.Location.Line, EndColumn: col + len(p.Symbol)}, NewText: name}},
	}
}

// lineOf returns line n (1-based) of src without its terminator.
func lineOf(src []byte, n int) []byte {
	for l := 1; l < n; l++ {
		i := strings.IndexByte(string(src), '\n')
		if i < 0 {
			return nil
		}
		src = src[i+1:]
	}
	if i := strings.IndexByte(string(src), '\n'); i >= 0 {
		src = src[:i]
	}
	return []byte(strings.TrimSuffix(string(src), "\r"))
}
