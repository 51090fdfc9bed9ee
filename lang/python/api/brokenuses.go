package api

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/signature"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// BrokenUses finds the Python files of the head tree that the change does not touch and
// that use what changes removed or changed incompatibly: an import of a removed module
// or name, an attribute of a changed module that is gone, a call (or a class
// instantiation, through __init__) that the old signature accepted and the new one
// rejects. Calls through instances are not followed: that needs types (pyright's part).
func BrokenUses(req *lang.Request, changes []lang.APIChange, parse Parse) ([]lang.BrokenUse, error) {
	if len(changes) == 0 || req.Changes.HeadFS == nil {
		return nil, nil
	}
	ix, err := newChangeIndex(req, changes)
	if err != nil {
		return nil, err
	}
	var out []lang.BrokenUse
	err = fs.WalkDir(req.Changes.HeadFS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && skipDir(req.Changes.HeadFS, p) {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".py") || req.Changes.File(p) != nil {
			return nil
		}
		uses, err := usesIn(req, ix, p, parse)
		out = append(out, uses...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("finding the callers of the changed Python modules: %w", err)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].At, out[j].At
		return a.File < b.File || a.File == b.File && a.Pos.Line < b.Pos.Line
	})
	return out, nil
}

// skipDir reports whether a directory holds no project code: hidden directories
// (.git, .venv, .tox), caches, node_modules and virtual environments.
func skipDir(fsys fs.FS, p string) bool {
	b := path.Base(p)
	if strings.HasPrefix(b, ".") || b == "__pycache__" || b == "node_modules" || b == "site-packages" {
		return true
	}
	_, err := fs.Stat(fsys, path.Join(p, "pyvenv.cfg"))
	return err == nil
}

// changeIndex holds the changes by module, with the signatures of changed functions.
type changeIndex struct {
	byModule map[string]map[string]lang.APIChange // module → subject → change
	removed  map[string]lang.APIChange            // removed modules
	sigs     map[string][2]string                 // module \x00 subject → base, head signature
	// needles hold, per change, the words a use of it must contain: the module's last
	// component (every import names it) and what callers write (the name, the class of
	// an __init__), to skip the files that cannot use it without parsing them.
	needles [][2][]byte
}

func newChangeIndex(req *lang.Request, changes []lang.APIChange) (*changeIndex, error) {
	ix := &changeIndex{byModule: map[string]map[string]lang.APIChange{}, removed: map[string]lang.APIChange{}, sigs: map[string][2]string{}}
	for _, ch := range changes {
		ix.needles = append(ix.needles, [2][]byte{[]byte(syntax.LastName(ch.Package)), []byte(callerWord(ch))})
		if strings.HasPrefix(ch.Subject, "package ") {
			ix.removed[ch.Package] = ch
			continue
		}
		if ix.byModule[ch.Package] == nil {
			ix.byModule[ch.Package] = map[string]lang.APIChange{}
		}
		ix.byModule[ch.Package][ch.Subject] = ch
		if ch.Removed {
			continue
		}
		b, h, err := signatures(req, ch)
		if err != nil {
			return nil, err
		}
		ix.sigs[ch.Package+"\x00"+ch.Subject] = [2]string{b, h}
	}
	return ix, nil
}

// signatures returns the base and head signature of a changed function.
func signatures(req *lang.Request, ch lang.APIChange) (string, string, error) {
	f := req.Changes.File(ch.Head.File)
	if f == nil {
		return "", "", nil
	}
	var out [2]string
	for i, s := range []change.Side{change.Base, change.Head} {
		lf, err := req.Parse(f, s)
		if err != nil || lf == nil {
			return "", "", err
		}
		if d, ok := findDecl(lf, ch.Subject); ok {
			out[i] = d.Signature
		}
	}
	return out[0], out[1], nil
}

