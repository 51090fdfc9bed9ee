// Package reader is a Common Lisp reader written in Go. It reads source text into forms
// that keep their spans (byte offset, line and column of start and end), without
// evaluating anything and without a Lisp installed.
//
// It implements the standard syntax of CLHS chapter 2 with readtable case :upcase:
// lists and dotted lists, strings, characters (#\a, #\Space, #\(), numbers of every
// syntax (integers, ratios and floats with any exponent marker; #B #O #X #nR), the
// macros ' ` , ,@ ,. #' #( #* #: #. #nA #C #S #P #n= #n# and nested #|…|# comments,
// symbols with |…| and \ escapes and package prefixes (pkg:sym, pkg::sym, :keyword).
// #+ and #- evaluate their feature expression (:and, :or, :not) against a feature list
// (DefaultFeatures unless Options say otherwise); a form they exclude is read as under
// *read-suppress* (so it may use packages that do not exist) and its span is recorded
// in File.Skipped. Comments are kept with their spans.
//
// Bad input never panics. A syntax error is reported at its position (an unbalanced
// '(' at the '(', an unknown dispatch macro at its '#', a string without its closing
// quote at the opening one) and the reader resumes at the next line after the failing
// top-level form's start that begins with '(' in column 1, so one broken form does not
// hide the rest of the file. Text read again this way is bounded by a budget of a few
// times the file's size, so recovery stays linear on hostile input; nesting deeper than
// 10000 forms is an error rather than a risk to the stack.
//
// Positions count lines from 1 and columns from 1 in bytes; a leading UTF-8 byte order
// mark is skipped. SBCL is the reference: a test reads a corpus of corner cases and all
// of alexandria with SBCL and with this reader and compares them form by form.
//
// The reader does not intern: a symbol is its package prefix and name as read, and
// resolving it against packages is the caller's business (see the index package).
// #. is returned as a ReadEval form, not evaluated.
package reader
