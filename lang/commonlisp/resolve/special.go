package resolve

import "github.com/agentverify/agentverify/lang/commonlisp/reader"

// handler walks the evaluated parts of a COMMON-LISP special form or macro call.
type handler func(k *walker, f *reader.Form, e *env)

// handlers are the CL special operators and macros whose evaluated parts are known.
// A CL macro that has none is not looked into (its arguments may be anything).
var handlers map[string]handler

func init() { // a table of methods: built here, as it refers to functions that use it
	handlers = map[string]handler{}
	set := func(h handler, names ...string) {
		for _, n := range names {
			handlers[n] = h
		}
	}
	set(evalFrom(1), "IF", "PROGN", "AND", "OR", "WHEN", "UNLESS", "PROG1", "PROG2", "MULTIPLE-VALUE-PROG1",
		"MULTIPLE-VALUE-CALL", "UNWIND-PROTECT", "CATCH", "THROW", "PROGV", "LOAD-TIME-VALUE", "NTH-VALUE",
		"IGNORE-ERRORS", "RETURN", "MULTIPLE-VALUE-LIST", "STEP", "TIME", "WITH-STANDARD-IO-SYNTAX",
		"SETQ", "PSETQ", "TAGBODY", "LOCALLY", "WITH-CONDITION-RESTARTS", "DEFINE-SYMBOL-MACRO")
	set(evalFrom(2), "BLOCK", "RETURN-FROM", "EVAL-WHEN", "THE", "MULTIPLE-VALUE-SETQ", "DEFVAR",
		"DEFPARAMETER", "DEFCONSTANT", "SYMBOL-MACROLET", "WITH-SLOTS", "WITH-ACCESSORS",
		"MULTIPLE-VALUE-BIND", "DESTRUCTURING-BIND")
	set((*walker).bindings, "LET", "LET*", "PROG", "PROG*")
	set((*walker).firstList, "DOLIST", "DOTIMES", "DO-SYMBOLS", "DO-EXTERNAL-SYMBOLS", "DO-ALL-SYMBOLS",
		"WITH-OPEN-FILE", "WITH-OPEN-STREAM", "WITH-INPUT-FROM-STRING", "WITH-OUTPUT-TO-STRING",
		"PRINT-UNREADABLE-OBJECT", "WITH-HASH-TABLE-ITERATOR", "WITH-PACKAGE-ITERATOR", "WITH-SIMPLE-RESTART",
		"WITH-COMPILATION-UNIT", "PPRINT-LOGICAL-BLOCK")
	set((*walker).bindings, "HANDLER-BIND", "RESTART-BIND") // ((type handler) …) body…
	set(clauses(1, 0), "COND")
	set(clauses(2, 1), "CASE", "ECASE", "CCASE", "TYPECASE", "ETYPECASE", "CTYPECASE")
	set(clauses(2, 2), "HANDLER-CASE", "RESTART-CASE")
	set((*walker).localFunctions, "FLET", "LABELS", "MACROLET")
	set((*walker).lambda, "LAMBDA")
	set((*walker).defun, "DEFUN", "DEFMACRO", "DEFINE-COMPILER-MACRO")
	set((*walker).defmethod, "DEFMETHOD")
	set((*walker).defgeneric, "DEFGENERIC")
	set((*walker).do, "DO", "DO*")
	set((*walker).loop, "LOOP")
	set((*walker).setf, "SETF", "PSETF")
	set((*walker).places, "INCF", "DECF", "PUSH", "PUSHNEW", "POP", "REMF", "SHIFTF", "ROTATEF")
	set((*walker).assert, "ASSERT")
	set(func(k *walker, f *reader.Form, e *env) { // (check-type place type [string])
		if len(f.Items) > 1 {
			k.place(f.Items[1], e)
		}
	}, "CHECK-TYPE")
	set(func(k *walker, f *reader.Form, e *env) {
		if len(f.Items) == 2 {
			k.fref(f.Items[1], e)
		}
	}, "FUNCTION")
	set(func(*walker, *reader.Form, *env) {}, "QUOTE", "GO", "DECLARE")
	depHandlers = map[string]handler{
		"ALEXANDRIA:WHEN-LET":          (*walker).letBindings,
		"ALEXANDRIA:WHEN-LET*":         (*walker).letBindings,
		"ALEXANDRIA:IF-LET":            (*walker).letBindings,
		"ALEXANDRIA:WITH-GENSYMS":      evalFrom(2),
		"ALEXANDRIA:WITH-UNIQUE-NAMES": evalFrom(2),
		"ALEXANDRIA:XOR":               evalFrom(1),
		// FiveAM's test bodies and checks, where agents write much of their code.
		"IT.BESE.FIVEAM:TEST":     evalFrom(2),
		"IT.BESE.FIVEAM:DEF-TEST": evalFrom(3),
		"IT.BESE.FIVEAM:IS":       evalFrom(1),
		"IT.BESE.FIVEAM:IS-TRUE":  evalFrom(1),
		"IT.BESE.FIVEAM:IS-FALSE": evalFrom(1),
		"IT.BESE.FIVEAM:FINISHES": evalFrom(1),
		"IT.BESE.FIVEAM:SIGNALS":  evalFrom(2),
	}
}

