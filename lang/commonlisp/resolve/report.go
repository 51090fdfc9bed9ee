package resolve

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/lambdalist"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// reporter collects the problems of one file.
type reporter struct {
	path     string
	problems []lang.Problem
	// missingNoted holds the missing systems already reported at a use in this file, and
	// the packages a run-time load may define ("load:NAME").
	missingNoted map[string]bool
	// loads are the file's top-level forms that load a system at run time.
	loads []runtimeLoad
}

func (r *reporter) add(kind lang.Kind, s reader.Span, symbol, msg, suggestion string) {
	r.problems = append(r.problems, lang.Problem{
		Kind:     kind,
		Location: location(r.path, s),
		Message:  msg, Suggestion: suggestion, Symbol: symbol,
	})
}

// replace gives the last problem added its one safe fix: newText in place of span s.
func (r *reporter) replace(s reader.Span, newText string) {
	if newText == "" || len(r.problems) == 0 {
		return
	}
	p := &r.problems[len(r.problems)-1]
	p.Fix = &lang.Fix{Description: "replace with " + newText, Edits: []lang.Edit{{Range: location(r.path, s), NewText: newText}}}
}

func location(path string, s reader.Span) lang.Location {
	return lang.Location{File: path, Line: s.Start.Line, Column: s.Start.Column, EndLine: s.End.Line, EndColumn: s.End.Column}
}

// written returns a symbol as the source would write it, in lower case.
func written(sym *reader.Form) string {
	name := strings.ToLower(sym.Name)
	switch {
	case sym.Package == "":
		return name
	case sym.Internal:
		return strings.ToLower(sym.Package) + "::" + name
	}
	return strings.ToLower(sym.Package) + ":" + name
}

// undefined reports a symbol in function position (or a place's operator) that names
// no function or macro.
func (k *walker) undefined(sym *reader.Form, c callee, place bool) {
	what := "undefined function " + written(sym)
	if place {
		what = written(sym) + " is no function, setf function or setf expander: (setf (" + written(sym) + " …) …) cannot work"
	} else if c.cl {
		what = written(sym) + " is not a function or macro of COMMON-LISP"
	}
	suggestion, single := k.suggestFunction(sym, c)
	k.rep.add(lang.Undefined, sym.Span, written(sym), what, suggestion)
	k.rep.replace(sym.Span, single)
}

// checkCall checks a call's argument count and keyword arguments against the callee's
// lambda list.
func (k *walker) checkCall(f *reader.Form, c callee) {
	l := c.lambda
	if l == nil {
		return
	}
	args := f.Items[1:]
	name := written(f.Items[0])
	positional := len(l.Required) + len(l.Optional)
	if !l.Accepts(len(args)) || l.HasKey && len(args) > positional && (len(args)-positional)%2 != 0 {
		k.rep.add(lang.WrongArity, f.Span, name, fmt.Sprintf("%s is called with %s but takes %s: (%s %s)",
			name, plural(len(args), "argument"), arity(l, len(args)), name, trimParens(l.String())), "")
		return
	}
	if !l.HasKey || l.AllowOtherKeys || c.openKeys {
		return
	}
	k.keywords(f, c, args[min(len(args), positional):])
}

// keywords checks the keyword arguments of a call: each literal keyword must name a &key
// parameter. A non-literal keyword or :allow-other-keys stops the check.
func (k *walker) keywords(f *reader.Form, c callee, kargs []*reader.Form) {
	for _, kw := range kargs {
		if kw.Kind == reader.Symbol && kw.Package == reader.Keyword && kw.Name == "ALLOW-OTHER-KEYS" {
			return
		}
	}
	for i := 0; i < len(kargs); i += 2 {
		kw := kargs[i]
		if kw.Kind != reader.Symbol || kw.Package != reader.Keyword {
			return
		}
		if c.lambda.HasKeyword(kw.Name) {
			continue
		}
		name := written(f.Items[0])
		var keys []string
		for _, p := range c.lambda.Key {
			keys = append(keys, p.Keyword)
		}
		msg := fmt.Sprintf(":%s is not a keyword argument of %s: (%s %s)", strings.ToLower(kw.Name), name, name,
			trimParens(c.lambda.String()))
		k.rep.add(lang.UnknownKeyword, kw.Span, name+" :"+strings.ToLower(kw.Name), msg, keywordSuggestion(kw.Name, keys))
		if near := closest(kw.Name, keys, 3); len(near) == 1 {
			k.rep.replace(kw.Span, ":"+strings.ToLower(near[0]))
		}
	}
}

func keywordSuggestion(name string, keys []string) string {
	if len(keys) == 0 {
		return "it takes no keyword arguments"
	}
	if near := closest(name, keys, 3); len(near) > 0 {
		return "did you mean " + orList(prefixed(":", near)) + "?"
	}
	sort.Strings(keys)
	return "its keywords are " + strings.Join(prefixed(":", keys), ", ")
}

func prefixed(p string, xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = p + strings.ToLower(x)
	}
	return out
}

// arity describes how many arguments a lambda list takes.
func arity(l *lambdalist.List, n int) string {
	lo, hi := l.Min(), l.Max()
	switch {
	case l.HasKey && n >= lo:
		return "an even number of keyword arguments after " + plural(len(l.Required)+len(l.Optional), "positional argument")
	case hi < 0:
		return "at least " + plural(lo, "argument")
	case lo == hi:
		return plural(lo, "argument")
	}
	return fmt.Sprintf("%d to %d arguments", lo, hi)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func trimParens(s string) string { return strings.TrimSuffix(strings.TrimPrefix(s, "("), ")") }

func orList(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}
