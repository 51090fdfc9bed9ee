package resolve

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lazyregexp"
)

// deprecated reports each use in pkg of another package's API whose documentation has a
// "Deprecated:" paragraph (design.md §5): for the standard library from the release the
// deprecation applies (stdDeprecation.Since) when the file's language version is at
// least that; for other packages always, as staticcheck's SA1019 does. The replacement
// the note names is the suggestion, and the fix when the note says it is the same thing.
func (c *converter) deprecated(pkg *load.Package) {
	if pkg.Types == nil || pkg.Info == nil {
		return
	}
	d := depUses{c: c, pkg: pkg, owners: fieldOwners{}, sels: map[*ast.Ident]*ast.SelectorExpr{}}
	for _, f := range pkg.Syntax {
		file := c.rel(c.res.Fset.Position(f.Package).Filename)
		minor, ok := goMinor(pkg.Info.FileVersions[f])
		if file == "" || !ok {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				d.sels[n.Sel] = n
			case *ast.Ident:
				d.use(f, file, minor, n)
			}
			return true
		})
	}
}

// depUses checks the uses of one package.
type depUses struct {
	c      *converter
	pkg    *load.Package
	owners fieldOwners
	sels   map[*ast.Ident]*ast.SelectorExpr // the selector whose name each identifier is
}

func (d *depUses) use(f *ast.File, file string, minor int, id *ast.Ident) {
	obj := d.pkg.Info.Uses[id]
	if obj == nil || obj.Pkg() == nil || !declaredOutside(obj, d.pkg) {
		return
	}
	obj = originOf(obj)
	path := obj.Pkg().Path()
	var note, symbol, display, advice string
	var fix *lang.Fix
	if isStdPath(path) {
		key, disp := stdSymbol(obj, d.owners)
		dep, ok := stdDeprecated(path + "." + key)
		if key == "" || !ok || dep.Since > minor {
			return
		}
		note, symbol, display = dep.Note, path+"."+key, obj.Pkg().Name()+"."+disp
		if dep.Repl != "" {
			advice = "use " + dep.Repl + " instead"
			if dep.Same {
				fix = d.replaceFix(f, file, id, obj, dep)
			}
		}
	} else {
		var ok bool
		if note, ok = d.c.moduleNote(obj); !ok {
			return
		}
		symbol, display = path+"."+objKey(obj), obj.Pkg().Name()+"."+objKey(obj)
		if r := sameScopeReplacement(note, obj); r != "" {
			advice = "use " + obj.Pkg().Name() + "." + r + " instead"
		}
	}
	pos := d.c.res.Fset.Position(id.Pos())
	msg := display + " is deprecated"
	if note != "" {
		msg += ": " + clip(note, 240)
	}
	d.c.add(lang.Problem{
		Kind:       lang.Deprecated,
		Location:   lang.Location{File: file, Line: pos.Line, Column: pos.Column, EndLine: pos.Line, EndColumn: pos.Column + len(id.Name)},
		Message:    msg,
		Suggestion: advice,
		Fix:        fix,
		Symbol:     symbol,
	})
}

// declaredOutside reports whether obj is an object of another package's API: not of pkg
// (nor of the package pkg tests), and declared at package level or as a field or method.
func declaredOutside(obj types.Object, pkg *load.Package) bool {
	switch obj.(type) {
	case *types.PkgName, *types.Label, *types.Builtin, *types.Nil:
		return false
	}
	p := obj.Pkg().Path()
	if obj.Pkg() == pkg.Types || p == pkg.PkgPath || p == strings.TrimSuffix(pkg.PkgPath, "_test") {
		return false
	}
	if v, ok := obj.(*types.Var); ok && v.IsField() {
		return true
	}
	if fn, ok := obj.(*types.Func); ok && fn.Signature().Recv() != nil {
		return true
	}
	return obj.Parent() == obj.Pkg().Scope()
}

// originOf returns the generic object an instantiated one comes from.
func originOf(obj types.Object) types.Object {
	switch o := obj.(type) {
	case *types.Func:
		return o.Origin()
	case *types.Var:
		return o.Origin()
	}
	return obj
}

