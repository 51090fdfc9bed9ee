package resolve

import (
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/signature"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// keywordSuggestion suggests, for pyright's "No parameter named" at loc, the closest
// keywords the callee really has: a function of the file, or a function or class of a
// module the file imports (read from the module's source). "" when the callee is a
// method or cannot be found.
func (j *job) keywordSuggestion(t *target, loc lang.Location, kw string) string {
	if t.tree == nil {
		return ""
	}
	call := t.callWithKeywordAt(loc)
	if call == nil {
		return ""
	}
	fn := call.Child("function").Text(t.src)
	var names []string
	if !strings.Contains(fn, ".") && t.idx.objects[fn] == "" {
		names = keywordNames(findDef(t.tree, t.src, fn), t.src)
		if len(names) == 0 && !t.idx.defs[fn] {
			names, _ = j.overloadKeywords("builtins", fn)
		}
	} else if q := t.idx.qualified(fn); q != "" {
		i := strings.LastIndexByte(q, '.')
		if src := j.source(q[:i]); src != nil {
			if tree, err := j.fe.parse(src); err == nil {
				names = keywordNames(findDef(tree, src, q[i+1:]), src)
			}
		}
		if len(names) == 0 {
			names, _ = j.overloadKeywords(q[:i], q[i+1:]) // overloads, __new__ (timedelta)
		}
	}
	return didYouMean(closest(kw, names))
}

// callWithKeywordAt returns the call one of whose keyword arguments is named at loc.
func (t *target) callWithKeywordAt(loc lang.Location) *syntax.Node {
	var found *syntax.Node
	t.tree.Walk(func(n *syntax.Node) bool {
		if found != nil {
			return false
		}
		if n.Kind != "call" {
			return true
		}
		if args := n.Child("arguments"); args != nil {
			for _, a := range args.Children {
				if name := a.Child("name"); a.Kind == "keyword_argument" && name != nil &&
					name.Pos.Line == loc.Line && name.Pos.Column == loc.Column {
					found = n
				}
			}
		}
		return true
	})
	return found
}

// findDef returns the parameters of the module-level function name, or of the __init__
// of the module-level class name (in version branches too); nil when there is none.
func findDef(root *syntax.Node, src []byte, name string) *syntax.Node {
	var found *syntax.Node
	root.Walk(func(n *syntax.Node) bool {
		switch {
		case found != nil:
			return false
		case n.Kind == "function_definition" && n.Child("name").Text(src) == name:
			found = n.Child("parameters")
			return false
		case n.Kind == "class_definition" && n.Child("name").Text(src) == name:
			if init := findDef(n.Child("body"), src, "__init__"); init != nil {
				found = init
			}
			return false
		case n.Kind == "function_definition" || n.Kind == "class_definition":
			return false // nested definitions are not the callee
		}
		return true
	})
	return found
}

// keywordNames lists the parameters of ps a caller can pass by keyword: not self or
// cls, not positional-only ones (before "/"), not *args or **kwargs.
func keywordNames(ps *syntax.Node, src []byte) []string {
	if ps == nil {
		return nil
	}
	var out []string
	for _, p := range ps.NamedChildren() {
		switch p.Kind {
		case "positional_separator":
			out = out[:0]
		case "list_splat_pattern", "dictionary_splat_pattern", "keyword_separator":
		default:
			if id := signature.ParamName(p); id != nil {
				if name := id.Text(src); name != "self" && name != "cls" {
					out = append(out, name)
				}
			}
		}
	}
	return out
}
