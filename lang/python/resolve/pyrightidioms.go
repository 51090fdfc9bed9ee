package resolve

import (
	"strings"
	"unicode"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
	"github.com/agentverify/agentverify/lazyregexp"
)

// dropFalseAlarms drops the findings that idiomatic code draws from pyright (design.md
// §4.3.1): members of modules whose real source defines them or builds its namespace at
// run time; standard-library members of another platform or left out of typeshed; code
// for Python 2 behind an alias (six's `if PY3: … else: …`); a member used where a
// hasattr test on its owner guards it.
func (j *job) dropFalseAlarms(ps []lang.Problem) []lang.Problem {
	byPath := map[string]*target{}
	for _, t := range j.targets {
		byPath[t.f.Path] = t
	}
	out := ps[:0]
	keywords := map[lang.Location]bool{}
	calls := map[*syntax.Node]bool{}
	var generated []lang.Problem
	for _, p := range ps {
		if mine, ok := j.generatedInit(byPath[p.Location.File], p, calls); ok {
			generated = append(generated, mine...) // a constructor a decorator generates
			continue
		}
		if ok, keep := j.hiddenSubmodule(byPath[p.Location.File], &p); ok && !keep {
			continue // a member of a submodule a package's __getattr__ hid (submodule.go)
		}
		if p.Kind == lang.UnknownKeyword {
			at := lang.Location{File: p.Location.File, Line: p.Location.Line, Column: p.Location.Column}
			if keywords[at] {
				continue // pyright's, and the same keyword followed through **kwargs
			}
			keywords[at] = true
		}
		if p.Kind == lang.UnknownSymbol && !strings.Contains(p.Symbol, ".") {
			j.relativeSymbol(&p)
		}
		if !j.falseAlarm(byPath[p.Location.File], p) {
			out = append(out, p)
		}
	}
	return append(out, generated...)
}

// falseAlarm reports whether p, found in t (nil when not a changed Python file), is one
// of the false alarms dropFalseAlarms drops.
func (j *job) falseAlarm(t *target, p lang.Problem) bool {
	if j.namespaceFalseAlarm(p) || j.stdlibFalseAlarm(p) || j.hookedImport(p) || inferredType(p) {
		return true
	}
	if t == nil || t.tree == nil {
		return false
	}
	return existence[p.Kind] && j.otherPython(t).covers(t, p, j.inNoPython) ||
		cooperativeSuper(t, p) || assignedMember(t, p) || j.platformMock(t, p) || privateClassKeyword(t, p)
}

// existence are the kinds that say something does not exist, which code for another
// Python or platform may use.
var existence = map[lang.Kind]bool{
	lang.Undefined: true, lang.UnknownSymbol: true, lang.UnknownMember: true, lang.UnknownImport: true,
	lang.WrongArity: true, lang.UnknownKeyword: true, lang.WrongSignature: true, lang.TypeError: true,
	lang.UnknownPackage: true, lang.UndeclaredDependency: true, lang.MissingDependency: true,
	lang.TypeMismatch: true,
}

// otherCode is where a file runs only on another Python than the checked one: ranges of
// lines, each with the name whose members it may use ("" for any).
type otherCode []guardedRange

type guardedRange struct {
	from, to int
	owner    string
	// members: only the members guarded (a try that catches AttributeError).
	members bool
	// py3: code for another Python 3 than the checked one (a version constant, a skipif),
	// where what the standard library declares for no Python 3 is still made up.
	py3 bool
}

// covers reports whether p lies in code for another Python or platform; inNoPython
// tells a standard-library member no Python 3 declares, which no py3 range covers.
func (o otherCode) covers(t *target, p lang.Problem, inNoPython func(lang.Problem) bool) bool {
	for _, g := range o {
		if p.Location.Line < g.from || p.Location.Line > g.to {
			continue
		}
		if g.members && p.Kind != lang.UnknownMember && p.Kind != lang.UnknownSymbol {
			continue
		}
		if g.py3 && inNoPython(p) {
			continue
		}
		if g.owner == "" || strings.HasPrefix(p.Symbol, g.owner+".") || t.receiver(p.Location) == syntax.LastName(g.owner) {
			return true
		}
	}
	return false
}

// py2Alias matches a condition on an alias of the Python major version: six's PY2/PY3
// (PY3K, PY34 too), bare or through a module.
var py2Alias = lazyregexp.New(`^(not\s+)?(?:\w+\.)?(PY2|PY3\w*|IS_PY3|IS_PY2|PYTHON3|PYTHON2)$`)

// hasattrTest matches hasattr(owner, "name"), negated or not.
var hasattrTest = lazyregexp.New(`^(?:not\s+)?hasattr\(\s*([\w.]+)\s*,`)

