// Package api compares the public API of a change's TypeScript and JavaScript modules
// between the base and the head (lang.APIComparer's CompareAPI for the TypeScript
// frontend). A module's API is what it exports (lang.Decl.Exported: ESM exports,
// export clauses, CommonJS exports, public members of exported classes). The API of a
// package is that of its entry points — package.json's exports, main, module and types
// (a built path mapped back to its source: dist/index.js → src/index.ts), an index file —
// and of every module they re-export (`export … from "./m"`); the exports of other
// modules are the project's own (Internal), whose callers the compiler checks.
package api

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
)

// Compare reports the incompatible changes the change makes to exported declarations:
// removed (also with its file), or a function's or method's signature changed so that a
// call the base accepted may fail (a parameter added that is not optional, one removed,
// a type or the return type changed). match tells the frontend's files.
func Compare(req *lang.Request, match func(string) bool) ([]lang.APIChange, error) {
	var out []lang.APIChange
	var public map[string]bool // the entry points, read only when a module's API changed
	for _, f := range req.Changes.Files {
		if !match(f.Path) && !match(f.OldPath) {
			continue
		}
		base, head, err := sides(req, f)
		if err != nil {
			return nil, err
		}
		if base == nil || base.Test || head != nil && len(head.SyntaxErrors) > 0 {
			continue // nothing to compare, a test module, or a head that does not parse
		}
		changes := compareFile(f, base, head)
		if len(changes) > 0 && public == nil {
			public = entryPoints(req.Changes)
		}
		for i := range changes {
			changes[i].Internal = !public[f.OldPath] && !public[f.Path]
		}
		out = append(out, changes...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Head.File != out[j].Head.File {
			return out[i].Head.File < out[j].Head.File
		}
		return out[i].Subject < out[j].Subject
	})
	return out, nil
}

// sides parses the base and head of f (nil for a side where it does not exist).
func sides(req *lang.Request, f *change.File) (base, head *lang.File, err error) {
	if f.Base != nil && !req.Changes.NoBase {
		if base, err = req.Parse(f, change.Base); err != nil {
			return nil, nil, err
		}
	}
	if f.Analyzable() && f.Head != nil {
		head, err = req.Parse(f, change.Head)
	}
	return base, head, err
}

// api is a module's exported declarations by name.
func api(lf *lang.File) map[string]lang.Decl {
	out := map[string]lang.Decl{}
	if lf == nil {
		return out
	}
	for _, d := range lf.Decls {
		if d.Exported && d.Kind != lang.Field {
			if _, dup := out[d.Name]; !dup { // overloads: the first signature stands for them
				out[d.Name] = d
			}
		}
	}
	return out
}

// compareFile compares one module's exports.
func compareFile(f *change.File, base, head *lang.File) []lang.APIChange {
	was, now := api(base), api(head)
	var out []lang.APIChange
	names := make([]string, 0, len(was))
	for n := range was {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		b := was[name]
		ch := lang.APIChange{Package: f.OldPath, Dir: path.Dir(f.OldPath), Subject: name, Name: short(name),
			Qualified: f.OldPath + ": " + name,
			Base:      lang.Place{File: f.OldPath, Pos: b.NamePos}, Head: lang.Place{File: f.Path, Pos: lang.Pos{Line: 1}}}
		h, ok := now[name]
		switch {
		case !ok:
			ch.Removed, ch.Detail = true, "removed"
			ch.RenamedTo = renamed(b, was, now)
		case (b.Kind == lang.Func || b.Kind == lang.Method) && !compatible(b.Signature, h.Signature):
			ch.Detail = fmt.Sprintf("changed from %s to %s", b.Signature, h.Signature)
			ch.Head.Pos = h.NamePos
		default:
			continue
		}
		out = append(out, ch)
	}
	return out
}

// short is the name callers write: the member of "C.m", the last part of "NS.f".
func short(name string) string {
	name = name[strings.LastIndex(name, ".")+1:]
	return strings.TrimPrefix(strings.TrimPrefix(name, "get "), "set ")
}

// renamed names the export the head adds with the removed one's kind and signature,
// when there is exactly one.
func renamed(b lang.Decl, was, now map[string]lang.Decl) string {
	found := ""
	for n, d := range now {
		if _, old := was[n]; old || d.Kind != b.Kind || d.Signature != b.Signature {
			continue
		}
		if found != "" {
			return ""
		}
		found = n
	}
	return found
}

// compatible reports whether every call the base signature accepts is accepted by the
// head one: the same text, or the same parameters with optional ones (or a rest
// parameter) added at the end, and the same return type.
func compatible(base, head string) bool {
	if base == head {
		return true
	}
	bp, br := splitSignature(base)
	hp, hr := splitSignature(head)
	if br != hr || len(hp) < len(bp) {
		return false
	}
	for i := range bp {
		if bp[i] != hp[i] && !(hp[i] == bp[i]+"?" || strings.TrimSuffix(hp[i], "?") == "any") {
			return false
		}
	}
	for _, p := range hp[len(bp):] {
		if !strings.HasSuffix(p, "?") && !strings.HasPrefix(p, "...") {
			return false
		}
	}
	return true
}

// splitSignature splits "<T>(a, b?): R" into its parameters (type parameters kept
// with the list) and its return type.
func splitSignature(sig string) ([]string, string) {
	open := strings.Index(sig, "(")
	if open < 0 {
		return nil, sig
	}
	depth, end := 0, -1
	for i := open; i < len(sig) && end < 0; i++ {
		switch sig[i] {
		case '(', '<', '{', '[':
			depth++
		case ')', '>', '}', ']':
			depth--
			if depth == 0 && sig[i] == ')' {
				end = i
			}
		}
	}
	if end < 0 {
		return nil, sig
	}
	return splitTop(sig[open+1 : end]), sig[:open] + strings.TrimPrefix(sig[end+1:], ": ")
}

// splitTop splits a parameter list at its top-level commas.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '<', '{', '[':
			depth++
		case ')', '>', '}', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// readFS is the tree the entry points are read from: the base, where the API was.
func readFS(set *change.Set) fs.FS {
	if set.BaseFS != nil {
		return set.BaseFS
	}
	return set.HeadFS
}