// objKey names a package-level object, a method ("Type.Method") or a field's name.
func objKey(obj types.Object) string {
	if fn, ok := obj.(*types.Func); ok {
		if recv := fn.Signature().Recv(); recv != nil {
			t := recv.Type()
			if p, ok := types.Unalias(t).(*types.Pointer); ok {
				t = p.Elem()
			}
			if n, ok := types.Unalias(t).(*types.Named); ok {
				return n.Obj().Name() + "." + fn.Name()
			}
		}
	}
	return obj.Name()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
	}
	return s[:cut] + " …"
}

// moduleNote returns the deprecation note of an object declared outside the standard
// library, read from the comments of its declaration: the module cache's file, or the
// head tree's for the repository's own packages.
func (c *converter) moduleNote(obj types.Object) (string, bool) {
	pos := c.res.Fset.Position(obj.Pos())
	if pos.Filename == "" || pos.Line == 0 {
		return "", false
	}
	notes, ok := c.notes[pos.Filename]
	if !ok {
		if c.rel(pos.Filename) == "" && c.unit != nil {
			notes = c.unit.notes.get(pos.Filename, c.readNotes)
		} else {
			notes = c.readNotes(pos.Filename)
		}
		c.notes[pos.Filename] = notes
	}
	note, ok := notes[pos.Line]
	return note, ok
}

// readNotes returns the deprecation notes of a file's declarations by the line of the
// declared name; a file without "Deprecated:" is not parsed.
func (c *converter) readNotes(name string) map[int]string {
	var src []byte
	var err error
	if c.rel(name) != "" {
		src, err = c.readHead(name)
	} else {
		src, err = os.ReadFile(onDisk(name))
	}
	if err != nil || !bytes.Contains(src, []byte("Deprecated:")) {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil {
		return nil
	}
	out := map[int]string{}
	declDocs(f, func(_ string, id *ast.Ident, docs ...*ast.CommentGroup) {
		for _, d := range docs {
			if n := deprecationNote(d); n != "" {
				out[fset.Position(id.Pos()).Line] = n
				return
			}
		}
	})
	return out
}

// declDocs calls visit for each name f declares at package level, each method, and
// each field or interface method of its types, with its manifest key ("Name",
// "Type.Method", "Type.Field") and the comments that document it: its own, then its
// group's (a deprecated group deprecates its members, as for staticcheck).
func declDocs(f *ast.File, visit func(key string, name *ast.Ident, docs ...*ast.CommentGroup)) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			key := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				key = recvName(d.Recv.List[0].Type) + "." + key
			}
			visit(key, d.Name, d.Doc)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						visit(n.Name, n, s.Doc, d.Doc)
					}
				case *ast.TypeSpec:
					visit(s.Name.Name, s.Name, s.Doc, d.Doc)
					memberDocs(s, visit)
				}
			}
		}
	}
}

// memberDocs visits a struct type's fields and an interface type's methods.
func memberDocs(s *ast.TypeSpec, visit func(string, *ast.Ident, ...*ast.CommentGroup)) {
	var fields *ast.FieldList
	switch t := s.Type.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		return
	}
	for _, fd := range fields.List {
		for _, n := range fd.Names {
			visit(s.Name.Name+"."+n.Name, n, fd.Doc)
		}
		if len(fd.Names) == 0 {
			if id := embeddedName(fd.Type); id != nil {
				visit(s.Name.Name+"."+id.Name, id, fd.Doc)
			}
		}
	}
}

func embeddedName(t ast.Expr) *ast.Ident {
	switch t := t.(type) {
	case *ast.Ident:
		return t
	case *ast.StarExpr:
		return embeddedName(t.X)
	case *ast.SelectorExpr:
		return t.Sel
	case *ast.IndexExpr:
		return embeddedName(t.X)
	case *ast.IndexListExpr:
		return embeddedName(t.X)
	}
	return nil
}

// deprecationNote returns the "Deprecated:" paragraph of a doc comment on one line,
// without its "Deprecated: ", or "".
func deprecationNote(cg *ast.CommentGroup) string {
	if cg == nil {
		return ""
	}
	for _, p := range strings.Split(cg.Text(), "\n\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(p), "Deprecated:"); ok {
			if n := strings.Join(strings.Fields(rest), " "); n != "" {
				return n
			}
			return "deprecated"
		}
	}
	return ""
}