// otherPython returns where t runs only under Python 2 (the branch an alias test sends
// Python 2 to) or where a hasattr test guards its owner's members, once per file.
func (j *job) otherPython(t *target) otherCode {
	if o, ok := j.other[t]; ok {
		return o
	}
	var o otherCode
	probes := featureProbes(t.tree, t.src)
	aliased := aliasedTypes(t.tree, t.src)
	consts := versionConstants(t)
	o = append(o, onPython3(moduleSkip(t.tree, t.src, consts))...)
	t.tree.Walk(func(n *syntax.Node) bool {
		switch n.Kind {
		case "decorated_definition":
			o = append(o, onPython3(skipGuard(n, t.src, consts))...)
		case "block", "module":
			o = append(o, earlyReturns(n, t.src)...)
		case "try_statement":
			if b := n.Child("body"); b != nil && catches(n, t.src, "AttributeError") {
				o = append(o, guardedRange{from: b.Pos.Line, to: b.EndPos.Line, members: true})
			}
		case "with_statement":
			o = append(o, suppressed(n, t.src)...)
		case "if_statement":
			o = append(o, ifGuards(n, t.src, probes)...)
			o = append(o, onPython3(constantGuards(n, t.src, consts))...)
			o = append(o, aliasNarrowing(n, t.src, aliased)...)
		case "elif_clause":
			o = append(o, aliasNarrowing(n, t.src, aliased)...)
		}
		return true
	})
	j.other[t] = o
	return o
}

// featureProbes are the module's names bound to getattr(obj, "name", None): a test of
// the name against None is a feature test (six's print_ = getattr(builtins, "print",
// None); if print_ is None: def print_(…) for Python 2.5).
func featureProbes(root *syntax.Node, src []byte) map[string]bool {
	out := map[string]bool{}
	for _, s := range syntax.ModuleStatements(root) {
		as := s.FirstOfKind("assignment")
		if s.Kind != "expression_statement" || as == nil || as.Child("left").Kind != "identifier" {
			continue
		}
		r := as.Child("right")
		if r == nil || r.Kind != "call" || r.Child("function").Text(src) != "getattr" {
			continue
		}
		if args := r.Child("arguments").NamedChildren(); len(args) == 3 && args[2].Text(src) == "None" {
			out[as.Child("left").Text(src)] = true
		}
	}
	return out
}

// suppressed guards the body of `with contextlib.suppress(AttributeError)` (its members)
// and of suppress(ImportError) (all of it: an optional import).
func suppressed(with *syntax.Node, src []byte) []guardedRange {
	clause := with.FirstOfKind("with_clause")
	body := with.Child("body")
	if clause == nil || body == nil || !strings.Contains(clause.Text(src), "suppress(") {
		return nil
	}
	c := clause.Text(src)
	switch {
	case strings.Contains(c, "ImportError") || strings.Contains(c, "ModuleNotFoundError"):
		return []guardedRange{{from: body.Pos.Line, to: body.EndPos.Line}}
	case strings.Contains(c, "AttributeError"):
		return []guardedRange{{from: body.Pos.Line, to: body.EndPos.Line, members: true}}
	}
	return nil
}

// catches reports whether one of a try's handlers names the exception class.
func catches(try *syntax.Node, src []byte, class string) bool {
	for _, c := range try.Children {
		if c.Kind == "except_clause" {
			header, _, _ := strings.Cut(c.Text(src), ":")
			if strings.Contains(header, class) {
				return true
			}
		}
	}
	return false
}

// earlyReturns are the hasattr guards of a block that return or raise when the member
// exists: the rest of the block is the fallback (if hasattr(m, "new"): return m.new(x)
// followed by return m.old(x)).
func earlyReturns(block *syntax.Node, src []byte) []guardedRange {
	var out []guardedRange
	for _, s := range block.Children {
		if s.Kind != "if_statement" || s.Child("alternative") != nil {
			continue
		}
		m := hasattrTest.FindStringSubmatch(strings.TrimSpace(s.Child("condition").Text(src)))
		body := blockOf(s.Child("consequence"))
		if m == nil || len(body) == 0 {
			continue
		}
		if last := body[len(body)-1]; last.Kind == "return_statement" || last.Kind == "raise_statement" {
			out = append(out, guardedRange{from: s.Pos.Line, to: block.EndPos.Line, owner: m[1]})
		}
	}
	return out
}