// callerWord is the word a use of ch must contain besides its module's name.
func callerWord(ch lang.APIChange) string {
	if strings.HasPrefix(ch.Subject, "package ") {
		return syntax.LastName(ch.Package)
	}
	if cls, ok := strings.CutSuffix(ch.Subject, ".__init__"); ok {
		return syntax.LastName(cls) // instantiated as Class(...)
	}
	return ch.Name
}

// mentions reports whether src may use one of the changes.
func (ix *changeIndex) mentions(src []byte) bool {
	for _, n := range ix.needles {
		if bytes.Contains(src, n[0]) && bytes.Contains(src, n[1]) {
			return true
		}
	}
	return false
}

// usesIn finds the broken uses in one unchanged file.
func usesIn(req *lang.Request, ix *changeIndex, p string, parse Parse) ([]lang.BrokenUse, error) {
	src, err := fs.ReadFile(req.Changes.HeadFS, p)
	if err != nil || !ix.mentions(src) {
		return nil, err
	}
	root, err := parse(src)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", p, err)
	}
	u := &useScan{ix: ix, src: src, file: p, mod: moduleOf(req.Changes.HeadFS, p), modules: map[string]string{}, funcs: map[string][2]string{}}
	u.imports(root)
	u.references(root)
	return u.out, nil
}

// useScan is the scan of one file: what its names refer to among the changes.
type useScan struct {
	ix      *changeIndex
	src     []byte
	file    string
	mod     modulePlace
	modules map[string]string    // expression text → changed module it names
	funcs   map[string][2]string // local name → module, subject it names
	out     []lang.BrokenUse
}

func (u *useScan) report(at *syntax.Node, msg string, ch lang.APIChange) {
	u.out = append(u.out, lang.BrokenUse{Package: u.mod.name, Dir: u.mod.dir, At: lang.Place{File: u.file, Pos: at.Pos}, Message: msg, Change: ch})
}

// imports records the names the file's imports bind to changed modules and names, and
// reports imports of what is gone.
func (u *useScan) imports(root *syntax.Node) {
	root.Walk(func(n *syntax.Node) bool {
		switch n.Kind {
		case "import_statement":
			for _, c := range n.Children {
				if c.Field == "name" {
					u.importModule(c)
				}
			}
			return false
		case "import_from_statement":
			u.importFrom(n)
			return false
		}
		return true
	})
}

func (u *useScan) importModule(c *syntax.Node) {
	mod := syntax.Dotted(c, u.src)
	if ch, ok := u.ix.removed[mod]; ok {
		u.report(syntax.NameOf(c), fmt.Sprintf("No module named '%s' (the change removes it)", mod), ch)
		return
	}
	if _, ok := u.ix.byModule[mod]; !ok {
		return
	}
	if a := c.Child("alias"); a != nil {
		u.modules[a.Text(u.src)] = mod
	} else {
		u.modules[mod] = mod
	}
}

func (u *useScan) importFrom(n *syntax.Node) {
	r, ok := syntax.FromImport(n, u.src)
	if !ok {
		return
	}
	mod := resolveRelative(u.mod, u.file, r)
	if ch, ok := u.ix.removed[mod]; ok {
		u.report(r.Node, fmt.Sprintf("No module named '%s' (the change removes it)", mod), ch)
		return
	}
	for _, c := range n.Children {
		if c.Field != "name" {
			continue
		}
		name := syntax.Dotted(c, u.src)
		local := name
		if a := c.Child("alias"); a != nil {
			local = a.Text(u.src)
		}
		u.importName(mod, name, local, syntax.NameOf(c))
	}
}

// importName handles `from mod import name as local`.
func (u *useScan) importName(mod, name, local string, at *syntax.Node) {
	sub := mod + "." + name
	if ch, ok := u.ix.removed[sub]; ok {
		u.report(at, fmt.Sprintf("cannot import name '%s' from '%s' (the change removes the module %s)", name, mod, sub), ch)
		return
	}
	if _, ok := u.ix.byModule[sub]; ok {
		u.modules[local] = sub
		return
	}
	chs, ok := u.ix.byModule[mod]
	if !ok {
		return
	}
	if ch, ok := chs[name]; ok && gone(ch) {
		u.report(at, fmt.Sprintf("cannot import name '%s' from '%s' (%s)", name, mod, ch.Detail), ch)
		return
	}
	u.funcs[local] = [2]string{mod, name}
}

