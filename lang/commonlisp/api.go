package commonlisp

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/index"
	"github.com/agentverify/agentverify/lang/commonlisp/lambdalist"
)

// The API of a Common Lisp package (design.md §4, P13–P15) is its :export list and the
// lambda lists of the functions, generic functions and macros it exports. CompareAPI
// compares the base and the head of the packages a change touches:
//
//   - a symbol in :export (or a top-level (export …)) at the base that is not at the
//     head is removed (reported at the head's defpackage, the symbol as written at the
//     base related); a defpackage that is gone is one removal of the whole package;
//   - an exported function, generic function or macro defined in a changed file at the
//     base that no form defines at the head, while its symbol stays exported, is removed
//     too (its callers now call an undefined function): reported at the dangling export,
//     the definition at the base related;
//   - an exported callable whose lambda list no longer accepts a call the base accepted
//     is changed incompatibly: a required parameter added, an &optional one made
//     required, a positional parameter removed (unless the head takes &rest without
//     &key), &rest removed, a &key (or &allow-other-keys) removed, or an &optional
//     added before &key (a keyword argument would bind to it). Adding &optional or &key
//     parameters (after the positional ones) is compatible and not reported.
//
// Exports made at run time (an export call in a function) are not seen. A change with a
// Lisp file that does not read cleanly on either side is not compared (see broken).

// CompareAPI reports the incompatible changes the change makes to the exported API of
// the Lisp packages it touches (lang.APIComparer).
func (fe *Frontend) CompareAPI(req *lang.Request) ([]lang.APIChange, error) {
	if !fe.touches(req.Changes) {
		return nil, nil
	}
	base, err := fe.projectFor(req, change.Base)
	if err != nil {
		return nil, err
	}
	head, err := fe.projectFor(req, change.Head)
	if err != nil {
		return nil, err
	}
	if broken(req.Changes, base, head) {
		return nil, nil
	}
	out := removedExports(base, head)
	out = append(out, changedLambdaLists(req.Changes, base, head)...)
	for i, ch := range out {
		if !strings.HasPrefix(ch.Subject, "package ") {
			out[i].Qualified = ch.Package + ":" + ch.Subject // as a caller writes it
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Head.File != b.Head.File {
			return a.Head.File < b.Head.File
		}
		if a.Head.Pos.Line != b.Head.Pos.Line {
			return a.Head.Pos.Line < b.Head.Pos.Line
		}
		return a.Subject < b.Subject
	})
	return out, nil
}

// broken reports whether a changed Lisp file has syntax errors on either side. Such a
// change is not compared: a defpackage or definition the reader could not read would
// look removed. The hallucination dimension reports the errors, so the change fails.
func broken(set *change.Set, base, head *project) bool {
	for _, f := range set.Files {
		for _, pf := range []*projFile{base.files[f.Path], base.files[f.OldPath], head.files[f.Path]} {
			if pf != nil && len(pf.rf.Errors) > 0 {
				return true
			}
		}
	}
	return false
}

// touches reports whether the change has a Lisp file on either side.
func (fe *Frontend) touches(set *change.Set) bool {
	for _, f := range set.Files {
		if fe.Match(f.Path) || f.OldPath != "" && fe.Match(f.OldPath) {
			return true
		}
	}
	return false
}