// ifGuards are the ranges an if statement guards: the fallback of a feature probe, the
// Python 2 branch of an alias test, the whole statement for a hasattr test.
func ifGuards(n *syntax.Node, src []byte, probes map[string]bool) []guardedRange {
	var o []guardedRange
	cond := strings.TrimSpace(n.Child("condition").Text(src))
	c := n.Child("consequence")
	if v, ok := strings.CutSuffix(cond, " is None"); ok && probes[v] && c != nil {
		o = append(o, guardedRange{from: c.Pos.Line, to: c.EndPos.Line}) // the fallback
	}
	if m := py2Alias.FindStringSubmatch(cond); m != nil {
		py2 := strings.HasPrefix(m[2], "PY2") || strings.HasSuffix(m[2], "2")
		if (m[1] != "") == py2 {
			o = append(o, elseRanges(n)...) // if PY3: / if not PY2: … else: Python 2
		} else if c != nil {
			o = append(o, guardedRange{from: c.Pos.Line, to: c.EndPos.Line})
		}
	}
	if m := hasattrTest.FindStringSubmatch(cond); m != nil {
		o = append(o, guardedRange{from: n.Pos.Line, to: n.EndPos.Line, owner: m[1]})
	}
	return o
}

// pyAliasIn matches a Python-version alias anywhere in a condition.
var pyAliasIn = lazyregexp.New(`\b(PY2|PY3\w*|IS_PY[23]|PYTHON[23])\b`)

// aliasNarrowing guards the members used in a branch that narrows with isinstance where
// a version alias is involved — tested with it (six: elif PY3 and isinstance(s,
// binary_type)), or a type the module binds differently per Python (isinstance(s,
// binary_type), binary_type = bytes under PY3, str else): pyright sees those types as
// both Pythons' at once, so its narrowing is wrong.
func aliasNarrowing(n *syntax.Node, src []byte, aliased map[string]bool) []guardedRange {
	cond := n.Child("condition").Text(src)
	c := n.Child("consequence")
	if c == nil || !strings.Contains(cond, "isinstance(") {
		return nil
	}
	if pyAliasIn.MatchString(cond) || mentionsAny(cond, aliased) {
		return []guardedRange{{from: c.Pos.Line, to: c.EndPos.Line, members: true}}
	}
	return nil
}

// aliasedTypes are the names the module binds in the branches of a version-alias test.
func aliasedTypes(root *syntax.Node, src []byte) map[string]bool {
	out := map[string]bool{}
	for _, s := range root.Children {
		if s.Kind != "if_statement" || !py2Alias.MatchString(strings.TrimSpace(s.Child("condition").Text(src))) {
			continue
		}
		s.Walk(func(m *syntax.Node) bool {
			if m.Kind == "assignment" && m.Child("left").Kind == "identifier" {
				out[m.Child("left").Text(src)] = true
			}
			return m.Kind != "function_definition" && m.Kind != "class_definition"
		})
	}
	return out
}

// mentionsAny reports whether text names one of names as a whole word.
func mentionsAny(text string, names map[string]bool) bool {
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if names[w] {
			return true
		}
	}
	return false
}

// elseRanges are the lines of an if statement's elif and else branches.
func elseRanges(n *syntax.Node) []guardedRange {
	var out []guardedRange
	for _, c := range n.Children {
		if c.Field == "alternative" {
			out = append(out, guardedRange{from: c.Pos.Line, to: c.EndPos.Line})
		}
	}
	return out
}

// implementationOnly are members of standard-library modules that exist on one
// implementation of Python and that typeshed does not describe.
var implementationOnly = map[string]bool{"sys.pypy_version_info": true, "sys.pypy_translation_info": true}

// stdlibFalseAlarm reports whether pyright's unknown standard-library member p exists
// after all: typeshed declares it for another platform only (os.startfile, msvcrt's
// functions on Linux), or leaves it out while the interpreter's own source defines it
// (urllib.request.proxy_bypass_environment), or it belongs to another implementation.
func (j *job) stdlibFalseAlarm(p lang.Problem) bool {
	if p.Kind != lang.UnknownSymbol || !strings.Contains(p.Symbol, ".") {
		return false
	}
	if implementationOnly[p.Symbol] {
		return true
	}
	i := strings.LastIndexByte(p.Symbol, '.')
	module, name := p.Symbol[:i], p.Symbol[i+1:]
	std, err := j.stdlibIndex()
	if err != nil {
		return false
	}
	if _, ok := std.Since(module); !ok {
		return false
	}
	declared, platform := j.stubConditions(module)
	if platform[name] {
		return true
	}
	if declared[name] {
		return false // declared for other Python versions: pyright is right
	}
	ns := j.namespaceOf(module)
	return ns != nil && !ns.dynamic && ns.names[name]
}

