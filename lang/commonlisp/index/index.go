package index

import (
	"github.com/agentverify/agentverify/lang/commonlisp/lambdalist"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// Kind classifies a definition.
type Kind string

// Definition kinds.
const (
	Function      Kind = "function"
	Macro         Kind = "macro"
	Generic       Kind = "generic-function"
	Method        Kind = "method"
	CompilerMacro Kind = "compiler-macro"
	SetfExpander  Kind = "setf-expander"
	Structure     Kind = "structure"
	Class         Kind = "class"
	Condition     Kind = "condition"
	Type          Kind = "type"
	Variable      Kind = "variable"
	Constant      Kind = "constant"
	SymbolMacro   Kind = "symbol-macro"
)

// Callable reports whether a definition of kind k makes its name callable in function
// position (directly or as a macro).
func (k Kind) Callable() bool {
	switch k {
	case Function, Macro, Generic, Method:
		return true
	}
	return false
}

// DefaultPackage is the package in effect before the first in-package of a file, as
// when a file is loaded.
const DefaultPackage = "COMMON-LISP-USER"

// Definition is one name a form defines.
type Definition struct {
	// Name is the defined symbol's name, upper case.
	Name string
	// Package is the explicit package prefix of the name, else the package in effect
	// (the last in-package before the form, DefaultPackage before any); "" for the
	// functions of a local scope.
	Package string
	// Setf is set for the setf function (setf Name).
	Setf bool
	Kind Kind
	// Via is the defining operator in lower case, with the option that made the
	// definition for the indirect ones: "defun", "defstruct :constructor",
	// "defclass :accessor".
	Via string
	// Lambda is the lambda list of callable definitions when it could be parsed.
	Lambda *lambdalist.List
	// Documented is set when the definition has a docstring, at DocPos.
	Documented bool
	DocPos     reader.Pos
	// NameSpan is the span of the name as written (for an accessor, its slot's name).
	NameSpan reader.Span
	// Form is the defining form.
	Form *reader.Form
	// TopLevel is false for a definition nested in another form than progn,
	// eval-when or locally (e.g. a defun inside a let).
	TopLevel bool
}

// Package is a defpackage or uiop:define-package.
type Package struct {
	Name      string
	Via       string
	Nicknames []string
	Use       []string
	// ImportFrom and ShadowingImportFrom list the symbols imported, by package.
	ImportFrom          []Import
	ShadowingImportFrom []Import
	Export              []Symbol
	Shadow              []string
	// LocalNicknames maps a local nickname to a package name.
	LocalNicknames map[string]string
	// Reexport lists the packages whose exports this one exports too
	// (uiop:define-package :reexport and :use-reexport).
	Reexport   []string
	Documented bool
	Span       reader.Span
	NameSpan   reader.Span
}

// Import is the symbols imported from one package.
type Import struct {
	Package string
	Symbols []Symbol
}

// Symbol is a symbol name with the span it was written at.
type Symbol struct {
	Name string
	Span reader.Span
	// File is the file the span is in when a consumer merged the symbol into a form of
	// another file (a top-level export into a defpackage's :export); "" otherwise.
	File string
}

// InPackage is an in-package form.
type InPackage struct {
	Name string
	Span reader.Span
}

// Scope is a flet, labels or macrolet form: its functions can be called in Visible.
type Scope struct {
	// Op is "flet", "labels" or "macrolet".
	Op        string
	Functions []Definition
	// Span is the whole form's span.
	Span reader.Span
	// Visible is where the functions are in scope: the body for flet and macrolet, the
	// whole form (definitions included) for labels.
	Visible reader.Span
}

// Problem is a defining form the index could not make sense of, e.g. a malformed
// lambda list.
type Problem struct {
	Span    reader.Span
	Message string
}

// File is the index of one read file.
type File struct {
	Packages   []Package
	InPackages []InPackage
	// Exports are the file's top-level export forms.
	Exports     []Export
	Definitions []Definition
	Scopes      []Scope
	Problems    []Problem
}

// PackageAt returns the package in effect at offset off: that of the last in-package
// that ends before off, DefaultPackage before any.
func (f *File) PackageAt(off int) string {
	pkg := DefaultPackage
	for _, ip := range f.InPackages {
		if ip.Span.End.Offset > off {
			break
		}
		pkg = ip.Name
	}
	return pkg
}

// LocalAt returns the local function or macro named name (upper case) in scope at
// offset off, innermost first.
func (f *File) LocalAt(name string, off int) (Definition, bool) {
	var best *Definition
	width := -1
	for i := range f.Scopes {
		s := &f.Scopes[i]
		if off < s.Visible.Start.Offset || off >= s.Visible.End.Offset {
			continue
		}
		for j := range s.Functions {
			w := s.Visible.End.Offset - s.Visible.Start.Offset
			if s.Functions[j].Name == name && (width < 0 || w < width) {
				best, width = &s.Functions[j], w
			}
		}
	}
	if best == nil {
		return Definition{}, false
	}
	return *best, true
}

// Build indexes the forms of a read file.
func Build(rf *reader.File) *File {
	ix := &indexer{file: &File{}, pkg: DefaultPackage}
	for _, f := range rf.Forms {
		ix.walk(f, true)
	}
	return ix.file
}

type indexer struct {
	file *File
	pkg  string
}

// transparent are the operators whose subforms stay top-level forms.
var transparent = map[string]bool{"PROGN": true, "EVAL-WHEN": true, "LOCALLY": true}

// walk visits a form that is evaluated: definitions in it are recorded, quoted data and
// backquote templates are skipped.
func (ix *indexer) walk(f *reader.Form, top bool) {
	switch f.Kind {
	case reader.List:
	case reader.Function:
		ix.walk(f.Items[0], false)
		return
	default:
		return
	}
	head := f.Head()
	if head.IsSymbol("QUOTE") || head.IsSymbol("DECLARE") {
		return
	}
	if h := handlerFor(head); h != nil {
		h(ix, f, top)
	}
	inner := top && head != nil && head.Kind == reader.Symbol && transparent[head.Name]
	for _, x := range f.Items {
		ix.walk(x, inner)
	}
}

func (ix *indexer) problem(f *reader.Form, msg string) {
	ix.file.Problems = append(ix.file.Problems, Problem{Span: f.Span, Message: msg})
}

func (ix *indexer) add(d Definition) {
	ix.file.Definitions = append(ix.file.Definitions, d)
}

// name reads a defined name: a symbol, or (setf symbol) when setf is allowed.
func (ix *indexer) name(f *reader.Form, setf bool) (Definition, bool) {
	if f.Kind == reader.Symbol && !f.Uninterned && f.Package != reader.Keyword {
		return Definition{Name: f.Name, Package: ix.packageOf(f), NameSpan: f.Span}, true
	}
	if setf && f.Kind == reader.List && len(f.Items) == 2 && f.Items[0].IsSymbol("SETF") && f.Items[1].Kind == reader.Symbol {
		d, ok := ix.name(f.Items[1], false)
		d.Setf = true
		return d, ok
	}
	return Definition{}, false
}

func (ix *indexer) packageOf(sym *reader.Form) string {
	if sym.Package != "" {
		return sym.Package
	}
	return ix.pkg
}

// bodyDoc returns the docstring of a body that may start with declarations and a
// docstring: a string that is not the body's last form.
func bodyDoc(body []*reader.Form) *reader.Form {
	for i, x := range body {
		switch {
		case x.Kind == reader.String && i < len(body)-1:
			return x
		case x.Kind == reader.List && x.Head().IsSymbol("DECLARE"):
			continue
		}
		return nil
	}
	return nil
}

// optionDoc returns the string of a (:documentation "…") option among opts.
func optionDoc(opts []*reader.Form) *reader.Form {
	for _, o := range opts {
		if o.Kind == reader.List && len(o.Items) == 2 && o.Items[0].IsKeyword("DOCUMENTATION") && o.Items[1].Kind == reader.String {
			return o.Items[1]
		}
	}
	return nil
}

func setDoc(d *Definition, doc *reader.Form) {
	if doc != nil {
		d.Documented, d.DocPos = true, doc.Span.Start
	}
}

// lambda parses a lambda list, recording a problem when it is malformed.
func (ix *indexer) lambda(d *Definition, f *reader.Form, mode lambdalist.Mode) {
	l, err := lambdalist.Parse(f, mode)
	if err != nil {
		ix.problem(f, d.Via+" "+d.Name+": "+err.Error())
		return
	}
	d.Lambda = l
}
