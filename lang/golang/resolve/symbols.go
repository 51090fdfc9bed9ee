package resolve

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lazyregexp"
)

// curated holds hints for names agents are known to invent, where the closest real name
// would be the wrong advice (errors.Wrap is not errors.Unwrap).
var curated = map[string]string{
	"errors.Wrap":        `the standard errors package has no Wrap: use fmt.Errorf("...: %w", err)`,
	"errors.Wrapf":       `the standard errors package has no Wrapf: use fmt.Errorf("...: %w", err)`,
	"errors.WithMessage": `the standard errors package has no WithMessage: use fmt.Errorf("...: %w", err)`,
	"errors.WithStack":   `the standard errors package records no stacks: return the error, wrapped with fmt.Errorf("...: %w", err)`,
	"errors.Cause":       `the standard errors package has no Cause: use errors.Is, errors.As or errors.Unwrap`,
	"strings.Reverse":    `package strings has no Reverse: reverse the runes with r := []rune(s); slices.Reverse(r); string(r)`,
	"sync.Map.Len":       `sync.Map keeps no count: count the entries with Range, or keep a counter next to the map`,
	"sync.Map.Keys":      `sync.Map has no Keys: collect them with Range`,
	"ioutil.ReadAll":     `io/ioutil is deprecated: use io.ReadAll`,
	"os.ReadAll":         `did you mean io.ReadAll (package io)?`,
	"slices.Filter":      `package slices has no Filter: use slices.DeleteFunc on a copy, or a loop`,
	"slices.Map":         `package slices has no Map: use a loop`,
	"maps.Values2":       `did you mean maps.Values?`,
	"time.Milliseconds":  `did you mean time.Millisecond (a Duration constant)?`,
	"http.StatusOk":      `did you mean http.StatusOK?`,
}

// unknownSymbol handles "undefined: pkg.Name".
func (c *converter) unknownSymbol(pkg *load.Package, e load.Error, qual, name string) lang.Problem {
	f := lang.Problem{Kind: lang.UnknownSymbol, Symbol: qual + "." + name}
	sel, _ := findSelector(pkg, c.res.Fset, e.Pos)
	var imported *types.Package
	if sel != nil && pkg.Info != nil {
		if id, ok := sel.X.(*ast.Ident); ok {
			if pn, ok := pkg.Info.Uses[id].(*types.PkgName); ok {
				imported = pn.Imported()
			}
		}
	}
	if imported == nil {
		// Not a package qualifier after all (go/types says "undefined: x.y" for some
		// selectors on undefined operands): report what it said.
		f.Kind, f.Message = lang.Undefined, strings.SplitN(e.Msg, " (", 2)[0]
		return f
	}
	f.Message = fmt.Sprintf("%s.%s is not declared by package %s", qual, name, imported.Path())
	if hint, ok := curated[imported.Name()+"."+name]; ok {
		f.Suggestion = hint
		return f
	}
	var cands []string
	scope := imported.Scope()
	for _, n := range scope.Names() {
		if ast.IsExported(n) {
			cands = append(cands, n)
		}
	}
	if !ast.IsExported(name) {
		if obj := scope.Lookup(name); obj != nil {
			f.Message = fmt.Sprintf("%s.%s is not exported by package %s", qual, name, imported.Path())
		}
	}
	names := closest(name, cands)
	if len(names) == 0 {
		// No name is near, but the package's sentinel errors may be what was meant.
		if hint, best := sentinelHint(qual, name, imported); hint != "" {
			names = []string{best}
			f.Suggestion = hint
		}
	} else {
		f.Suggestion = didYouMean(qual+".", names)
	}
	if len(names) == 1 && names[0] != "" {
		// One candidate: an exact fix, its range the selected name (set by typeError).
		f.Fix = &lang.Fix{Description: fmt.Sprintf("replace %s.%s with %s.%s", qual, name, qual, names[0]),
			Edits: []lang.Edit{{NewText: names[0]}}}
	}
	return f
}

