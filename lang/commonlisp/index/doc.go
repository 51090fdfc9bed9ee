// Package index collects what read Common Lisp files define, for checks that must know
// whether a name exists: packages (defpackage and uiop:define-package with :use,
// :import-from, :export, :shadow, nicknames and local nicknames), in-package, and every
// form that defines a function or macro directly or indirectly.
//
// The defining forms are those of COMMON-LISP — defun, defmacro, defgeneric (and its
// :method options), defmethod, define-compiler-macro, defsetf, define-setf-expander,
// define-modify-macro, deftype, defvar, defparameter, defconstant,
// define-symbol-macro — plus alexandria:define-constant, and the forms that define
// functions indirectly:
//
//   - defstruct: the constructor (make-NAME with a &key argument per slot, or each
//     (:constructor name [boa-lambda-list]), none for (:constructor nil)), the
//     predicate NAME-p, the copier copy-NAME (both renamable or suppressed with nil),
//     and an accessor per slot named by :conc-name (default NAME-; (:conc-name) and
//     (:conc-name nil) mean the bare slot name), with a setf function unless the
//     slot is :read-only. Slots inherited through :include are not listed;
//   - defclass and define-condition: a generic function per slot :reader, :writer and
//     :accessor (an accessor also defines its setf function);
//   - (setf (symbol-function 'name) …), (setf (fdefinition 'name) …) and
//     (setf (macro-function 'name) …), with no lambda list.
//
// Definitions are found anywhere in evaluated code, not in quoted data or backquote
// templates (a macro's expansion is not a definition until it is expanded; macros
// that define things are not expanded). Local functions of flet, labels and macrolet
// are kept per scope with the span in which they are visible, so a check can resolve
// a call to a local function (File.LocalAt).
//
// Every definition carries its package (the name's explicit prefix, else the last
// in-package before it), its parsed lambda list, whether it has a docstring and where,
// and the span of its name.
//
// The tests compare the index of alexandria's sources with SBCL after loading it: the
// same external symbols, and for every function and macro the same kind and lambda list.
package index