// packageNames returns the names of the packages defined at the base, sorted.
func (p *project) packageNames() []string {
	var out []string
	for n, pp := range p.packages {
		if n == pp.Name {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// removedExports compares the :export lists of every package the base defines.
func removedExports(base, head *project) []lang.APIChange {
	var out []lang.APIChange
	var was, now map[string]callable
	for _, name := range base.packageNames() {
		bp := base.packages[name]
		hp := head.packages[name]
		if hp == nil {
			out = append(out, lang.APIChange{
				Package: lower(name), Dir: dirOf(bp.file), Subject: "package " + lower(name),
				Detail: "removed (no defpackage defines it at the head)", Name: lower(name), Removed: true,
				Head: lang.Place{File: bp.file, Pos: lang.Pos{Line: 1}},
				Base: lang.Place{File: bp.file, Pos: pos(bp.NameSpan.Start)},
			})
			continue
		}
		if was == nil {
			was, now = base.callables(base.paths()), head.callables(head.paths())
		}
		added := addedExports(bp, hp)
		seen := map[string]bool{}
		for _, s := range bp.Export {
			if hp.Exports(s.Name) || seen[s.Name] {
				continue
			}
			seen[s.Name] = true
			out = append(out, lang.APIChange{
				Package: lower(name), Dir: dirOf(hp.file), Subject: lower(s.Name),
				Detail: "removed from the :export of " + lower(name), Name: lower(s.Name), Removed: true,
				RenamedTo: renamedTo(name, s.Name, added, was, now),
				Head:      head.removalPlace(hp, s),
				Base:      lang.Place{File: symbolFile(s, bp.file), Pos: pos(s.Span.Start)},
			})
		}
	}
	return out
}

// addedExports returns the symbols head exports and base does not.
func addedExports(bp, hp *projPackage) []string {
	var out []string
	for _, s := range hp.Export {
		if !bp.Exports(s.Name) && !slices.Contains(out, s.Name) {
			out = append(out, s.Name)
		}
	}
	return out
}

// renamedTo names the export that replaced a removed one, when the change adds exactly
// one export that is a function with the removed function's lambda list.
func renamedTo(pkg, name string, added []string, was, now map[string]callable) string {
	if len(added) != 1 {
		return ""
	}
	b, okb := was[pkg+":"+name]
	h, okh := now[pkg+":"+added[0]]
	if !okb || !okh || b.def.Lambda.String() != h.def.Lambda.String() {
		return ""
	}
	return lower(added[0])
}

// callable is the definition of an exported function, generic function or macro.
type callable struct {
	def  index.Definition
	file string
}

// callables returns the top-level function, generic function and macro definitions of
// the given files by "PKG:NAME" (package canonical), the first of each name.
func (p *project) callables(files []string) map[string]callable {
	out := map[string]callable{}
	for _, f := range files {
		pf := p.files[f]
		if pf == nil {
			continue
		}
		for _, d := range pf.ix.Definitions {
			if d.Lambda == nil || d.Setf || !d.TopLevel || d.Kind != index.Function && d.Kind != index.Generic && d.Kind != index.Macro {
				continue
			}
			k := p.canonical(d.Package) + ":" + d.Name
			if _, ok := out[k]; !ok {
				out[k] = callable{d, f}
			}
		}
	}
	return out
}

// changedLambdaLists compares the lambda lists of the exported callables defined in the
// changed files at the base with their definitions at the head (wherever they moved).
func changedLambdaLists(set *change.Set, base, head *project) []lang.APIChange {
	var baseFiles []string
	for _, f := range set.Files {
		if f.Base != nil {
			baseFiles = append(baseFiles, f.Path)
			if f.OldPath != "" {
				baseFiles[len(baseFiles)-1] = f.OldPath
			}
		}
	}
	was := base.callables(baseFiles)
	now := head.callables(head.paths())
	keys := make([]string, 0, len(was))
	for k := range was {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []lang.APIChange
	defined := head.defined()
	for _, k := range keys {
		b := was[k]
		h, ok := now[k]
		pkg, name := b.def.Package, b.def.Name
		if !base.exported(pkg, name) || !head.exported(pkg, name) {
			continue // unexported at the base, or a removal reported from :export
		}
		if !ok && !defined[k] {
			out = append(out, lang.APIChange{
				Package: lower(base.canonical(pkg)), Dir: dirOf(b.file), Subject: lower(name),
				Detail: "definition removed (the symbol is still exported)", Name: lower(name), Removed: true,
				Head: head.exportPlace(pkg, name, lang.Place{File: headPath(set, b.file), Pos: lang.Pos{Line: 1}}),
				Base: lang.Place{File: b.file, Pos: pos(b.def.NameSpan.Start)},
			})
			continue
		}
		if !ok {
			continue // now defined otherwise (defmethod, defstruct): no lambda list to compare
		}
		reasons := incompatible(b.def.Lambda, h.def.Lambda)
		if len(reasons) == 0 {
			continue
		}
		out = append(out, lang.APIChange{
			Package: lower(base.canonical(pkg)), Dir: dirOf(h.file), Subject: lower(name),
			Detail: fmt.Sprintf("lambda list changed from %s to %s: %s", b.def.Lambda, h.def.Lambda, strings.Join(reasons, ", ")),
			Name:   lower(name),
			Head:   lang.Place{File: h.file, Pos: pos(h.def.NameSpan.Start)},
			Base:   lang.Place{File: b.file, Pos: pos(b.def.NameSpan.Start)},
		})
	}
	return out
}

// defined returns the "PKG:NAME" of every function, macro, generic function and method
// the project defines, by any form.
func (p *project) defined() map[string]bool {
	out := map[string]bool{}
	for _, pf := range p.files {
		for _, d := range pf.ix.Definitions {
			if d.Kind.Callable() && !d.Setf && d.Package != "" {
				out[p.canonical(d.Package)+":"+d.Name] = true
			}
		}
	}
	return out
}

// removalPlace is where a symbol removed from hp's exports is reported: at the head's
// export form of its package in the file whose export form had it at the base, else at
// the defpackage.
func (p *project) removalPlace(hp *projPackage, s index.Symbol) lang.Place {
	if pf := p.files[s.File]; s.File != "" && pf != nil {
		for _, e := range pf.ix.Exports {
			if p.canonical(e.Package) == hp.Name {
				return lang.Place{File: s.File, Pos: pos(e.Span.Start)}
			}
		}
	}
	return lang.Place{File: hp.file, Pos: pos(hp.Span.Start)}
}

// exportPlace is where the head exports pkg:name (the symbol in :export or in a top-level
// export form), else fallback.
func (p *project) exportPlace(pkg, name string, fallback lang.Place) lang.Place {
	pp := p.packages[pkg]
	if pp == nil {
		return fallback
	}
	for _, s := range pp.Export {
		if s.Name == name {
			return lang.Place{File: symbolFile(s, pp.file), Pos: pos(s.Span.Start)}
		}
	}
	return fallback
}

// symbolFile is the file an export's symbol is written in: its own (a top-level export
// form's) or the defpackage's.
func symbolFile(s index.Symbol, pkgFile string) string {
	if s.File != "" {
		return s.File
	}
	return pkgFile
}

// headPath is the head path of the file at base path p.
func headPath(set *change.Set, p string) string {
	if f := set.File(p); f != nil {
		return f.Path
	}
	return p
}

// incompatible says how head rejects calls that base accepted; nil when it accepts them
// all.
func incompatible(base, head *lambdalist.List) []string {
	return append(positionalChanges(base, head), keyChanges(base, head)...)
}

// positionalChanges compares the required, &optional and &rest parameters.
func positionalChanges(base, head *lambdalist.List) []string {
	var out []string
	optional := map[string]bool{}
	for _, p := range base.Optional {
		optional[p.Name] = true
	}
	for _, p := range head.Required[min(len(base.Required), len(head.Required)):] {
		if optional[p.Name] {
			out = append(out, "&optional "+lower(p.Name)+" made required")
		} else {
			out = append(out, "required parameter "+lower(p.Name)+" added")
		}
	}
	bpos, hpos := positional(base), positional(head)
	if len(hpos) < len(bpos) && (head.Rest == nil || head.HasKey) {
		for _, p := range bpos[len(hpos):] {
			out = append(out, p+" removed")
		}
	}
	if base.Rest != nil && head.Rest == nil {
		out = append(out, "&rest "+lower(base.Rest.Name)+" removed")
	}
	return out
}

// keyChanges compares the &key parameters, and the positional ones a keyword argument
// would now bind to.
func keyChanges(base, head *lambdalist.List) []string {
	var out []string
	if bpos, hpos := positional(base), positional(head); base.HasKey && len(hpos) > len(bpos) {
		for _, p := range hpos[len(bpos):] {
			if strings.HasPrefix(p, "&optional") {
				out = append(out, p+" added before &key (a keyword argument would bind to it)")
			}
		}
	}
	if base.AllowOtherKeys && !head.AllowOtherKeys {
		out = append(out, "&allow-other-keys removed")
	}
	if base.HasKey && len(base.Key) == 0 && !head.HasKey && head.Rest == nil {
		// Even an empty &key accepts :allow-other-keys t.
		out = append(out, "&key removed")
	}
	for _, k := range base.Key {
		if !head.HasKeyword(k.Keyword) {
			out = append(out, "&key "+lower(k.Keyword)+" removed")
		}
	}
	return out
}

// positional names the positional parameters of l: "required parameter a", "&optional b".
func positional(l *lambdalist.List) []string {
	var out []string
	for _, p := range l.Required {
		out = append(out, "required parameter "+lower(p.Name))
	}
	for _, p := range l.Optional {
		out = append(out, "&optional "+lower(p.Name))
	}
	return out
}

func lower(s string) string { return strings.ToLower(s) }
