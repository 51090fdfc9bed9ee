package index

import (
	"strings"

	"github.com/agentverify/agentverify/lang/commonlisp/lambdalist"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// handler records what a defining form defines; top is set for a top-level form.
type handler func(ix *indexer, f *reader.Form, top bool)

// handlers are the defining operators of COMMON-LISP, by name.
var handlers = map[string]handler{
	"DEFUN":                 operator(Function, lambdalist.Ordinary, true),
	"DEFMACRO":              operator(Macro, lambdalist.Macro, false),
	"DEFINE-COMPILER-MACRO": operator(CompilerMacro, lambdalist.Macro, true),
	"DEFTYPE":               operator(Type, lambdalist.Macro, false),
	"DEFINE-SETF-EXPANDER":  operator(SetfExpander, lambdalist.Macro, false),
	"DEFGENERIC":            (*indexer).defgeneric,
	"DEFMETHOD":             (*indexer).defmethod,
	"DEFSETF":               (*indexer).defsetf,
	"DEFINE-MODIFY-MACRO":   (*indexer).defineModifyMacro,
	"DEFVAR":                variable(Variable, 3),
	"DEFPARAMETER":          variable(Variable, 3),
	"DEFCONSTANT":           variable(Constant, 3),
	"DEFINE-SYMBOL-MACRO":   variable(SymbolMacro, -1),
	"DEFSTRUCT":             (*indexer).defstruct,
	"DEFCLASS":              classLike(Class),
	"DEFINE-CONDITION":      classLike(Condition),
	"DEFPACKAGE":            (*indexer).defpackage,
	"IN-PACKAGE":            (*indexer).inPackage,
	"EXPORT":                (*indexer).export,
	"SETF":                  (*indexer).setfFunction,
	"FLET":                  scope(false),
	"LABELS":                scope(true),
	"MACROLET":              scope(false),
}

// handlerFor returns the handler of a form whose head is head, or nil.
func handlerFor(head *reader.Form) handler {
	if head == nil || head.Kind != reader.Symbol || head.Uninterned {
		return nil
	}
	switch head.Package {
	case "", "CL", "COMMON-LISP":
		if h := handlers[head.Name]; h != nil {
			return h
		}
	case "UIOP", "UIOP/PACKAGE":
		if head.Name == "DEFINE-PACKAGE" {
			return (*indexer).defpackage
		}
		return nil
	case "ALEXANDRIA":
	default:
		return nil
	}
	if head.Name == "DEFINE-CONSTANT" {
		return variable(Constant, -1)
	}
	return nil
}

func via(f *reader.Form) string { return strings.ToLower(f.Items[0].Name) }

// operator handles (op name lambda-list [[declaration* | docstring]] body).
func operator(kind Kind, mode lambdalist.Mode, setf bool) handler {
	return func(ix *indexer, f *reader.Form, top bool) {
		if len(f.Items) < 3 {
			return
		}
		d, ok := ix.name(f.Items[1], setf)
		if !ok {
			return
		}
		d.Kind, d.Via, d.Form, d.TopLevel = kind, via(f), f, top
		ix.lambda(&d, f.Items[2], mode)
		setDoc(&d, bodyDoc(f.Items[3:]))
		ix.add(d)
	}
}

// variable handles (op name [value [doc]]); docAt is the index of the docstring, -1
// when the operator has none in a fixed place.
func variable(kind Kind, docAt int) handler {
	return func(ix *indexer, f *reader.Form, top bool) {
		if len(f.Items) < 2 {
			return
		}
		d, ok := ix.name(f.Items[1], false)
		if !ok {
			return
		}
		d.Kind, d.Via, d.Form, d.TopLevel = kind, via(f), f, top
		if docAt > 0 && docAt < len(f.Items) && f.Items[docAt].Kind == reader.String {
			setDoc(&d, f.Items[docAt])
		}
		if docAt < 0 {
			setDoc(&d, keywordDoc(f.Items[2:]))
		}
		ix.add(d)
	}
}

// keywordDoc returns the value of :documentation among keyword arguments.
func keywordDoc(args []*reader.Form) *reader.Form {
	for i := 0; i+1 < len(args); i++ {
		if args[i].IsKeyword("DOCUMENTATION") && args[i+1].Kind == reader.String {
			return args[i+1]
		}
	}
	return nil
}

// defgeneric handles (defgeneric name lambda-list option*), with its (:method …)
// options.
func (ix *indexer) defgeneric(f *reader.Form, top bool) {
	if len(f.Items) < 3 {
		return
	}
	d, ok := ix.name(f.Items[1], true)
	if !ok {
		return
	}
	d.Kind, d.Via, d.Form, d.TopLevel = Generic, "defgeneric", f, top
	ix.lambda(&d, f.Items[2], lambdalist.Generic)
	setDoc(&d, optionDoc(f.Items[3:]))
	ix.add(d)
	for _, o := range f.Items[3:] {
		if o.Kind == reader.List && len(o.Items) > 1 && o.Items[0].IsKeyword("METHOD") {
			ix.method(d, o, o.Items[1:], "defgeneric :method", top)
		}
	}
}

// defmethod handles (defmethod name qualifier* specialized-lambda-list body).
func (ix *indexer) defmethod(f *reader.Form, top bool) {
	if len(f.Items) < 3 {
		return
	}
	d, ok := ix.name(f.Items[1], true)
	if !ok {
		return
	}
	ix.method(d, f, f.Items[2:], "defmethod", top)
}

// method records a method whose qualifiers, lambda list and body are rest.
func (ix *indexer) method(d Definition, f *reader.Form, rest []*reader.Form, op string, top bool) {
	d.Kind, d.Via, d.Form, d.TopLevel = Method, op, f, top
	d.Documented, d.Lambda = false, nil
	i := 0
	for i < len(rest) && rest[i].Kind != reader.List && !rest[i].IsSymbol("NIL") {
		i++
	}
	if i == len(rest) {
		ix.problem(f, op+" "+d.Name+": no lambda list")
		return
	}
	ix.lambda(&d, rest[i], lambdalist.Specialized)
	setDoc(&d, bodyDoc(rest[i+1:]))
	ix.add(d)
}

// defsetf handles the short form (defsetf access update [doc]) and the long form
// (defsetf access lambda-list (store-variable*) body).
func (ix *indexer) defsetf(f *reader.Form, top bool) {
	if len(f.Items) < 3 {
		return
	}
	d, ok := ix.name(f.Items[1], false)
	if !ok {
		return
	}
	d.Kind, d.Via, d.Form, d.TopLevel = SetfExpander, "defsetf", f, top
	if f.Items[2].Kind == reader.Symbol {
		if len(f.Items) > 3 && f.Items[3].Kind == reader.String {
			setDoc(&d, f.Items[3])
		}
		ix.add(d)
		return
	}
	ix.lambda(&d, f.Items[2], lambdalist.Macro)
	if len(f.Items) > 3 {
		setDoc(&d, bodyDoc(f.Items[4:]))
	}
	ix.add(d)
}

// defineModifyMacro handles (define-modify-macro name lambda-list function [doc]): the
// macro takes a place and then the lambda list's arguments.
func (ix *indexer) defineModifyMacro(f *reader.Form, top bool) {
	if len(f.Items) < 4 {
		return
	}
	d, ok := ix.name(f.Items[1], false)
	if !ok {
		return
	}
	d.Kind, d.Via, d.Form, d.TopLevel = Macro, "define-modify-macro", f, top
	ix.lambda(&d, f.Items[2], lambdalist.Ordinary)
	if d.Lambda != nil {
		d.Lambda.Required = append([]lambdalist.Param{{Name: "PLACE"}}, d.Lambda.Required...)
	}
	if len(f.Items) > 4 && f.Items[4].Kind == reader.String {
		setDoc(&d, f.Items[4])
	}
	ix.add(d)
}

// scope handles flet, labels (recursive) and macrolet.
func scope(recursive bool) handler {
	return func(ix *indexer, f *reader.Form, _ bool) {
		if len(f.Items) < 2 || f.Items[1].Kind != reader.List && !f.Items[1].IsSymbol("NIL") {
			return
		}
		op := via(f)
		s := Scope{Op: op, Span: f.Span, Visible: reader.Span{Start: f.Items[1].Span.End, End: f.Span.End}}
		if recursive {
			s.Visible = f.Span
		}
		mode, kind := lambdalist.Ordinary, Function
		if op == "macrolet" {
			mode, kind = lambdalist.Macro, Macro
		}
		for _, b := range f.Items[1].Items {
			if b.Kind != reader.List || len(b.Items) < 2 {
				ix.problem(b, op+": binding "+b.String()+" is not (name lambda-list body…)")
				continue
			}
			d, ok := ix.name(b.Items[0], op != "macrolet")
			if !ok {
				continue
			}
			d.Package, d.Kind, d.Via, d.Form = "", kind, op, b
			ix.lambda(&d, b.Items[1], mode)
			setDoc(&d, bodyDoc(b.Items[2:]))
			s.Functions = append(s.Functions, d)
		}
		ix.file.Scopes = append(ix.file.Scopes, s)
	}
}

// fdefiners are the accessors whose setf defines a function or macro at run time.
var fdefiners = map[string]Kind{"SYMBOL-FUNCTION": Function, "FDEFINITION": Function, "MACRO-FUNCTION": Macro}

// setfFunction handles (setf (symbol-function 'name) value …), (setf (fdefinition
// 'name) …) and (setf (macro-function 'name) …): each pair defines name, with no known
// lambda list.
func (ix *indexer) setfFunction(f *reader.Form, top bool) {
	for i := 1; i+1 < len(f.Items); i += 2 {
		place := f.Items[i]
		if place.Kind != reader.List || len(place.Items) != 2 || place.Items[1].Kind != reader.Quote {
			continue
		}
		kind, ok := fdefiners[place.Items[0].Name]
		if !ok || !place.Items[0].IsSymbol(place.Items[0].Name) {
			continue
		}
		d, ok := ix.name(place.Items[1].Items[0], kind == Function)
		if !ok {
			continue
		}
		d.Kind, d.Via, d.Form, d.TopLevel = kind, "setf "+strings.ToLower(place.Items[0].Name), f, top
		ix.add(d)
	}
}
