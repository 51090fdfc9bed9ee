package resolve

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
	"github.com/agentverify/agentverify/lazyregexp"
)

// memberRef is a use of a module's member in a changed file: `from m import name` or
// `m.name`, at the name.
type memberRef struct {
	module, name string
	at           *syntax.Node
}

// uncheckedStep reports members of modules pyright accepts any name of — a stub or
// source with a module-level __getattr__ (typeshed's incomplete stubs, PEP 562 lazy
// modules) — that the module's real source does not define (design.md §4.3). It reads a
// module only when a changed file uses one whose stub or source mentions __getattr__.
func uncheckedStep(j *job) ([]lang.Problem, error) {
	var out []lang.Problem
	for _, t := range j.targets {
		if t.idx == nil || t.broken {
			continue
		}
		for _, r := range j.memberRefs(t) {
			if t.idx.guarded(r.at.Pos.Line) || !j.pyrightBlind(r.module) {
				continue
			}
			ns := j.namespaceOf(r.module)
			if ns.has(r.name) {
				continue
			}
			out = append(out, lang.Problem{
				Kind:     lang.UnknownSymbol,
				Location: lang.Location{File: t.f.Path, Line: r.at.Pos.Line, Column: r.at.Pos.Column},
				Message: fmt.Sprintf("%s is not a member of module %s (its source defines no such name, and its __getattr__ answers only the names it lists)",
					r.name, r.module),
				Suggestion: didYouMean(closest(r.name, ns.public())),
				Symbol:     r.module + "." + r.name,
			})
		}
	}
	return out, nil
}

// memberRefs lists the uses of module members in t outside the standard library: the
// names of from-imports and the attributes of names bound to modules, not those the file
// assigns (m.x = 1 adds a member).
func (j *job) memberRefs(t *target) []memberRef {
	module, pkg := fileModule(t.f.Path)
	bound := map[string]string{} // local name → module, for attribute uses
	var out []memberRef
	t.tree.Walk(func(n *syntax.Node) bool {
		switch n.Kind {
		case "import_statement":
			bindImports(n, t.src, bound)
		case "import_from_statement":
			out = append(out, fromImportRefs(n, t.src, module, pkg, bound)...)
		case "assignment", "augmented_assignment", "delete_statement":
			if r := n.Child("right"); r != nil {
				out = append(out, j.attributeRefs(r, t.src, bound)...)
			}
			return false
		case "attribute":
			out = append(out, j.attributeRefs(n, t.src, bound)...)
			return false
		}
		return true
	})
	kept := out[:0]
	for _, r := range out {
		if !j.isStdlib(r.module) {
			kept = append(kept, r)
		}
	}
	return kept
}

// isStdlib reports whether module is of the standard library (typeshed's record of it).
func (j *job) isStdlib(module string) bool {
	std, err := j.stdlibIndex()
	if err != nil {
		return false
	}
	_, ok := std.Since(module)
	return ok
}

// bindImports records the names an import statement binds to modules.
func bindImports(n *syntax.Node, src []byte, bound map[string]string) {
	for _, ch := range n.Children {
		switch {
		case ch.Field != "name":
		case ch.Kind == "aliased_import":
			bound[ch.Child("alias").Text(src)] = ch.Child("name").Text(src)
		default:
			first, _, _ := strings.Cut(ch.Text(src), ".")
			bound[first] = first
		}
	}
}

// fromImportRefs lists the names a from-import takes from its module (of the importing
// module, pkg for an __init__) and records them as bound, in case they are modules.
func fromImportRefs(n *syntax.Node, src []byte, module string, pkg bool, bound map[string]string) []memberRef {
	from := resolveModule(n.Child("module_name"), src, module, pkg)
	var out []memberRef
	for _, ch := range n.Children {
		if ch.Field != "name" || from == "" {
			continue
		}
		name, local := ch, ch
		if ch.Kind == "aliased_import" {
			name, local = ch.Child("name"), ch.Child("alias")
		}
		out = append(out, memberRef{module: from, name: name.Text(src), at: name})
		bound[local.Text(src)] = from + "." + name.Text(src) // a module, if it is one
	}
	return out
}

