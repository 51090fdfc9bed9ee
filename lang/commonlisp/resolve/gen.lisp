;;;; gen.lisp writes builtin_gen.go to standard output: the external symbols of the
;;;; packages SBCL and ASDF provide without a source registry (UIOP, ASDF and the SB-*
;;;; packages programs use), with whether each names a function or a macro and, for a
;;;; function, its lambda list, the packages COMMON-LISP-USER uses, and the symbols SBCL
;;;; (its deprecation declarations) and ASDF (uiop:with-deprecation) declare deprecated,
;;;; with the replacements they name. Run by
;;;; `go generate` as
;;;;   sbcl --script gen.lisp > builtin_gen.go

(require :asdf)
(require :sb-introspect)

(defpackage :builtin-gen (:use :cl))
(in-package :builtin-gen)

(defpackage :builtin-params (:use :cl))

(defparameter *packages*
  '("UIOP" "ASDF" "SB-EXT" "SB-ALIEN" "SB-DEBUG" "SB-GRAY" "SB-PROFILE" "SB-SYS"
    "SB-THREAD" "SB-MOP" "SB-SEQUENCE" "SB-UNIX" "SB-INT")
  "The packages whose external symbols are listed; the other SB-*, UIOP/* and ASDF/*
packages are known to exist but not listed.")

(defun plain (x)
  (cond ((consp x) (cons (plain (car x)) (plain (cdr x))))
        ((and (symbolp x) x (not (keywordp x)) (not (eq (symbol-package x) (find-package :cl))))
         (intern (symbol-name x) :builtin-params))
        (t x)))

(defun kind (s)
  (cond ((special-operator-p s) "opSpecial")
        ((macro-function s) "opMacro")
        ((fboundp s) "opFunction")
        (t "opNone")))

(defun lambda-list (s)
  (when (and (fboundp s) (not (special-operator-p s)) (not (macro-function s)))
    (let ((ll (ignore-errors (sb-introspect:function-lambda-list (fdefinition s))))
          (*package* (find-package :builtin-params))
          (*print-case* :downcase)
          (*print-pretty* nil)
          (*print-readably* nil))
      (if (listp ll) (prin1-to-string (plain ll)) nil))))

