package resolve

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
)

// Did-you-mean by signature (issue #24): COMMON-LISP's sequence functions come in
// families that differ in what their item argument is — an object compared with EQL
// (remove, find, position, count, member, assoc, rassoc, substitute) or a predicate
// (remove-if, find-if, …). A call that passes a fresh (lambda …) as the item compares
// every element with a new function object, which none can be: it meant the -if
// sibling. A call that passes a number, string or character as the predicate of an -if
// function fails when called: it meant the plain one. Both are valid calls Lisp does not
// reject when compiling.

// itemFamilies maps a function taking an item to its predicate sibling, with the index
// of the item among the arguments.
var itemFamilies = map[string]struct {
	sibling string
	item    int
}{
	"REMOVE": {"REMOVE-IF", 0}, "DELETE": {"DELETE-IF", 0}, "FIND": {"FIND-IF", 0},
	"POSITION": {"POSITION-IF", 0}, "COUNT": {"COUNT-IF", 0}, "MEMBER": {"MEMBER-IF", 0},
	"ASSOC": {"ASSOC-IF", 0}, "RASSOC": {"RASSOC-IF", 0},
	"SUBSTITUTE": {"SUBSTITUTE-IF", 1}, "NSUBSTITUTE": {"NSUBSTITUTE-IF", 1},
}

// predicateFamilies maps a predicate function to its item sibling and the predicate's
// index.
var predicateFamilies = map[string]struct {
	sibling string
	pred    int
}{}

func init() {
	for item, f := range itemFamilies {
		predicateFamilies[f.sibling] = struct {
			sibling string
			pred    int
		}{item, f.item}
		predicateFamilies[f.sibling+"-NOT"] = struct {
			sibling string
			pred    int
		}{item, f.item}
	}
}

// signatureSibling reports a call of a COMMON-LISP sequence function whose item or
// predicate argument belongs to its sibling, with the sibling as suggestion and fix.
func (k *walker) signatureSibling(f *reader.Form, c callee) {
	if !c.cl || len(f.Items) < 2 {
		return
	}
	args := f.Items[1:]
	if fam, ok := itemFamilies[c.name]; ok && fam.item < len(args) && freshFunction(args[fam.item]) && !hasKey(args[fam.item+1:], "TEST", "TEST-NOT") {
		k.sibling(f, fam.sibling, fmt.Sprintf("(%s …) compares each element with its item using EQL, and a fresh function object is EQL to nothing: the item here is a function",
			strings.ToLower(c.name)))
		return
	}
	if fam, ok := predicateFamilies[c.name]; ok && fam.pred < len(args) && literalDatum(args[fam.pred]) {
		k.sibling(f, fam.sibling, fmt.Sprintf("(%s …) calls its first argument as a predicate, and %s is not a function",
			strings.ToLower(c.name), args[fam.pred].String()))
	}
}

// sibling reports f as a call that meant sibling, whose name replaces the operator as
// written (with its package prefix, if any).
func (k *walker) sibling(f *reader.Form, sibling, why string) {
	op := f.Items[0]
	name := strings.ToLower(sibling)
	if op.Package != "" {
		name = strings.ToLower(op.Package) + ":" + name
	}
	k.rep.add(lang.WrongSignature, op.Span, written(op), why, "did you mean "+name+"? (the call fits its signature)")
	k.rep.replace(op.Span, name)
}

// freshFunction reports whether x makes a new function object: (lambda …) or
// #'(lambda …).
func freshFunction(x *reader.Form) bool {
	if x.Kind == reader.Function {
		x = x.Items[0]
	}
	return x.Kind == reader.List && x.Head().IsSymbol("LAMBDA")
}

// literalDatum reports whether x is a self-evaluating literal that is not a function
// designator: a number, string or character.
func literalDatum(x *reader.Form) bool {
	switch x.Kind {
	case reader.Integer, reader.Ratio, reader.Float, reader.String, reader.Char:
		return true
	}
	return false
}

// hasKey reports whether the keyword arguments args pass one of keys.
func hasKey(args []*reader.Form, keys ...string) bool {
	for i := 0; i < len(args); i++ {
		for _, key := range keys {
			if args[i].IsKeyword(key) {
				return true
			}
		}
	}
	return false
}
