package resolve

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// attributeAt returns the attribute expression whose attribute name starts at loc, nil
// when there is none.
func (t *target) attributeAt(loc lang.Location) *syntax.Node {
	if t.tree == nil {
		return nil
	}
	var found *syntax.Node
	t.tree.Walk(func(n *syntax.Node) bool {
		if found != nil {
			return false
		}
		if n.Kind == "attribute" {
			if a := n.Child("attribute"); a != nil && a.Pos.Line == loc.Line && a.Pos.Column == loc.Column {
				found = n
				return false
			}
		}
		return n.Pos.Line <= loc.Line && n.EndPos.Line >= loc.Line
	})
	return found
}

// moduleOfAttribute returns the module the object of the attribute at loc names through
// the file's imports (os.path for `os.path.joinn`: pyright calls it "..path", the name
// os's stub imports it under), else fallback.
func (t *target) moduleOfAttribute(loc lang.Location, fallback string) string {
	if n := t.attributeAt(loc); n != nil && t.idx != nil {
		obj := n.Child("object").Text(t.src)
		if q := t.idx.qualified(obj); q != "" {
			return q
		}
		if m, ok := t.idx.modules[obj]; ok {
			return m
		}
		if m := t.relativeBinding(obj); m != "" {
			return m // from . import lp as lp3: pyright's "..lp"
		}
	}
	return fallback
}

// relativeBinding returns the absolute name a relative from-import of the file binds
// local to ("" when none does).
func (t *target) relativeBinding(local string) string {
	module, pkg := fileModule(t.f.Path)
	found := ""
	t.tree.Walk(func(n *syntax.Node) bool {
		if found != "" || n.Kind != "import_from_statement" {
			return found == ""
		}
		m := n.Child("module_name")
		if m == nil || m.Kind != "relative_import" {
			return false
		}
		from := resolveModule(m, t.src, module, pkg)
		for _, c := range n.Children {
			name, alias := c, c
			if c.Kind == "aliased_import" {
				name, alias = c.Child("name"), c.Child("alias")
			}
			if c.Field == "name" && alias.Text(t.src) == local && from != "" {
				found = from + "." + name.Text(t.src)
			}
		}
		return false
	})
	return found
}

// overloadKeyword turns pyright's "No overloads for f match" on a call that passes a
// keyword no overload of f takes (subprocess.run(cmd, capture_ouput=True)) into that
// keyword's unknown-keyword, with the closest keywords the overloads do take. pyright
// names no argument for overloaded callees, so the mistake had no did-you-mean.
func (j *job) overloadKeyword(t *target, p *lang.Problem) {
	call := t.callAt(p.Location)
	if call == nil {
		return
	}
	fn := call.Child("function").Text(t.src)
	module, name := "builtins", fn
	if q := t.idx.qualified(fn); q != "" {
		module, name = parentModule(q), syntax.LastName(q)
	} else if strings.Contains(fn, ".") || t.idx.defs[fn] {
		return
	}
	kws, open := j.overloadKeywords(module, name)
	if open || len(kws) == 0 {
		return
	}
	accepted := map[string]bool{}
	for _, k := range kws {
		accepted[k] = true
	}
	for _, a := range call.Child("arguments").Children {
		n := a.Child("name")
		if a.Kind != "keyword_argument" || n == nil || accepted[n.Text(t.src)] {
			continue
		}
		kw := n.Text(t.src)
		p.Kind, p.Symbol = lang.UnknownKeyword, kw
		p.Location = lang.Location{File: t.f.Path, Line: n.Pos.Line, Column: n.Pos.Column,
			EndLine: n.EndPos.Line, EndColumn: n.EndPos.Column + 1}
		p.Message = fmt.Sprintf("No parameter named %q: no overload of %s takes it", kw, strings.TrimPrefix(module+"."+name, "builtins."))
		p.Suggestion = didYouMean(closest(kw, kws))
		return
	}
}

// callAt returns the innermost call that starts at loc or whose function does.
func (t *target) callAt(loc lang.Location) *syntax.Node {
	if t.tree == nil || t.idx == nil {
		return nil
	}
	var found *syntax.Node
	t.tree.Walk(func(n *syntax.Node) bool {
		if n.Kind == "call" && n.Child("arguments") != nil {
			for _, at := range []*syntax.Node{n, n.Child("function")} {
				if at != nil && at.Pos.Line == loc.Line && at.Pos.Column == loc.Column {
					found = n
				}
			}
		}
		return n.Pos.Line <= loc.Line && n.EndPos.Line >= loc.Line
	})
	return found
}

// overloadKeywords returns the keywords some overload of module's function (or class:
// its __init__ and __new__) name takes; open is set when one takes **kwargs.
func (j *job) overloadKeywords(module, name string) (kws []string, open bool) {
	src, _, _ := j.declFile(module)
	if src == nil {
		return nil, false
	}
	tree, err := j.fe.parse(src)
	if err != nil {
		return nil, false
	}
	for _, ps := range overloads(tree, src, name) {
		for _, prm := range ps.NamedChildren() {
			if prm.Kind == "dictionary_splat_pattern" {
				open = true
			}
		}
		kws = append(kws, keywordNames(ps, src)...)
	}
	return kws, open
}

// overloads returns the parameter lists of every definition of the top-level function
// name (its overloads and version branches), or of the __init__ and __new__ of the
// top-level class name.
func overloads(root *syntax.Node, src []byte, name string) []*syntax.Node {
	var out []*syntax.Node
	for _, s := range syntax.ModuleStatements(root) {
		d, _ := syntax.Unwrap(s)
		if d.Child("name").Text(src) != name {
			continue
		}
		switch d.Kind {
		case "function_definition":
			out = append(out, d.Child("parameters"))
		case "class_definition":
			for _, m := range syntax.ModuleStatements(d.Child("body")) {
				if md, _ := syntax.Unwrap(m); md.Kind == "function_definition" {
					if n := md.Child("name").Text(src); n == "__init__" || n == "__new__" {
						out = append(out, md.Child("parameters"))
					}
				}
			}
		}
	}
	return out
}