// unknownMember handles "x.Name undefined (type T has no field or method Name...)".
func (c *converter) unknownMember(pkg *load.Package, e load.Error, x, name, why string) lang.Problem {
	f := lang.Problem{Kind: lang.UnknownMember, Symbol: x + "." + name, Message: fmt.Sprintf("%s.%s undefined (%s)", x, name, unquotePkgs(why))}
	sel, _ := findSelector(pkg, c.res.Fset, e.Pos)
	if sel == nil || pkg.Info == nil {
		return f
	}
	t := pkg.Info.TypeOf(sel.X)
	if t == nil {
		return f
	}
	f.Symbol = types.TypeString(t, types.RelativeTo(pkg.Types)) + "." + name
	if hint, ok := curated[typeKey(t)+"."+name]; ok {
		f.Suggestion = hint
		return f
	}
	prefix := types.ExprString(sel.X)
	if len(prefix) > 30 {
		prefix = "…"
	}
	f.Suggestion = didYouMean(prefix+".", closest(name, members(t, pkg.Types)))
	return f
}

var quotedPkg = lazyregexp.New(`"(?:[^"]*/)?([^"/]+)"\.`)

// unquotePkgs turns go/types' `*"sync".Map` (its spelling when two imported packages share
// a name, such as sync and internal/sync) into `*sync.Map`.
func unquotePkgs(s string) string { return quotedPkg.ReplaceAllString(s, "$1.") }

// typeKey names a (pointer to a) named type as "pkgname.Type" for the curated table.
func typeKey(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Name() + "." + n.Obj().Name()
	}
	return ""
}

// members lists the fields and methods selectable on a value of type t from package
// from: the value and pointer method sets, and fields promoted through embedding.
func members(t types.Type, from *types.Package) []string {
	ms := memberSet{from: from, seen: map[string]bool{}}
	for _, s := range typeutil.IntuitiveMethodSet(t, nil) {
		ms.add(s.Obj())
	}
	if p, isPtr := t.Underlying().(*types.Pointer); isPtr {
		t = p.Elem()
	}
	ms.walk(t, 0, map[types.Type]bool{})
	sort.Strings(ms.out)
	return ms.out
}

// memberSet collects the names selectable from package from, once each.
type memberSet struct {
	from *types.Package
	seen map[string]bool
	out  []string
}

func (ms *memberSet) add(obj types.Object) {
	if obj == nil || ms.seen[obj.Name()] || obj.Name() == "_" {
		return
	}
	if !obj.Exported() && obj.Pkg() != ms.from {
		return
	}
	ms.seen[obj.Name()] = true
	ms.out = append(ms.out, obj.Name())
}

// walk adds the methods of an interface type, or the fields of a struct type and,
// through embedded fields, of the types it embeds (to a bounded depth).
func (ms *memberSet) walk(t types.Type, depth int, visited map[types.Type]bool) {
	if depth > 5 || visited[t] {
		return
	}
	visited[t] = true
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		for m := range u.Methods() {
			ms.add(m)
		}
	case *types.Struct:
		for fld := range u.Fields() {
			ms.add(fld)
			if fld.Embedded() {
				ms.walk(fld.Type(), depth+1, visited)
			}
		}
	}
}

// undefined handles "undefined: name" with the identifiers in scope at the position.
func (c *converter) undefined(pkg *load.Package, e load.Error, name string) lang.Problem {
	f := lang.Problem{Kind: lang.Undefined, Symbol: name, Message: fmt.Sprintf("%s is not declared in this scope", name)}
	if pkg.Types == nil {
		return f
	}
	id, _ := findIdent(pkg, c.res.Fset, e.Pos)
	if id == nil {
		return f
	}
	pos := id.Pos()
	scope := pkg.Types.Scope().Innermost(pos)
	if scope == nil {
		scope = pkg.Types.Scope()
	}
	seen := map[string]bool{}
	var cands []string
	for s := scope; s != nil; s = s.Parent() {
		local := s != pkg.Types.Scope() && s != types.Universe && s.Parent() != types.Universe
		for _, n := range s.Names() {
			obj := s.Lookup(n)
			if seen[n] || n == "_" || (local && obj.Pos() > pos) {
				continue
			}
			seen[n] = true
			cands = append(cands, n)
		}
	}
	f.Suggestion = didYouMean("", closest(name, cands))
	return f
}

func didYouMean(prefix string, names []string) string {
	if len(names) == 0 {
		return ""
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = prefix + n
	}
	if len(q) == 1 {
		return "did you mean " + q[0] + "?"
	}
	return "did you mean " + strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1] + "?"
}