var (
	// reDocLink matches a doc link ("[io.ReadAll]", "[crypto/rand.Read]", "[Reader]") or
	// a qualified name in the text ("io.SeekStart").
	reDocLink   = lazyregexp.New(`\[([\w./]+)\]|\b([a-z][a-z0-9]*(?:/[a-z0-9]+)*\.[A-Z]\w*(?:\.[A-Z]\w*)?)\b`)
	reUseName   = lazyregexp.New(`^Use \[?([A-Z]\w*(?:\.[A-Z]\w*)?)\]?`)
	reSameThing = lazyregexp.New(`(?:simply calls|is simply|is equivalent to|is the same as|is an alias (?:for|of))\s+\[?$`)
)

// replacement fills the replacement of d (the standard-library symbol key of package pkg)
// from its note: of the doc links and qualified names the manifest knows, the one whose
// name is most like the deprecated one's (os.SEEK_CUR: io.SeekCurrent of three), else
// "Use X" of the same package.
func replacement(d *stdDeprecation, pkg, key string, api *stdAPI) {
	best, prevEnd, prevProposed := -1, -1, false
	for _, m := range reDocLink.FindAllStringSubmatchIndex(d.Note, -1) {
		var text string
		if m[2] >= 0 {
			text = d.Note[m[2]:m[3]]
		} else {
			text = d.Note[m[4]:m[5]]
		}
		// A name listed after a proposed one is proposed too ("Use io.SeekStart,
		// io.SeekCurrent, and io.SeekEnd").
		listed := prevProposed && reListed.MatchString(d.Note[prevEnd:m[0]])
		prevEnd, prevProposed = m[1], listed || proposed(d.Note, m[0], m[1])
		path, k, ok := resolveStdName(text, pkg, api)
		if !ok || path+"."+k == key || strings.HasPrefix(key, path+"."+k+".") || !prevProposed {
			continue // itself, its own type, or a name the note only mentions
		}
		if score := commonPrefix(fold(key[strings.LastIndexByte(key, '.')+1:]), fold(k)); score > best {
			best = score
			d.ReplPath, d.ReplKey = path, k
			d.Repl = displayStd(path, k, api)
			d.Same = reSameThing.MatchString(d.Note[:m[0]])
		}
	}
	if best >= 0 {
		return
	}
	if m := reUseName.FindStringSubmatch(d.Note); m != nil {
		if _, ok := api.since[pkg+"."+m[1]]; ok && pkg+"."+m[1] != key {
			d.ReplPath, d.ReplKey, d.Repl = pkg, m[1], displayStd(pkg, m[1], api)
		}
	}
}

var (
	reCueBefore = lazyregexp.New(`(?i)\b(use|using|calls|simply|replaced by|in favor of|prefer|see|instead,?)\s+(the\s+)?(\w+\s+)?\[?$`)
	reListed    = lazyregexp.New(`^\]?,?\s*(and\s+|or\s+)?\[?$`)
	reCueAfter  = lazyregexp.New(`^\]?\S*\s+(instead|is (more|a more|a better|the) )`)
)

// proposed reports whether the note proposes the name at note[start:end] as what to use
// ("Use [X]", "simply calls [X]", "[X] is more appropriate", "X instead"), rather than
// only mentioning it.
func proposed(note string, start, end int) bool {
	return reCueBefore.MatchString(note[:start]) || reCueAfter.MatchString(note[end:])
}