// stubConditions returns the top-level names of a standard-library module's stub, and
// those it declares only under a sys.platform test.
func (j *job) stubConditions(module string) (all, platform map[string]bool) {
	all, platform = map[string]bool{}, map[string]bool{}
	src := j.source(module)
	if src == nil {
		return all, platform
	}
	tree, err := j.fe.g.Parse(src)
	if err != nil {
		return all, platform
	}
	var names []string
	stubNames(tree, src, "", &names)
	for _, n := range names {
		all[n] = true
	}
	tree.Walk(func(n *syntax.Node) bool {
		if n.Kind == "if_statement" && strings.Contains(n.Child("condition").Text(src), "sys.platform") {
			var under []string
			stubNames(n, src, "", &under)
			for _, u := range under {
				platform[u] = true
			}
			return false
		}
		return n.Kind == "module" || n.Kind == "if_statement" || n.Kind == "block" ||
			n.Kind == "else_clause" || n.Kind == "elif_clause"
	})
	return all, platform
}

// cooperativeSuper reports whether p is pyright's "X is not an attribute of object" on
// super().X: in a class deriving from object alone that is a mixin's cooperative call,
// which the class it is mixed into answers through the MRO (pygments' PostgresBase).
func cooperativeSuper(t *target, p lang.Problem) bool {
	if p.Kind != lang.UnknownMember || !strings.HasSuffix(p.Message, " is not an attribute of object") {
		return false
	}
	if p.Location.Line < 1 || p.Location.Line > len(t.lf.Lines) {
		return false
	}
	line := t.lf.Lines[p.Location.Line-1]
	before := strings.TrimRight(line[:min(max(p.Location.Column-1, 0), len(line))], " \t")
	return strings.HasSuffix(before, "super().")
}

// lineAt returns the text of line n of t, "" outside it.
func lineAt(t *target, n int) string {
	if n < 1 || n > len(t.lf.Lines) {
		return ""
	}
	return t.lf.Lines[n-1]
}

// assignedMember reports whether p is pyright's unknown module member at the target of an
// assignment (builtins.file = self._file): setting a module's attribute defines it.
func assignedMember(t *target, p lang.Problem) bool {
	if p.Kind != lang.UnknownSymbol || p.Location.EndLine != p.Location.Line || p.Location.EndColumn == 0 {
		return false
	}
	if n := t.attributeAt(p.Location); n != nil {
		return n.Field == "left" // not an annotation: x: collections.Mapping = {}
	}
	line := lineAt(t, p.Location.Line)
	if p.Location.EndColumn-1 > len(line) {
		return false
	}
	rest := strings.TrimLeft(line[p.Location.EndColumn-1:], " \t")
	return strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==")
}

// mockClass matches pyright's member error on a class.
var mockClass = lazyregexp.New(`^(\w+) is not an attribute of type\[(\w+)\]$`)

// platformMock reports whether p is a member of a class that stands in for a
// standard-library module on other platforms (setuptools: if Windows: import winreg,
// else: class winreg: …): the module's stub declares it for the platform it is for.
func (j *job) platformMock(t *target, p lang.Problem) bool {
	m := mockClass.FindStringSubmatch(p.Message)
	if p.Kind != lang.UnknownMember || m == nil || t.idx == nil || t.idx.modules[m[2]] != m[2] {
		return false
	}
	return j.stdlibFalseAlarm(lang.Problem{Kind: lang.UnknownSymbol, Symbol: m[2] + "." + m[1]})
}

// privateClassKeyword reports whether p is pyright's unknown keyword in the bases of a
// class deriving from a private class of a module (typing._SpecialForm, _root=True):
// typeshed does not describe the __init_subclass__ of private machinery.
func privateClassKeyword(t *target, p lang.Problem) bool {
	if p.Kind != lang.UnknownKeyword || t.tree == nil {
		return false
	}
	found := false
	t.tree.Walk(func(n *syntax.Node) bool {
		if found || n.Kind != "class_definition" || n.Pos.Line > p.Location.Line || n.EndPos.Line < p.Location.Line {
			return !found
		}
		sup := n.Child("superclasses")
		if sup != nil && sup.Pos.Line <= p.Location.Line && p.Location.Line <= sup.EndPos.Line {
			for _, b := range sup.NamedChildren() {
				found = found || b.Kind == "attribute" && strings.HasPrefix(b.Child("attribute").Text(t.src), "_")
			}
		}
		return true
	})
	return found
}

// narrowedBool matches pyright's member error on a truthiness-narrowed sentinel.
var narrowedBool = lazyregexp.New(`is not an attribute of Literal\[(True|False)\]$`)

// inferredType reports pyright's errors about a type it inferred from untyped code rather
// than one the code states: a member of Literal[True]/Literal[False], which only a
// truthiness test narrows a `self._content = False … = b"…"` union to (pyright reports
// the other members of the union on their own, so a real typo is still found), and a
// call of a partly Unknown type (requests' auth, rebound to a tuple on one branch).
func inferredType(p lang.Problem) bool {
	switch p.Kind {
	case lang.UnknownMember:
		return narrowedBool.MatchString(p.Message)
	case lang.TypeError:
		return notCallable.MatchString(p.Message) && strings.Contains(p.Message, "Unknown")
	}
	return false
}
