package resolve

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/signature"
	"github.com/agentverify/agentverify/lang/python/syntax"
	"github.com/agentverify/agentverify/lang/suggest"
	"github.com/agentverify/agentverify/lazyregexp"
)

// Did-you-mean by signature (issue #24): a call to a real function that does not fit it
// often meant a sibling of the same module that it does fit — json.dump(obj) for
// json.dumps, json.load(text) for json.loads, os.mkdir(p, exist_ok=True) for
// os.makedirs. The siblings are read from the module's stub or source; a call fits one
// when its arguments bind to one of its overloads as Python binds them, and, for an
// argument of the wrong type, when that argument's type fits the sibling's annotation.

// sibling is one function of a module, with its overloads and the source they are in.
type sibling struct {
	name string
	defs []*syntax.Node
	src  []byte
}

// callIssue classifies pyright's call error msg and says what the call meant: the
// keyword no overload takes, the closest real keywords, or a sibling the call fits.
func (j *job) callIssue(t *target, p *lang.Problem, msg string) {
	call(p, msg)
	if p.Kind == lang.WrongSignature && noOverloads.MatchString(msg) {
		j.overloadKeyword(t, p)
	}
	if p.Kind == lang.UnknownKeyword && p.Suggestion == "" {
		p.Suggestion = j.keywordSuggestion(t, p.Location, p.Symbol)
	}
	if p.Suggestion == "" {
		j.signatureSibling(t, p, "")
	}
}

// argumentSibling suggests, for pyright's argument-type error full, the sibling whose
// annotation the argument fits, and reports whether there is one.
func (j *job) argumentSibling(t *target, p *lang.Problem, full string) bool {
	m := argumentType.FindStringSubmatch(full)
	return m != nil && j.signatureSibling(t, p, m[1])
}

// signatureSibling sets p's suggestion (and, for one sibling of a module the file
// imports, its fix) to the siblings of the callee that the call at p fits, and reports
// whether there are any. argType is the type pyright gave the argument at p for an
// argument-type error, "" otherwise.
func (j *job) signatureSibling(t *target, p *lang.Problem, argType string) bool {
	call := t.callAround(p.Location)
	if call == nil || t.idx == nil {
		return false
	}
	fnNode := call.Child("function")
	fn := fnNode.Text(t.src)
	module, name, ok := t.callee(fn)
	a := signature.CallArgs(call.Child("arguments"), t.src)
	if !ok || a.Unknown {
		return false
	}
	fits := j.fittingSiblings(module, name, p.Kind, a, argumentIndex(call, p.Location, t.src), argType)
	if len(fits) == 0 {
		return false
	}
	prefix := strings.TrimSuffix(fn, name)
	var names []string
	for _, f := range fits {
		names = append(names, prefix+f)
	}
	p.Suggestion = fmt.Sprintf("did you mean %s? (the call fits its signature)", strings.Join(names, " or "))
	if len(fits) == 1 && prefix != "" {
		at := fnNode.Child("attribute")
		p.Fix = &lang.Fix{Description: fmt.Sprintf("call %s instead of %s", names[0], fn),
			Edits: []lang.Edit{{Range: lang.Location{File: t.f.Path, Line: at.Pos.Line, Column: at.Pos.Column,
				EndLine: at.EndPos.Line, EndColumn: at.EndPos.Column + 1}, NewText: fits[0]}}}
	}
	return true
}

// callee returns the module and name of the function a call names: a module's (through
// the file's imports) or a builtin; ok is false for other callees.
func (t *target) callee(fn string) (module, name string, ok bool) {
	if q := t.idx.qualified(fn); q != "" {
		return parentModule(q), syntax.LastName(q), true
	}
	if strings.Contains(fn, ".") || t.idx.defs[fn] {
		return "", "", false
	}
	return "builtins", fn, true
}

// fittingSiblings returns the (at most two) siblings of module.name, closest first, that
// a call passing a fits.
func (j *job) fittingSiblings(module, name string, kind lang.Kind, a signature.Args, argAt int, argType string) []string {
	var fits []string
	for _, s := range j.siblings(module) {
		if s.name != name && !strings.HasPrefix(s.name, "_") && related(name, s.name, kind, a) && s.accepts(a, argAt, argType) {
			fits = append(fits, s.name)
		}
	}
	sort.SliceStable(fits, func(i, k int) bool {
		return suggest.Distance(name, fits[i]) < suggest.Distance(name, fits[k])
	})
	return fits[:min(len(fits), 2)]
}