// depHandlers are the macros of dependencies whose evaluated parts are known, by
// "PACKAGE:NAME" of their home package.
var depHandlers map[string]handler

// letBindings walks (op binding-or-bindings body…) where the first argument is one
// (var form) binding or a list of them, as alexandria's when-let.
func (k *walker) letBindings(f *reader.Form, e *env) {
	if len(f.Items) < 2 {
		return
	}
	if b := f.Items[1]; b.Kind == reader.List && len(b.Items) == 2 && b.Items[0].Kind == reader.Symbol {
		k.form(b.Items[1], e)
		k.forms(f.Items[2:], e)
		return
	}
	k.bindings(f, e)
}

// evalFrom walks the forms from the nth on.
func evalFrom(n int) handler {
	return func(k *walker, f *reader.Form, e *env) {
		if len(f.Items) > n {
			k.forms(f.Items[n:], e)
		}
	}
}

// bindings walks (op ((var init…) …) body…): let, prog, handler-bind, restart-bind.
func (k *walker) bindings(f *reader.Form, e *env) {
	if len(f.Items) < 2 {
		return
	}
	for _, b := range listItems(f.Items[1]) {
		if b.Kind == reader.List && len(b.Items) > 1 {
			k.forms(b.Items[1:], e)
		}
	}
	k.forms(f.Items[2:], e)
}

// firstList walks (op (var form…) body…): every element of the first list but a
// variable is a form (a symbol is never checked, so it is walked too).
func (k *walker) firstList(f *reader.Form, e *env) {
	if len(f.Items) < 2 {
		return
	}
	k.forms(listItems(f.Items[1]), e)
	k.forms(f.Items[2:], e)
}

// clauses returns the handler of (op key… clause…): the first `from`-1 arguments are
// forms, then each clause's elements from skip on are.
func clauses(from, skip int) handler {
	return func(k *walker, f *reader.Form, e *env) {
		for i, x := range f.Items[1:] {
			if i+1 < from {
				k.form(x, e)
				continue
			}
			if x.Kind == reader.List && len(x.Items) > skip {
				k.forms(x.Items[skip:], e)
			}
		}
	}
}

// localFunctions walks flet, labels and macrolet.
func (k *walker) localFunctions(f *reader.Form, e *env) {
	if len(f.Items) < 2 {
		return
	}
	inner := &env{parent: e, fns: map[string]bool{}}
	macro := f.Items[0].Name == "MACROLET"
	defs := listItems(f.Items[1])
	for _, d := range defs {
		if d.Kind == reader.List && len(d.Items) > 0 && d.Items[0].Kind == reader.Symbol {
			inner.fns[d.Items[0].Name] = macro
		}
	}
	defEnv := e
	if f.Items[0].Name == "LABELS" {
		defEnv = inner
	}
	for _, d := range defs {
		if d.Kind == reader.List && len(d.Items) > 1 {
			k.lambdaList(d.Items[1], defEnv)
			k.forms(d.Items[2:], defEnv)
		}
	}
	k.forms(f.Items[2:], inner)
}

