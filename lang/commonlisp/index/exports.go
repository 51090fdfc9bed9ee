package index

import "github.com/agentverify/agentverify/lang/commonlisp/reader"

// Export is a top-level (export symbols [package]) form: what it exports, from the
// package it names or, without one, the package in effect.
type Export struct {
	Package string
	Symbols []Symbol
	Span    reader.Span
}

// export handles a top-level (export 'sym), (export '(a b) :pkg) or (export (list 'a
// 'b)): packages built by code rather than a defpackage :export (issue #24: such
// exports were not seen). An export inside a function is a run-time act and not read.
func (ix *indexer) export(f *reader.Form, top bool) {
	if !top || len(f.Items) < 2 || len(f.Items) > 3 {
		return
	}
	pkg := ix.pkg
	if len(f.Items) == 3 {
		if pkg = designator(f.Items[2]); pkg == "" {
			return // a package computed at run time
		}
	}
	syms, ok := exportedSymbols(f.Items[1])
	if !ok {
		return
	}
	ix.file.Exports = append(ix.file.Exports, Export{Package: pkg, Symbols: syms, Span: f.Span})
}

// exportedSymbols reads 'sym, '(a b …) and (list 'a 'b …).
func exportedSymbols(x *reader.Form) ([]Symbol, bool) {
	var items []*reader.Form
	switch {
	case x.Kind == reader.Quote && x.Items[0].Kind == reader.Symbol:
		items = x.Items[:1]
	case x.Kind == reader.Quote && x.Items[0].Kind == reader.List:
		items = x.Items[0].Items
	case x.Kind == reader.List && x.Head().IsSymbol("LIST"):
		for _, it := range x.Items[1:] {
			if it.Kind != reader.Quote {
				return nil, false
			}
			items = append(items, it.Items[0])
		}
	default:
		return nil, false
	}
	var out []Symbol
	for _, it := range items {
		if it.Kind != reader.Symbol {
			return nil, false
		}
		out = append(out, Symbol{Name: it.Name, Span: it.Span})
	}
	return out, true
}
