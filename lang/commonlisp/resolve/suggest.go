package resolve

import (
	"sort"
	"strings"

	"github.com/agentverify/agentverify/lang/commonlisp/cltable"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
	"github.com/agentverify/agentverify/lang/suggest"
)

// otherLanguage maps names models bring from other languages' standard libraries to what
// Common Lisp has instead.
var otherLanguage = map[string]string{}

func init() { // one table, read-only once built
	add := func(advice string, names ...string) {
		for _, n := range names {
			otherLanguage[n] = advice
		}
	}
	add("use uiop:split-string (string &key max separator), or split-sequence:split-sequence from the split-sequence system",
		"string-split", "split-string", "str-split", "split", "split-str", "string-tokenize")
	add(`use (format nil "~{~a~^,~}" strings) to join with a separator, or (apply #'uiop:strcat strings)`,
		"string-join", "join", "str-join", "join-strings", "strings-join", "string-join-list")
	add("use cl-ppcre:regex-replace-all from the cl-ppcre system, or search and replace in a loop (CL's replace copies one sequence into another)",
		"str-replace", "string-replace", "replace-all", "string-replace-all", "str-replace-all", "replace-string")
	add("use (concatenate 'string a b …) or uiop:strcat",
		"string-concat", "concat", "strcat", "str-concat", "string-append", "concatenate-strings", "str-append")
	add("use (search needle haystack), which returns the position or nil",
		"string-contains", "str-contains", "contains", "includes", "string-includes", "string-contains-p")
	add("use uiop:string-prefix-p (prefix string)", "string-starts-with", "starts-with", "str-starts-with", "startswith", "string-starts-with-p")
	add("use uiop:string-suffix-p (string suffix)", "string-ends-with", "ends-with", "str-ends-with", "endswith", "string-ends-with-p")
	add(`use (string-trim '(#\Space #\Tab #\Newline) string)`, "trim", "strip", "str-trim", "string-strip", "trim-whitespace", "string-trim-whitespace")
	add("use string-upcase", "to-upper", "upcase", "string-upper", "uppercase", "str-upcase", "to-uppercase", "upper")
	add("use string-downcase", "to-lower", "downcase", "string-lower", "lowercase", "str-downcase", "to-lowercase", "lower")
	add(`use (princ-to-string x) or (format nil "~a" x)`, "to-string", "str", "number-to-string", "int-to-string", "tostring", "string-from", "num-to-str", "stringify")
	add("use (parse-integer string); for other numbers, read-from-string with *read-eval* bound to nil",
		"parse-int", "string-to-number", "str-to-int", "to-int", "parse-number", "atoi", "string-to-int", "parse-float", "string-to-float")
	add("use (subseq sequence start end)", "substring", "substr", "str-sub", "slice", "sub-string")
	add("use (length sequence)", "len", "str-length", "string-length", "size", "strlen", "count-of")
	add(`use (format t "~a~%" x)`, "print-line", "println", "printf", "puts", "echo", "console-log", "print-ln")
	add(`use (format nil control-string argument…)`, "sprintf", "string-format", "format-string", "str-format")
	add("use (remove-if-not predicate sequence)", "filter", "select", "keep-if")
	add("use (reduce function sequence :initial-value x)", "foldl", "fold", "foldr", "fold-left", "fold-right", "inject")
	add("use (mapc function list) or dolist", "for-each", "foreach", "each")
	add("use (gethash key table)", "hash-get", "dict-get", "get-hash", "hash-ref", "map-get", "hash-table-get")
	add("use (setf (gethash key table) value)", "hash-set", "dict-set", "hash-put", "map-put", "put-hash", "hash-table-set")
	add("use (loop for k being the hash-keys of table collect k), or alexandria:hash-table-keys", "hash-keys", "dict-keys", "hash-table-keys", "keys")
	add("use (make-hash-table :test 'equal)", "make-hash-map", "make-dict", "make-map", "dict", "hash-map", "make-hashtable")
	add("use (null list) or (zerop (length sequence))", "is-empty", "empty-p", "emptyp", "empty?", "is-nil", "nil?", "null?")
	add("use (position item sequence), or (search subsequence sequence)", "index-of", "indexof", "find-index", "str-index", "string-index")
	add("use (reverse sequence)", "string-reverse", "str-reverse")
	add("use (reduce #'+ sequence)", "sum")
	add("use (error 'condition-type …) to signal, handler-case to catch", "raise", "throw-error", "try", "try-catch")
	add("use (car (last list))", "last-element", "last-item")
	add("use (cdr (assoc key alist))", "assoc-get", "alist-get")
	add("use (loop for i from start below end collect i), or alexandria:iota", "range")
}