// lambda walks (lambda lambda-list body…).
func (k *walker) lambda(f *reader.Form, e *env) {
	if len(f.Items) < 2 {
		return
	}
	k.lambdaList(f.Items[1], e)
	k.forms(f.Items[2:], e)
}

// defun walks (defun name lambda-list body…).
func (k *walker) defun(f *reader.Form, e *env) {
	if len(f.Items) < 3 {
		return
	}
	k.lambdaList(f.Items[2], e)
	k.forms(f.Items[3:], e)
}

// defmethod walks (defmethod name qualifier… lambda-list body…).
func (k *walker) defmethod(f *reader.Form, e *env) { k.method(f.Items[min(2, len(f.Items)):], e) }

// method walks qualifier… lambda-list body….
func (k *walker) method(rest []*reader.Form, e *env) {
	for i, x := range rest {
		if x.Kind == reader.List {
			k.lambdaList(x, e)
			k.forms(rest[i+1:], e)
			return
		}
	}
}

// defgeneric walks the (:method …) options of (defgeneric name lambda-list option…).
func (k *walker) defgeneric(f *reader.Form, e *env) {
	for _, o := range f.Items[min(3, len(f.Items)):] {
		if o.Kind == reader.List && len(o.Items) > 1 && o.Items[0].IsKeyword("METHOD") {
			k.method(o.Items[1:], e)
		}
	}
}

// do walks (do ((var init step) …) (end-test result…) body…).
func (k *walker) do(f *reader.Form, e *env) {
	if len(f.Items) < 3 {
		return
	}
	for _, v := range listItems(f.Items[1]) {
		if v.Kind == reader.List && len(v.Items) > 1 {
			k.forms(v.Items[1:], e)
		}
	}
	k.forms(listItems(f.Items[2]), e)
	k.forms(f.Items[3:], e)
}

// loopVarKeywords are the loop keywords after which a list is a variable or type
// specification, not a form.
var loopVarKeywords = map[string]bool{"FOR": true, "AS": true, "WITH": true, "AND": true, "USING": true,
	"OF-TYPE": true, "INTO": true, "NAMED": true}

// loop walks the forms of a loop: every compound form but the destructuring variable
// lists and type specs that follow for, as, with, and, using and of-type.
func (k *walker) loop(f *reader.Form, e *env) {
	prev := ""
	for _, x := range f.Items[1:] {
		switch {
		case x.Kind == reader.Symbol:
			prev = x.Name
			continue
		case x.Kind == reader.List && loopVarKeywords[prev]:
		default:
			k.form(x, e)
		}
		prev = ""
	}
}

// setf walks (setf place value …).
func (k *walker) setf(f *reader.Form, e *env) {
	for i, x := range f.Items[1:] {
		if i%2 == 0 {
			k.place(x, e)
		} else {
			k.form(x, e)
		}
	}
}

// places walks the modify macros' arguments, each a place or a form.
func (k *walker) places(f *reader.Form, e *env) {
	for _, x := range f.Items[1:] {
		k.place(x, e)
	}
}

// assert walks (assert test (place…) datum argument…).
func (k *walker) assert(f *reader.Form, e *env) {
	for i, x := range f.Items[1:] {
		if i == 1 {
			for _, p := range listItems(x) {
				k.place(p, e)
			}
			continue
		}
		k.form(x, e)
	}
}

// listItems returns the elements of a list form, none for anything else.
func listItems(f *reader.Form) []*reader.Form {
	if f == nil || f.Kind != reader.List {
		return nil
	}
	return f.Items
}
