package resolve

import (
	"strings"
	"sync"

	"github.com/agentverify/agentverify/lang/commonlisp/lambdalist"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

//go:generate sh -c "sbcl --script gen.lisp > builtin_gen.go"

// opKind is what a symbol of a listed builtin package names in function position.
type opKind uint8

const (
	opNone opKind = iota
	opFunction
	opMacro
	opSpecial
)

// builtinSymbol is one external symbol of a builtin package: its name, what it names
// and, for a function, its lambda list as SBCL prints it.
type builtinSymbol struct {
	Name       string
	Kind       opKind
	LambdaList string
}

// builtinPackage is a package SBCL or ASDF provides, with its external symbols.
type builtinPackage struct {
	Name      string
	Nicknames []string
	Symbols   []builtinSymbol
}

// builtinIndex maps the name and nicknames of each listed builtin package to it, and
// each package to its symbols by name.
type builtinIndex struct {
	byName  map[string]*builtinPackage
	symbols map[*builtinPackage]map[string]*builtinSymbol
}

var builtins = sync.OnceValue(func() *builtinIndex {
	ix := &builtinIndex{byName: map[string]*builtinPackage{}, symbols: map[*builtinPackage]map[string]*builtinSymbol{}}
	for i := range builtinPackages {
		p := &builtinPackages[i]
		ix.byName[p.Name] = p
		for _, n := range p.Nicknames {
			ix.byName[n] = p
		}
		syms := make(map[string]*builtinSymbol, len(p.Symbols))
		for j := range p.Symbols {
			if _, dup := syms[p.Symbols[j].Name]; !dup {
				syms[p.Symbols[j].Name] = &p.Symbols[j]
			}
		}
		ix.symbols[p] = syms
	}
	return ix
})

// params parses a builtin function's lambda list; nil when it has none or it does not
// parse.
func (s *builtinSymbol) params() *lambdalist.List {
	if s.Kind != opFunction || s.LambdaList == "" {
		return nil
	}
	f := reader.Read([]byte(s.LambdaList), reader.Options{})
	if len(f.Errors) > 0 || len(f.Forms) != 1 {
		return nil
	}
	l, err := lambdalist.Parse(f.Forms[0], lambdalist.Ordinary)
	if err != nil {
		return nil
	}
	return l
}

// unlistedBuiltin reports whether name is a package SBCL or ASDF provides whose symbols
// are not listed (SB-POSIX, UIOP/OS, …), or one of Quicklisp's, which scripts load from
// the user's setup rather than through a system: it exists, but what it exports is not
// known.
func unlistedBuiltin(name string) bool {
	return strings.HasPrefix(name, "SB-") || strings.HasPrefix(name, "ASDF/") || strings.HasPrefix(name, "UIOP/") ||
		name == "ASDF-USER" || name == "QL" || name == "QUICKLISP" || strings.HasPrefix(name, "QL-")
}