// related reports whether a sibling's name is close enough to the callee's to be what
// the call meant: a shared stem (load, loads; dump, dumps; randint, randrange), or, for
// a keyword the callee lacks, any sibling that names it (mkdir, makedirs for exist_ok).
func related(callee, cand string, kind lang.Kind, a signature.Args) bool {
	if kind == lang.UnknownKeyword && len(a.Keywords) > 0 {
		return true
	}
	p := 0
	for p < len(callee) && p < len(cand) && callee[p] == cand[p] {
		p++
	}
	return p >= 4 || p >= 3 && p*2 >= len(callee) || suggest.Distance(callee, cand) <= 1
}

// accepts reports whether the call's arguments bind to one of the sibling's overloads,
// every keyword by a parameter of its own name (not **kwargs), and the argument at argAt
// fits its parameter's annotation when argType is given.
func (s sibling) accepts(a signature.Args, argAt int, argType string) bool {
	src := s.src
	for _, d := range s.defs {
		_, decs := syntax.Unwrap(d)
		def, _ := syntax.Unwrap(d)
		sg := signature.Parse(signature.Of(def, decs, src), false)
		if signature.Bind(sg, a) != "" {
			continue
		}
		named := true
		for _, k := range a.Keywords {
			named = named && sg.Keyword(k) != nil
		}
		if !named {
			continue
		}
		if argType == "" || argAt < 0 || fitsType(argType, annotationAt(def, src, argAt)) {
			return true
		}
	}
	return false
}

// siblings lists the functions of a module: those its stub or source defines, and those
// it re-exports from another module (pickle's dump is _pickle's).
func (j *job) siblings(module string) []sibling {
	src, _, _ := j.declFile(module)
	if src == nil {
		return nil
	}
	tree, err := j.fe.parse(src)
	if err != nil {
		return nil
	}
	out := siblingsOf(tree, src, nil)
	d := j.declOf(module)
	if d == nil {
		return out
	}
	from := map[string]map[string]string{} // module → original name → local name
	for local, q := range d.imports {
		if d.names[local] && strings.Contains(q, ".") && !strings.HasPrefix(local, "_") {
			m := parentModule(q)
			if from[m] == nil {
				from[m] = map[string]string{}
			}
			from[m][syntax.LastName(q)] = local
		}
	}
	for m, names := range from {
		if osrc, _, _ := j.declFile(m); osrc != nil {
			if otree, err := j.fe.parse(osrc); err == nil {
				out = append(out, siblingsOf(otree, osrc, names)...)
			}
		}
	}
	return out
}

// siblingsOf lists the top-level functions of a module's tree with their overloads; only
// (and named as) those in rename when it is not nil.
func siblingsOf(root *syntax.Node, src []byte, rename map[string]string) []sibling {
	byName := map[string]int{}
	var out []sibling
	for _, s := range syntax.ModuleStatements(root) {
		d, _ := syntax.Unwrap(s)
		if d.Kind != "function_definition" {
			continue
		}
		name := d.Child("name").Text(src)
		if rename != nil {
			local, ok := rename[name]
			if !ok {
				continue
			}
			name = local
		}
		i, ok := byName[name]
		if !ok {
			i = len(out)
			byName[name] = i
			out = append(out, sibling{name: name, src: src})
		}
		out[i].defs = append(out[i].defs, s)
	}
	return out
}

// callAround returns the innermost call whose span holds loc.
func (t *target) callAround(loc lang.Location) *syntax.Node {
	if t.tree == nil {
		return nil
	}
	var found *syntax.Node
	t.tree.Walk(func(n *syntax.Node) bool {
		if !within2(n, loc) {
			return false
		}
		if n.Kind == "call" && n.Child("arguments") != nil && n.Child("arguments").Kind == "argument_list" {
			found = n
		}
		return true
	})
	return found
}