// attributeRefs lists the module-member uses in the attribute expressions under n.
func (j *job) attributeRefs(n *syntax.Node, src []byte, bound map[string]string) []memberRef {
	var out []memberRef
	n.Walk(func(m *syntax.Node) bool {
		if m.Kind != "attribute" {
			return true
		}
		obj, attr := m.Child("object"), m.Child("attribute")
		if obj == nil || attr == nil {
			return true
		}
		text := obj.Text(src)
		head, rest, dotted := strings.Cut(text, ".")
		mod, ok := bound[head]
		if !ok || strings.ContainsAny(text, "()[] \t\n") || j.isStdlib(mod) {
			return true
		}
		if dotted {
			mod += "." + rest
		}
		if j.isModule(mod) {
			out = append(out, memberRef{module: mod, name: attr.Text(src), at: attr})
		}
		return true
	})
	return out
}

// isModule reports whether a dotted name is a module with a source or stub to read.
func (j *job) isModule(module string) bool {
	if v, ok := j.modules[module]; ok {
		return v
	}
	ok := j.realSource(module) != nil || j.viewFile(module) != nil
	j.modules[module] = ok
	return ok
}

// fileModule is the dotted module of a repository path (a leading src/ dropped) and
// whether it is a package's __init__.
func fileModule(p string) (string, bool) {
	p = strings.TrimPrefix(p, "src/")
	p = strings.TrimSuffix(strings.TrimSuffix(p, ".pyi"), ".py")
	pkg := strings.HasSuffix(p, "/__init__") || p == "__init__"
	p = strings.TrimSuffix(strings.TrimSuffix(p, "__init__"), "/")
	return strings.ReplaceAll(p, "/", "."), pkg
}

// moduleGetattr matches a module-level __getattr__ in a stub or source, or the module
// replacing itself in sys.modules.
var moduleGetattr = lazyregexp.New(`(?m)^(?:async\s+)?def\s+__getattr__\s*\(|^sys\.modules\[__name__\]\s*=`)

// pyrightBlind reports whether pyright accepts any member of module: the file it reads for
// it (see viewFile) has a module-level __getattr__ or replaces itself in sys.modules.
func (j *job) pyrightBlind(module string) bool {
	if v, ok := j.blind[module]; ok {
		return v
	}
	src := j.viewFile(module)
	v := src != nil && moduleGetattr.Match(src)
	j.blind[module] = v
	return v
}

// viewFile returns the file pyright reads for a module outside the standard library, in
// its order: the project's (typings/ stubs, then its stubs and sources), stub packages and
// stubs on sys.path, typeshed's third-party stubs it bundles, then installed sources.
func (j *job) viewFile(module string) []byte {
	data, _ := j.viewFileKind(module)
	return data
}

// stubView reports whether the file pyright reads for module is a stub.
func (j *job) stubView(module string) bool {
	_, stub := j.viewFileKind(module)
	return stub
}

// viewFileKind is viewFile, and whether the file is a stub.
func (j *job) viewFileKind(module string) ([]byte, bool) {
	rel := strings.ReplaceAll(module, ".", "/")
	stubs := []string{rel + ".pyi", rel + "/__init__.pyi"}
	srcs := []string{rel + ".py", rel + "/__init__.py"}
	if head := j.headFS(); head != nil {
		for _, c := range append(append([]string{"typings/" + stubs[0], "typings/" + stubs[1]}, stubs...), srcs...) {
			if data, err := fs.ReadFile(head, c); err == nil {
				return data, strings.HasSuffix(c, ".pyi")
			}
		}
	}
	top, sub, _ := strings.Cut(rel, "/")
	stubPkg := []string{top + "-stubs/" + sub + ".pyi", top + "-stubs/" + sub + "/__init__.pyi"}
	if sub == "" {
		stubPkg = []string{top + "-stubs/__init__.pyi"}
	}
	if data := readFirst(j.sysPath(), append(stubPkg, stubs...)); data != nil {
		return data, true
	}
	if data := readFirst(j.stubDirsHolding(top), stubs); data != nil {
		return data, true
	}
	return readFirst(j.sysPath(), srcs), false
}

// readFirst returns the first of the files rels found under one of dirs, in order.
func readFirst(dirs, rels []string) []byte {
	for _, d := range dirs {
		for _, r := range rels {
			if data, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(r))); err == nil {
				return data
			}
		}
	}
	return nil
}