(defun go-string (s)
  (with-output-to-string (out)
    (write-char #\" out)
    (loop for c across s
          do (case c
               (#\" (write-string "\\\"" out))
               (#\\ (write-string "\\\\" out))
               (#\Newline (write-string "\\n" out))
               (t (write-char c out))))
    (write-char #\" out)))

(defun externals (p)
  (let ((names '()))
    (do-external-symbols (s p)
      (push s names))
    (sort names #'string< :key #'symbol-name)))

(defun sbcl-deprecation (s)
  "(kind state since replacements) when SBCL declares S deprecated as a function,
variable or type: the declaration SBCL's own compiler warns from."
  (dolist (kind '(:function :variable :type))
    (let ((d (ignore-errors (sb-int:info kind :deprecated s))))
      (when d
        (return (list (string-downcase kind)
                      (string-downcase (symbol-name (sb-int::deprecation-info-state d)))
                      (format nil "~a ~a" (sb-int::deprecation-info-software d)
                              (sb-int::deprecation-info-version d))
                      (mapcar (lambda (r)
                                (format nil "~a:~a" (short-name (symbol-package r)) (symbol-name r)))
                              (sb-int::deprecation-info-replacements d))))))))

(defun uiop-condition (name)
  (find-symbol name "UIOP/VERSION"))

(defun asdf-deprecation (s home)
  "(kind state since replacements) when ASDF declares the function S deprecated: its
compiler macro (uiop:with-deprecation) signals a deprecation condition on a call. The
replacements are the symbols the docstring names after \"use\"."
  (let ((cm (and (fboundp s) (compiler-macro-function s)))
        (found nil))
    (when cm
      (handler-case
          (handler-bind ((warning (lambda (c)
                                    (when (typep c (uiop-condition "DEPRECATED-FUNCTION-CONDITION"))
                                      (setf found c))
                                    (muffle-warning c))))
            (funcall cm (list s) nil))
        (error (e)
          (when (typep e (uiop-condition "DEPRECATED-FUNCTION-CONDITION"))
            (setf found e)))))
    (when found
      (list "function"
            (cond ((typep found (uiop-condition "DEPRECATED-FUNCTION-STYLE-WARNING")) "early")
                  ((typep found (uiop-condition "DEPRECATED-FUNCTION-WARNING")) "late")
                  (t "final"))
            "ASDF"
            (doc-replacements (documentation s 'function) home)))))

(defun short-name (p)
  "The shortest name of package P: how programs write it (UIOP, not UIOP/DRIVER)."
  (first (sort (cons (package-name p) (copy-list (package-nicknames p))) #'< :key #'length)))

(defun symbol-token-p (tok)
  "Whether TOK looks like a Lisp symbol name rather than an English word."
  (and (> (length tok) 2)
       (or (find #\- tok) (find #\: tok))
       (alpha-char-p (char tok 0))))

(defun use-sentences (doc)
  "The parts of DOC (upper-cased) after each \"use \", up to the end of that sentence."
  (let ((up (string-upcase doc))
        (start 0)
        (out '()))
    (loop for i = (search "USE " up :start2 start)
          while i
          do (let ((end (or (search ". " up :start2 i) (length up))))
               (push (subseq up (+ i 4) end) out)
               (setf start end)))
    (nreverse out)))

(defun sentence-tokens (sentence)
  "The words of SENTENCE that look like symbol names, without trailing punctuation."
  (remove-if-not #'symbol-token-p
                 (mapcar (lambda (w) (string-right-trim ".;" w))
                         (uiop:split-string (substitute #\Space #\, sentence)
                                            :separator '(#\Space #\Newline #\Tab #\( #\))))))

(defun external-function (tok home)
  "PACKAGE:NAME of the external function TOK names (unqualified: in HOME), or NIL."
  (let* ((colon (position #\: tok))
         (pkg (if colon (find-package (subseq tok 0 colon)) home))
         (name (if colon (subseq tok (1+ colon)) tok)))
    (when (and pkg (not (search "::" tok)))
      (multiple-value-bind (sym status) (find-symbol name pkg)
        (when (and sym (eq status :external) (fboundp sym))
          (format nil "~a:~a" (if colon (subseq tok 0 colon) (short-name home)) name))))))

(defun doc-replacements (doc home)
  "The external functions DOC names after \"use\", as PACKAGE:NAME."
  (let ((out '()))
    (when doc
      (dolist (sentence (use-sentences doc))
        (dolist (tok (sentence-tokens sentence))
          (let ((r (external-function tok home)))
            (when r (pushnew r out :test #'string=))))))
    (nreverse out)))

(defun deprecation (s home)
  (or (sbcl-deprecation s)
      (and (member (package-name home) '("UIOP/DRIVER" "ASDF/INTERFACE") :test #'string=)
           (asdf-deprecation s home))))

(defun main ()
  (format t "// Code generated by \"sbcl --script gen.lisp\" from SBCL ~a; DO NOT EDIT.~%~%"
          (lisp-implementation-version))
  (format t "package resolve~%~%")
  (format t "// clUserUses are the packages COMMON-LISP-USER uses in SBCL.~%")
  (format t "var clUserUses = []string{~{~a~^, ~}}~%~%"
          (mapcar (lambda (p) (go-string (package-name p))) (package-use-list :cl-user)))
  (format t "// builtinPackages are the listed packages of SBCL and ASDF with their external symbols.~%")
  (format t "var builtinPackages = []builtinPackage{~%")
  (dolist (name *packages*)
    (let ((p (find-package name)))
      (format t "	{Name: ~a, Nicknames: []string{~{~a~^, ~}}, Symbols: []builtinSymbol{~%"
              (go-string (package-name p)) (mapcar #'go-string (package-nicknames p)))
      (dolist (s (externals p))
        (let ((ll (lambda-list s)))
          (format t "		{~a, ~a, ~a},~%" (go-string (symbol-name s)) (kind s) (go-string (or ll "")))))
      (format t "	}},~%")))
  (format t "}~%~%")
  (format t "// deprecatedBuiltins are the external symbols of the listed packages that SBCL and~%")
  (format t "// ASDF declare deprecated, with the state of the deprecation and its replacements.~%")
  (format t "var deprecatedBuiltins = []deprecatedBuiltin{~%")
  (dolist (name *packages*)
    (let ((p (find-package name)))
      (dolist (s (externals p))
        (let ((d (deprecation s p)))
          (when d
            (destructuring-bind (kind state since replacements) d
              (format t "	{~a, ~a, ~a, ~a, ~a, []string{~{~a~^, ~}}},~%"
                      (go-string (package-name p)) (go-string (symbol-name s)) (go-string kind)
                      (go-string state) (go-string since) (mapcar #'go-string replacements))))))))
  (format t "}~%"))

(main)