// within2 reports whether loc's start lies in n.
func within2(n *syntax.Node, loc lang.Location) bool {
	after := loc.Line > n.Pos.Line || loc.Line == n.Pos.Line && loc.Column >= n.Pos.Column
	before := loc.Line < n.EndPos.Line || loc.Line == n.EndPos.Line && loc.Column <= n.EndPos.Column
	return after && before
}

// argumentIndex returns the position of the positional argument of call at loc, -1 when
// loc is not at one.
func argumentIndex(call *syntax.Node, loc lang.Location, src []byte) int {
	i := 0
	for _, c := range call.Child("arguments").NamedChildren() {
		switch c.Kind {
		case "keyword_argument", "comment":
			continue
		}
		if c.Pos.Line == loc.Line && c.Pos.Column == loc.Column {
			return i
		}
		i++
	}
	return -1
}

// annotationAt returns the annotation of the positional parameter at index i of def
// (self and cls included as written), "" when it has none.
func annotationAt(def *syntax.Node, src []byte, i int) string {
	k := 0
	for _, p := range def.Child("parameters").NamedChildren() {
		switch p.Kind {
		case "positional_separator", "keyword_separator", "list_splat_pattern", "dictionary_splat_pattern", "comment":
			continue
		}
		if k == i {
			if ty := p.Child("type"); ty != nil {
				return ty.Text(src)
			}
			return ""
		}
		k++
	}
	return ""
}

// typeArgs matches an innermost bracketed list of type arguments.
var typeArgs = lazyregexp.New(`\[[^\[\]]*\]`)

// topLevel drops the bracketed arguments of an annotation: SupportsRead[str] is not a
// str.
func topLevel(ann string) string {
	for {
		next := typeArgs.ReplaceAllString(ann, "")
		if next == ann {
			return ann
		}
		ann = next
	}
}

// typeWord matches the type names an annotation is made of.
var typeWord = lazyregexp.New(`[A-Za-z_][A-Za-z_0-9]*`)

// familyWords are the type names of annotations a value of each family fits.
var familyWords = map[string][]string{
	"str":      {"str", "StrPath", "StrOrBytesPath", "AnyStr", "LiteralString"},
	"bytes":    {"bytes", "ReadableBuffer", "AnyStr", "StrOrBytesPath"},
	"file":     {"SupportsRead", "SupportsWrite", "SupportsReadline", "IO", "TextIO", "BinaryIO"},
	"int":      {"int", "float", "SupportsIndex", "SupportsInt"},
	"callable": {"Callable"},
}

// fitsType reports whether a value of pyright's type arg fits the annotation ann, for
// the families a mistaken sibling call mixes up: text, bytes, files, numbers, callables.
func fitsType(arg, ann string) bool {
	words := map[string]bool{}
	for _, w := range typeWord.FindAllString(topLevel(ann), -1) {
		words[w] = true
	}
	for _, w := range familyWords[typeFamily(arg)] {
		if words[w] {
			return true
		}
	}
	return false
}

// fileTypes are the classes pyright names file objects by.
var fileTypes = map[string]bool{"TextIOWrapper": true, "BufferedReader": true, "BufferedWriter": true, "BufferedRandom": true,
	"FileIO": true, "IO": true, "TextIO": true, "BinaryIO": true, "StringIO": true, "BytesIO": true}

// typeFamily names the family of pyright's type t, "" for others.
func typeFamily(t string) string {
	if lit, ok := strings.CutPrefix(t, "Literal["); ok && lit != "" {
		return literalFamily(lit)
	}
	switch {
	case t == "str" || t == "LiteralString":
		return "str"
	case t == "bytes" || t == "bytearray":
		return "bytes"
	case t == "int":
		return "int"
	case strings.HasPrefix(t, "(") && strings.Contains(t, ") -> ") || strings.HasPrefix(t, "type["):
		return "callable"
	}
	if base, _, _ := strings.Cut(t, "["); fileTypes[base] {
		return "file"
	}
	return ""
}

// literalFamily is the family of a Literal[…]'s value, lit the text after "Literal[".
func literalFamily(lit string) string {
	switch c := lit[0]; {
	case c == '\'' || c == '"':
		return "str"
	case c == 'b':
		return "bytes"
	case c == '-' || c >= '0' && c <= '9':
		return "int"
	}
	return ""
}