// suggestFunction says what an undefined name in function position could be instead,
// and the one name to write instead when there is exactly one near it.
func (k *walker) suggestFunction(sym *reader.Form, c callee) (suggestion, single string) {
	lower := strings.ToLower(sym.Name)
	if advice, ok := otherLanguage[lower]; ok {
		return "there is no " + lower + " in Common Lisp: " + advice, ""
	}
	if where := k.w.elsewhere(sym.Name, c.home); where != "" {
		return where, ""
	}
	near := lowered(closest(sym.Name, k.w.candidates(c.home), 3))
	if len(near) == 0 {
		return "", ""
	}
	if len(near) == 1 && sym.Package == "" {
		single = near[0]
	}
	return "did you mean " + orList(near) + "?", single
}

// elsewhere tells where a name the project defines in another package than home is.
func (w *world) elsewhere(name string, home *pkg) string {
	for _, key := range sortedKeys(w.funcs) { // sorted: the same answer every run
		fd := w.funcs[key]
		pkgName, n, _ := strings.Cut(key, "::")
		if n != name || fd.fromDeps || home != nil && pkgName == home.name {
			continue
		}
		p := w.pkgs[pkgName]
		if p != nil && p.exports[name] {
			return "it is " + strings.ToLower(pkgName+":"+name) + ": write the prefix, or :use or :import-from " + strings.ToLower(pkgName)
		}
		return "it is defined in package " + pkgName + " and not exported: write " + strings.ToLower(pkgName+"::"+name) +
			", or export it"
	}
	return ""
}

// candidates are the function names a misspelling of one in package home is compared
// with: COMMON-LISP's operators, the project's functions and macros, and the exports
// of the packages home uses.
func (w *world) candidates(home *pkg) []string {
	var out []string
	for s := range cltable.All {
		if s.Callable() {
			out = append(out, s.Name)
		}
	}
	for n := range w.names {
		out = append(out, strings.ToUpper(n))
	}
	if home == nil {
		return out
	}
	for _, u := range home.use {
		if up := w.pkgs[u]; up != nil && up.origin != fromCL && up.listed {
			out = append(out, w.externals(up)...)
		}
	}
	return out
}

func lowered(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.ToLower(x)
	}
	return out
}

// closest returns up to n of the candidates nearest to name by edit distance (all at the
// same, least distance), within a distance that grows with the name's length.
func closest(name string, candidates []string, n int) []string {
	limit := max(1, len(name)/4)
	type scored struct {
		s string
		d int
	}
	var best []scored
	seen := map[string]bool{}
	for _, c := range candidates {
		if c == name || seen[c] || abs(len(c)-len(name)) > limit {
			continue
		}
		seen[c] = true
		if d := suggest.Distance(name, c); d <= limit {
			best = append(best, scored{c, d})
		}
	}
	sort.Slice(best, func(i, j int) bool {
		if best[i].d != best[j].d {
			return best[i].d < best[j].d
		}
		return best[i].s < best[j].s
	})
	var out []string
	for i := 0; i < len(best) && i < n && best[i].d == best[0].d; i++ {
		out = append(out, best[i].s)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
