;;;; exports.lisp is the SBCL side of the index's oracle test (oracle_test.go): it loads
;;;; alexandria with ASDF and prints one line per external symbol of ALEXANDRIA:
;;;;   NAME<TAB>KIND<TAB>LAMBDA-LIST
;;;; KIND is macro, function or none; the lambda list is what sb-introspect reports,
;;;; printed with parameter names in lower case and without packages.

(require :asdf)
(require :sb-introspect)
(let ((*standard-output* (make-broadcast-stream))
      (*error-output* (make-broadcast-stream)))
  (asdf:load-system :alexandria))

(defpackage :oracle-params (:use :cl))

(defun plain (x)
  (cond ((consp x) (cons (plain (car x)) (plain (cdr x))))
        ((and (symbolp x) x (not (keywordp x)))
         (intern (symbol-name x) :oracle-params))
        (t x)))

(defun kind (s)
  (cond ((macro-function s) "macro")
        ((fboundp s) "function")
        (t "none")))

(defun lambda-list (s)
  (if (fboundp s)
      (let ((*package* (find-package :oracle-params))
            (*print-case* :downcase)
            (*print-pretty* nil)
            (*print-readably* nil))
        (prin1-to-string
         (plain (sb-introspect:function-lambda-list (or (macro-function s) (fdefinition s))))))
      ""))

(format t "BEGIN~%")
(let ((names '()))
  (do-external-symbols (s :alexandria) (push s names))
  (dolist (s (sort names #'string< :key #'symbol-name))
    (format t "~a~c~a~c~a~%" (symbol-name s) #\Tab (kind s) #\Tab (lambda-list s))))