// fold lower-cases a name and drops its underscores, for comparing SEEK_CUR and
// SeekCurrent.
func fold(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// resolveStdName resolves "pkg.Name", "path/pkg.Name", "Name" or "Type.Method" (of pkg)
// to a package path and manifest key.
func resolveStdName(text, pkg string, api *stdAPI) (string, string, bool) {
	if _, ok := api.since[pkg+"."+text]; ok {
		return pkg, text, true
	}
	slash := strings.LastIndexByte(text, '/')
	dot := strings.IndexByte(text[slash+1:], '.')
	if dot < 0 {
		return "", "", false
	}
	qual, key := text[:slash+1+dot], text[slash+1+dot+1:]
	paths := []string{qual}
	if slash < 0 {
		paths = append(paths, api.byName[qual]...)
	}
	for _, p := range paths {
		if _, ok := api.since[p+"."+key]; ok {
			return p, key, true
		}
	}
	return "", "", false
}

// displayStd shows a standard-library symbol as code names it: "io.ReadAll", or with its
// path when its package name is ambiguous ("crypto/rand.Read").
func displayStd(path, key string, api *stdAPI) string {
	name := pkgNameOf(path)
	if len(api.byName[name]) > 1 {
		return path + "." + key
	}
	return name + "." + key
}

// sameScopeReplacement returns the name of obj's package that the note names as what
// to use instead ("Use NewClient instead", "[Client.Do]"), when the package declares it.
func sameScopeReplacement(note string, obj types.Object) string {
	var cands []string
	for _, m := range reDocLink.FindAllStringSubmatch(note, -1) {
		cands = append(cands, m[1]+m[2])
	}
	if m := reUseName.FindStringSubmatch(note); m != nil {
		cands = append(cands, m[1])
	}
	for _, c := range cands {
		head, _, _ := strings.Cut(c, ".")
		if head != obj.Name() && ast.IsExported(head) && obj.Pkg().Scope().Lookup(head) != nil {
			return c
		}
	}
	return ""
}

// replaceFix returns the edit that replaces a use pkg.Name of a deprecated function,
// variable or constant by the replacement its note calls the same thing, with the same
// signature: the selector, and the imports the replacement needs (the old import turned
// into the new one when this was its only use, or removed when the new one is there).
// nil when the edit is not that simple: the name of the new package is taken at the use,
// an import has a comment or a name, the use is not a package selector.
func (d *depUses) replaceFix(f *ast.File, file string, id *ast.Ident, obj types.Object, dep stdDeprecation) *lang.Fix {
	sel, pn := d.pkgSelector(id, obj)
	if sel == nil || strings.Contains(dep.ReplKey, ".") {
		return nil
	}
	have, old := importSpecs(f, dep.ReplPath, obj.Pkg().Path())
	e := fixEdits{fset: d.c.res.Fset, file: file}
	only := d.onlyUse(f, pn)
	var edits []lang.Edit
	switch {
	case have != nil:
		edits = e.useImport(f, sel, have, old, only, dep)
	case only && old != nil && old.Name == nil && old.Doc == nil && old.Comment == nil && d.nameFree(pkgNameOf(dep.ReplPath), sel.Pos()):
		edits = []lang.Edit{e.at(sel.Pos(), sel.End(), pkgNameOf(dep.ReplPath)+"."+dep.ReplKey), e.at(old.Path.Pos(), old.Path.End(), strconv.Quote(dep.ReplPath))}
	}
	if edits == nil {
		return nil
	}
	return &lang.Fix{Description: fmt.Sprintf("replace %s with %s", types.ExprString(sel), dep.Repl), Edits: edits}
}

// pkgSelector returns the selector pkg.Name whose name is id, and pkg's name, when pkg
// is obj's package imported.
func (d *depUses) pkgSelector(id *ast.Ident, obj types.Object) (*ast.SelectorExpr, *types.PkgName) {
	sel := d.sels[id]
	if sel == nil {
		return nil, nil
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil, nil
	}
	if pn, ok := d.pkg.Info.Uses[x].(*types.PkgName); ok && pn.Imported() == obj.Pkg() {
		return sel, pn
	}
	return nil, nil
}

// nameFree reports whether name means nothing at pos, for a new package qualifier.
func (d *depUses) nameFree(name string, pos token.Pos) bool {
	scope := d.pkg.Types.Scope().Innermost(pos)
	if scope == nil {
		return true
	}
	_, other := scope.LookupParent(name, pos)
	return other == nil
}

// importSpecs returns f's imports of the packages at paths want and old.
func importSpecs(f *ast.File, want, old string) (haveSpec, oldSpec *ast.ImportSpec) {
	for _, im := range f.Imports {
		switch p, _ := strconv.Unquote(im.Path.Value); p {
		case want:
			haveSpec = im
		case old:
			oldSpec = im
		}
	}
	return haveSpec, oldSpec
}

// fixEdits builds the edits of one fix in one file.
type fixEdits struct {
	fset *token.FileSet
	file string
}

func (e fixEdits) at(from, to token.Pos, text string) lang.Edit {
	a, b := e.fset.Position(from), e.fset.Position(to)
	return lang.Edit{Range: lang.Location{File: e.file, Line: a.Line, Column: a.Column, EndLine: b.Line, EndColumn: b.Column}, NewText: text}
}

// useImport returns the edits that call the replacement through its import in the file
// (have), removing the old import when this was its only use; nil when they cannot.
func (e fixEdits) useImport(f *ast.File, sel *ast.SelectorExpr, have, old *ast.ImportSpec, only bool, dep stdDeprecation) []lang.Edit {
	name := pkgNameOf(dep.ReplPath)
	if have.Name != nil {
		name = have.Name.Name
	}
	if name == "_" || name == "." {
		return nil
	}
	edits := []lang.Edit{e.at(sel.Pos(), sel.End(), name+"."+dep.ReplKey)}
	if !only {
		return edits
	}
	rm, ok := removeLine(e.fset, f, old, e.file)
	if !ok {
		return nil
	}
	return append(edits, rm)
}

// onlyUse reports whether f refers to the imported package pn exactly once.
func (d *depUses) onlyUse(f *ast.File, pn *types.PkgName) bool {
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		if id, ok := node.(*ast.Ident); ok && d.pkg.Info.Uses[id] == pn {
			n++
		}
		return n < 2
	})
	return n == 1
}

