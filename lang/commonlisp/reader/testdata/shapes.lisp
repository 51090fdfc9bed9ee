;;;; shapes.lisp is the SBCL side of the reader's oracle test (oracle_test.go): for each
;;;; file named on the command line it prints "FILE name", then one line per top-level
;;;; form as SBCL reads it, in a notation the Go test also prints from its forms:
;;;;   symbols S"NAME", keywords K"NAME", uninterned symbols U"NAME", NIL as NIL;
;;;;   integers and ratios by value; floats by type; characters CHARcode;
;;;;   strings in double quotes with \" \\ and \u{HEX} for non-printing or non-ASCII;
;;;;   lists (a b . c); vectors #(…); bit vectors #*…; commas ,x ,.x ,@x;
;;;;   anything else by its kind (ARRAY, COMPLEX, PATH, OTHER); a cons met again (#n#)
;;;;   as SHARED.
;;;; defpackage and in-package forms are evaluated so that later symbols read; a read
;;;; error prints "ERROR message" and ends the file.

(require :asdf)
(require :sb-rt)
(let ((*standard-output* (make-broadcast-stream))
      (*error-output* (make-broadcast-stream)))
  (ignore-errors (asdf:load-system :alexandria)))

(defun out-string (s stream)
  (write-char #\" stream)
  (loop for c across s
        do (cond ((member c '(#\" #\\)) (write-char #\\ stream) (write-char c stream))
                 ((or (< (char-code c) 32) (> (char-code c) 126))
                  (format stream "\\u{~x}" (char-code c)))
                 (t (write-char c stream))))
  (write-char #\" stream))

(defvar *seen* nil
  "The conses printed so far in the current top-level form: #n= structure is printed
once, then as SHARED.")

(defun shape-list (x s)
  (write-char #\( s)
  (loop for tail on x
        for first = t then nil
        do (unless first (write-char #\Space s))
           (when (gethash tail *seen*)
             (write-string ". SHARED" s)
             (loop-finish))
           (setf (gethash tail *seen*) t)
           (shape (car tail) s)
           (when (and (cdr tail) (or (atom (cdr tail)) (sb-impl::comma-p (cdr tail))))
             (write-string " . " s)
             (shape (cdr tail) s)
             (loop-finish)))
  (write-char #\) s))

(defun shape-symbol (x s)
  (cond ((null x) (write-string "NIL" s))
        ((keywordp x) (write-char #\K s) (out-string (symbol-name x) s))
        ((null (symbol-package x)) (write-char #\U s) (out-string (symbol-name x) s))
        (t (write-char #\S s) (out-string (symbol-name x) s))))

(defun shape (x s)
  (cond ((sb-impl::comma-p x)
         (write-string (aref #("," ",." ",@") (sb-impl::comma-kind x)) s)
         (shape (sb-impl::comma-expr x) s))
        ((consp x) (shape-list x s))
        ((symbolp x) (shape-symbol x s))
        ((integerp x) (format s "~d" x))
        ((rationalp x) (format s "~d/~d" (numerator x) (denominator x)))
        ((floatp x) (write-string (symbol-name (type-of x)) s))
        ((complexp x) (write-string "COMPLEX" s))
        ((characterp x) (format s "CHAR~d" (char-code x)))
        ((stringp x) (out-string x s))
        ((bit-vector-p x) (format s "#*~{~d~}" (coerce x 'list)))
        ((vectorp x)
         (write-string "#(" s)
         (loop for e across x for first = t then nil
               do (unless first (write-char #\Space s)) (shape e s))
         (write-char #\) s))
        ((arrayp x) (write-string "ARRAY" s))
        ((pathnamep x) (write-string "PATH" s))
        (t (write-string "OTHER" s))))

(defun shapes (file)
  (format t "FILE ~a~%" file)
  (with-open-file (in file :external-format :utf-8)
    (let ((*package* (find-package :cl-user)))
      (handler-case
          (loop for form = (read in nil in)
                until (eq form in)
                do (let ((*seen* (make-hash-table :test 'eq)))
                     (write-line (with-output-to-string (s) (shape form s))))
                   (when (and (consp form) (member (car form) '(defpackage in-package)))
                     (let ((*standard-output* (make-broadcast-stream)))
                       (eval form))))
        (error (e) (format t "ERROR ~a~%" (substitute #\Space #\Newline (princ-to-string e))))))))

(format t "BEGIN~%")
(dolist (file (cdr sb-ext:*posix-argv*))
  (shapes file))
