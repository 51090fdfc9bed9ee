package cltable

import (
	"sort"
	"strings"

	"github.com/agentverify/agentverify/lang/commonlisp/lambdalist"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

//go:generate sh -c "sbcl --script gen.lisp > table_gen.go"

// Kind is a set of the roles a symbol has in COMMON-LISP.
type Kind uint16

// Kinds of symbols; a symbol may have several (LIST is a Function, a Type and a Class).
const (
	Function Kind = 1 << iota
	Macro
	SpecialOperator
	Variable
	Constant
	Type
	Class
	Declaration       // a declaration identifier: DECLARE, OPTIMIZE, SPEED, …
	LambdaListKeyword // &OPTIONAL, &KEY, …
	Local             // defined only lexically: CALL-NEXT-METHOD, NEXT-METHOD-P, MAKE-METHOD
)

var kindNames = []string{"function", "macro", "special-operator", "variable", "constant",
	"type", "class", "declaration", "lambda-list-keyword", "local"}

// String lists the kinds, e.g. "function|type|class"; "symbol" for none.
func (k Kind) String() string {
	var parts []string
	for i, n := range kindNames {
		if k&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	if len(parts) == 0 {
		return "symbol"
	}
	return strings.Join(parts, "|")
}

// Symbol is one external symbol of COMMON-LISP.
type Symbol struct {
	// Name is the symbol's name, upper case.
	Name string
	Kind Kind
	// LambdaList is the printed lambda list of a function or macro as SBCL reports it,
	// parameter names in lower case; empty for other symbols and special operators.
	LambdaList string
}

// Callable reports whether the symbol names a function, macro or special operator, i.e.
// may stand in function position.
func (s Symbol) Callable() bool {
	return s.Kind&(Function|Macro|SpecialOperator|Local) != 0
}

// Params parses LambdaList. ok is false when the symbol has none.
func (s Symbol) Params() (l *lambdalist.List, ok bool) {
	if s.LambdaList == "" {
		return nil, false
	}
	f := reader.Read([]byte(s.LambdaList), reader.Options{})
	if len(f.Errors) > 0 || len(f.Forms) != 1 {
		return nil, false
	}
	mode := lambdalist.Ordinary
	if s.Kind&Macro != 0 {
		mode = lambdalist.Macro
	}
	l, err := lambdalist.Parse(f.Forms[0], mode)
	return l, err == nil
}

// Lookup returns the external symbol of COMMON-LISP named name (upper case).
func Lookup(name string) (Symbol, bool) {
	i := sort.Search(len(symbols), func(i int) bool { return symbols[i].Name >= name })
	if i < len(symbols) && symbols[i].Name == name {
		return symbols[i], true
	}
	return Symbol{}, false
}

// Len is the number of external symbols of COMMON-LISP: 978.
func Len() int { return len(symbols) }

// All calls yield with every symbol in name order until it returns false.
func All(yield func(Symbol) bool) {
	for _, s := range symbols {
		if !yield(s) {
			return
		}
	}
}

// SBCLVersion is the version of the SBCL that generated the table.
func SBCLVersion() string { return sbclVersion }