// gone reports whether a change removed a name outright: one dropped from __all__ only
// is still there for `from m import name`.
func gone(ch lang.APIChange) bool { return ch.Removed && ch.Detail == detailRemoved }

// resolveRelative returns the absolute module of an import in file (module m).
func resolveRelative(m modulePlace, file string, r syntax.ImportRef) string {
	if r.Level == 0 {
		return r.Module
	}
	pkg := strings.Split(m.name, ".")
	if path.Base(file) != "__init__.py" && len(pkg) > 0 {
		pkg = pkg[:len(pkg)-1] // a module's package is its parent
	}
	if r.Level-1 > len(pkg) {
		return ""
	}
	pkg = pkg[:len(pkg)-(r.Level-1)]
	if r.Module != "" {
		pkg = append(pkg, r.Module)
	}
	return strings.Join(pkg, ".")
}

// references reports the attributes of changed modules that are gone and the calls the
// changed signatures reject.
func (u *useScan) references(root *syntax.Node) {
	root.Walk(func(n *syntax.Node) bool {
		switch n.Kind {
		case "attribute":
			u.attribute(n)
		case "call":
			u.call(n)
		}
		return true
	})
}

// attribute reports mod.name when the change removed name from mod.
func (u *useScan) attribute(n *syntax.Node) {
	obj, attr := n.Child("object"), n.Child("attribute")
	if obj == nil || attr == nil {
		return
	}
	mod, ok := u.modules[obj.Text(u.src)]
	if !ok {
		return
	}
	if ch, ok := u.ix.byModule[mod][attr.Text(u.src)]; ok && gone(ch) {
		u.report(attr, fmt.Sprintf("module '%s' has no attribute '%s' (%s)", mod, attr.Text(u.src), ch.Detail), ch)
	}
}

// call checks a call of a changed function, method or class.
func (u *useScan) call(n *syntax.Node) {
	mod, subject := u.callee(n.Child("function"))
	if mod == "" {
		return
	}
	for _, s := range []string{subject, subject + ".__init__"} {
		ch, ok := u.ix.byModule[mod][s]
		sigs, known := u.ix.sigs[mod+"\x00"+s]
		if !ok || ch.Removed || !known || sigs[0] == "" || sigs[1] == "" {
			continue
		}
		method := strings.Contains(s, ".")
		args := signature.CallArgs(n.Child("arguments"), u.src)
		if args.Unknown {
			return // *args or **kwargs at the call: what it passes is not known here
		}
		if signature.Bind(signature.Parse(sigs[0], method), args) != "" {
			return // already rejected at the base: not the change's doing
		}
		if msg := signature.Bind(signature.Parse(sigs[1], method), args); msg != "" {
			u.report(n, fmt.Sprintf("%s.%s() %s", mod, subject, msg), ch)
		}
		return
	}
}

// callee returns the changed module and the subject a called expression names.
func (u *useScan) callee(fn *syntax.Node) (mod, subject string) {
	if fn == nil {
		return "", ""
	}
	switch fn.Kind {
	case "identifier":
		if t, ok := u.funcs[fn.Text(u.src)]; ok {
			return t[0], t[1]
		}
	case "attribute":
		obj, attr := fn.Child("object"), fn.Child("attribute")
		if obj == nil || attr == nil {
			return "", ""
		}
		if m, ok := u.modules[obj.Text(u.src)]; ok {
			return m, attr.Text(u.src)
		}
		if t, ok := u.funcs[obj.Text(u.src)]; ok && obj.Kind == "identifier" {
			return t[0], t[1] + "." + attr.Text(u.src) // Class.static_or_class_method(...)
		}
	}
	return "", ""
}