// bundledStubDirs are the distribution directories of typeshed's third-party stubs that
// pyright bundles (stubs/<distribution>/), listed once per job.
func (j *job) bundledStubDirs() []string {
	if j.stubDirs != nil {
		return *j.stubDirs
	}
	j.stubDirs = new([]string)
	tool, err := j.pyright()
	if err != nil || tool.Typeshed == "" {
		return nil
	}
	root := filepath.Join(tool.Typeshed, "stubs")
	if dirs, ok := j.fe.srcs.sysPath("stubs\x00" + root); ok { // pyright's install does not change
		*j.stubDirs = dirs
		return dirs
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	for _, e := range ents {
		if e.IsDir() {
			*j.stubDirs = append(*j.stubDirs, filepath.Join(root, e.Name()))
		}
	}
	j.fe.srcs.putSysPath("stubs\x00"+root, *j.stubDirs)
	return *j.stubDirs
}

// stubDirsHolding are the bundled stub directories (bundledStubDirs, in order) that
// hold top, the first part of a module's path, as a directory or a .pyi file: the only
// ones where the module's stub can be. Listing each directory once per job costs less
// than looking for every module's stub in every one of them (about 150).
func (j *job) stubDirsHolding(top string) []string {
	if j.stubTops == nil {
		j.stubTops = map[string][]string{}
		for _, d := range j.bundledStubDirs() {
			ents, _ := os.ReadDir(d)
			for _, e := range ents {
				name := strings.TrimSuffix(e.Name(), ".pyi")
				j.stubTops[name] = append(j.stubTops[name], d)
			}
		}
	}
	return j.stubTops[top]
}

// namespaceFalseAlarm reports whether pyright's unknown-symbol p names a member of a
// module outside the standard library whose real source defines it or builds its
// namespace at run time (globals().update, a replacement module's __getattr__).
func (j *job) namespaceFalseAlarm(p lang.Problem) bool {
	if p.Kind != lang.UnknownSymbol || bytes.Contains([]byte(p.Message), []byte("its source defines")) {
		return false
	}
	module, name := parentModule(p.Symbol), syntax.LastName(p.Symbol)
	if strings.HasPrefix(module, ".") {
		module = relativeTo(p.Location.File, module)
	}
	if module == "" {
		return false
	}
	if std, err := j.stdlibIndex(); err == nil {
		if _, ok := std.Since(module); ok {
			return false
		}
	}
	ns := j.namespaceOf(module)
	if ns == nil || !ns.has(name) {
		return false
	}
	// An incomplete namespace hides the name from us, not from the stub pyright read:
	// pyright is right unless the module answers names nobody lists.
	return ns.names[name] || ns.open || !j.stubView(module)
}

// relativeImportAt returns the absolute module of the relative from-import p is on, ""
// when there is none.
func (j *job) relativeImportAt(p lang.Problem) string {
	for _, t := range j.targets {
		if t.f.Path != p.Location.File || t.tree == nil {
			continue
		}
		module, pkg := fileModule(t.f.Path)
		found := ""
		t.tree.Walk(func(n *syntax.Node) bool {
			if n.Kind != "import_from_statement" {
				return found == ""
			}
			if m := n.Child("module_name"); m != nil && m.Kind == "relative_import" &&
				n.Pos.Line <= p.Location.Line && p.Location.Line <= n.EndPos.Line {
				found = resolveModule(m, t.src, module, pkg)
			}
			return false
		})
		return found
	}
	return ""
}

// relativeSymbol completes pyright's unknown import symbol of a relative import with the
// module it imports from and the closest names that module's source defines.
func (j *job) relativeSymbol(p *lang.Problem) {
	module := j.relativeImportAt(*p)
	if module == "" || p.Symbol == "" {
		return
	}
	name := p.Symbol
	p.Symbol = module + "." + name
	p.Message = fmt.Sprintf("%s is not a member of module %s", name, module)
	if ns := j.namespaceOf(module); ns != nil && !ns.dynamic {
		p.Suggestion = didYouMean(closest(name, ns.public()))
	}
}

// relativeTo resolves a relative module name as pyright writes it ("..install") against
// the file it is imported in.
func relativeTo(file, rel string) string {
	module, pkg := fileModule(file)
	return absoluteModule(module, pkg, rel)
}

// hookedImport reports whether pyright's unknown import p is of a module below a package
// whose source installs an import hook (sys.meta_path): the hook serves it at run time.
func (j *job) hookedImport(p lang.Problem) bool {
	if p.Kind != lang.UnknownImport {
		return false
	}
	for m := parentModule(p.Symbol); m != ""; m = parentModule(m) {
		if ms := j.realSource(m); ms != nil {
			return metaPath(ms.src)
		}
	}
	return false
}
