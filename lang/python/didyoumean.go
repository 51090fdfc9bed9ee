package python

import (
	"fmt"
	"strings"

	"github.com/agentverify/agentverify/lang"
)

// attributeAt returns the attribute expression whose attribute name starts at loc, nil
// when there is none.
func (t *target) attributeAt(loc lang.Location) *node {
	if t.tree == nil {
		return nil
	}
	var found *node
	t.tree.walk(func(n *node) bool {
		if found != nil {
			return false
		}
		if n.kind == "attribute" {
			if a := n.child("attribute"); a != nil && a.pos.Line == loc.Line && a.pos.Column == loc.Column {
				found = n
				return false
			}
		}
		return n.pos.Line <= loc.Line && n.endPos.Line >= loc.Line
	})
	return found
}

// moduleOfAttribute returns the module the object of the attribute at loc names through
// the file's imports (os.path for `os.path.joinn`: pyright calls it "..path", the name
// os's stub imports it under), else fallback.
func (t *target) moduleOfAttribute(loc lang.Location, fallback string) string {
	if n := t.attributeAt(loc); n != nil && t.idx != nil {
		obj := n.child("object").text(t.src)
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
	t.tree.walk(func(n *node) bool {
		if found != "" || n.kind != "import_from_statement" {
			return found == ""
		}
		m := n.child("module_name")
		if m == nil || m.kind != "relative_import" {
			return false
		}
		from := resolveModule(m, t.src, module, pkg)
		for _, c := range n.children {
			name, alias := c, c
			if c.kind == "aliased_import" {
				name, alias = c.child("name"), c.child("alias")
			}
			if c.field == "name" && alias.text(t.src) == local && from != "" {
				found = from + "." + name.text(t.src)
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
	fn := call.child("function").text(t.src)
	module, name := "builtins", fn
	if q := t.idx.qualified(fn); q != "" {
		module, name = parentModule(q), lastName(q)
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
	for _, a := range call.child("arguments").children {
		n := a.child("name")
		if a.kind != "keyword_argument" || n == nil || accepted[n.text(t.src)] {
			continue
		}
		kw := n.text(t.src)
		p.Kind, p.Symbol = lang.UnknownKeyword, kw
		p.Location = lang.Location{File: t.f.Path, Line: n.pos.Line, Column: n.pos.Column,
			EndLine: n.endPos.Line, EndColumn: n.endPos.Column + 1}
		p.Message = fmt.Sprintf("No parameter named %q: no overload of %s takes it", kw, strings.TrimPrefix(module+"."+name, "builtins."))
		p.Suggestion = didYouMean(closest(kw, kws))
		return
	}
}

// callAt returns the innermost call that starts at loc or whose function does.
func (t *target) callAt(loc lang.Location) *node {
	if t.tree == nil || t.idx == nil {
		return nil
	}
	var found *node
	t.tree.walk(func(n *node) bool {
		if n.kind == "call" && n.child("arguments") != nil {
			for _, at := range []*node{n, n.child("function")} {
				if at != nil && at.pos.Line == loc.Line && at.pos.Column == loc.Column {
					found = n
				}
			}
		}
		return n.pos.Line <= loc.Line && n.endPos.Line >= loc.Line
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
		for _, prm := range ps.namedChildren() {
			if prm.kind == "dictionary_splat_pattern" {
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
func overloads(root *node, src []byte, name string) []*node {
	var out []*node
	for _, s := range moduleStatements(root) {
		d, _ := unwrap(s)
		if d.child("name").text(src) != name {
			continue
		}
		switch d.kind {
		case "function_definition":
			out = append(out, d.child("parameters"))
		case "class_definition":
			for _, m := range moduleStatements(d.child("body")) {
				if md, _ := unwrap(m); md.kind == "function_definition" {
					if n := md.child("name").text(src); n == "__init__" || n == "__new__" {
						out = append(out, md.child("parameters"))
					}
				}
			}
		}
	}
	return out
}