// removeLine returns the edit that deletes an import spec alone on its line in an
// import block, or a one-spec import declaration alone on its line.
func removeLine(fset *token.FileSet, f *ast.File, spec *ast.ImportSpec, file string) (lang.Edit, bool) {
	if spec == nil || spec.Doc != nil || spec.Comment != nil {
		return lang.Edit{}, false
	}
	line := fset.Position(spec.Pos()).Line
	var from ast.Node = spec
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT || gd.Pos() > spec.Pos() || gd.End() < spec.End() {
			continue
		}
		if !gd.Lparen.IsValid() {
			from = gd
		}
		for _, s := range gd.Specs {
			if s != spec && fset.Position(s.Pos()).Line == line {
				return lang.Edit{}, false
			}
		}
	}
	if fset.Position(from.Pos()).Column != 1 && from != ast.Node(spec) {
		return lang.Edit{}, false
	}
	return lang.Edit{Range: lang.Location{File: file, Line: line, Column: 1, EndLine: line + 1, EndColumn: 1}}, fset.Position(from.End()).Line == line
}

// onDisk is the file a position outside the repository names: export data writes the
// standard library's as $GOROOT/….
func onDisk(name string) string { return strings.Replace(name, "$GOROOT", build.Default.GOROOT, 1) }

// Notes keeps the deprecation notes of files outside the repository (the module cache,
// GOROOT) between the verifications of a long-lived process, by file, while its size
// and modification time stay the same: a served hook read and parsed them again on every
// call (~4 ms). It is safe for concurrent use; a nil Notes keeps nothing.
type Notes struct {
	mu    sync.Mutex
	files map[string]notesOf
}

type notesOf struct {
	size  int64
	mod   time.Time
	notes map[int]string
}

// NewNotes returns an empty Notes.
func NewNotes() *Notes { return &Notes{files: map[string]notesOf{}} }

// get returns the notes of the file name, from n when the file is as it was, else from
// read (remembered).
func (n *Notes) get(name string, read func(string) map[int]string) map[int]string {
	if n == nil {
		return read(name)
	}
	fi, err := os.Stat(onDisk(name))
	if err != nil {
		return read(name)
	}
	n.mu.Lock()
	e, ok := n.files[name]
	n.mu.Unlock()
	if ok && e.size == fi.Size() && e.mod.Equal(fi.ModTime()) {
		return e.notes
	}
	notes := read(name)
	n.mu.Lock()
	n.files[name] = notesOf{size: fi.Size(), mod: fi.ModTime(), notes: notes}
	n.mu.Unlock()
	return notes
}
