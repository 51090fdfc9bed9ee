package golang

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/api"
	"github.com/agentverify/agentverify/lang/golang/inputs"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lang/golang/modfetch"
	"github.com/agentverify/agentverify/lang/golang/resolve"
)

// frontend is the Go frontend. Parsing holds no state, so one value serves any number of
// concurrent parses; resolution and API comparison load packages with the Go toolchain.
type frontend struct {
	// loader is shared by every verification of a long-lived process; nil means a fresh
	// one per verification, kept in its Memo. So is fetcher, which brings modules into
	// the module cache and keeps what the module proxies said of module paths.
	loader  *load.Loader
	fetcher *modfetch.Fetcher
	notes   *resolve.Notes // deprecation notes of module and standard library files
	bases   *api.Bases     // the base sides of recent API comparisons; nil when cold
}

// New returns the Go frontend, starting cold for each verification.
func New() lang.Frontend { return frontend{} }

// NewWarm returns the Go frontend for a long-lived process: every verification loads
// packages through l, so the type information of dependencies stays warm between them.
func NewWarm(l *load.Loader) lang.Frontend {
	return frontend{loader: l, fetcher: modfetch.New(nil), notes: resolve.NewNotes(), bases: &api.Bases{}}
}

// fetcherKey is the Memo key of a verification's module fetcher.
const fetcherKey = "golang.modfetch"

func (fe frontend) fetcherFor(req *lang.Request) *modfetch.Fetcher {
	if fe.fetcher != nil {
		return fe.fetcher
	}
	if req.Memo == nil {
		return modfetch.New(nil)
	}
	return req.Memo.Get(fetcherKey, func() any { return modfetch.New(nil) }).(*modfetch.Fetcher)
}

// prepare brings the modules the change needs into the module cache before packages are
// loaded (resolve.PrepareModules, once per verification).
func (fe frontend) prepare(req *lang.Request) error {
	_, err := resolve.PrepareModules(req, fe.fetcherFor(req), fe.loaderFor(req))
	return err
}

func (fe frontend) loaderFor(req *lang.Request) *load.Loader {
	if fe.loader != nil {
		return fe.loader
	}
	// Check mode has no base view to reuse the loader's snapshots.
	opts := load.Options{Forget: req.Changes != nil && req.Changes.NoBase}
	if req.Memo == nil {
		return load.New(opts)
	}
	return req.Memo.Get(load.MemoKey, func() any { return load.New(opts) }).(*load.Loader)
}

// Resolve type-checks the Go code of the change (lang.Resolver).
func (fe frontend) Resolve(req *lang.Request) ([]lang.Problem, error) {
	return resolve.Resolver{Loader: fe.loaderFor(req), Fetcher: fe.fetcherFor(req), Notes: fe.notes}.Resolve(req)
}

// Inputs names what the Go analysis of each directory depends on, for the result cache
// (lang.InputHasher).
func (frontend) Inputs(ctx context.Context, root string, dirs []string) (map[string][]byte, error) {
	return inputs.Digests(ctx, root, dirs)
}

// CompareAPI compares the APIs of the Go packages the change touches with apidiff
// (lang.APIComparer).
func (fe frontend) CompareAPI(req *lang.Request) ([]lang.APIChange, error) {
	if err := fe.prepare(req); err != nil {
		return nil, err
	}
	bases := fe.bases
	if req.Fresh {
		bases = nil // --no-cache: no base side of an earlier comparison
	}
	changes, err := api.NewWarm(fe.loaderFor(req), bases).CompareAPI(req.Context, req.Changes)
	for i := range changes {
		changes[i].Internal = isInternal(changes[i].Dir)
	}
	return changes, err
}

// isInternal reports whether the package in dir is importable only from inside its
// module's tree.
func isInternal(dir string) bool {
	return slices.Contains(strings.Split(dir, "/"), "internal")
}

// BrokenUses type-checks the packages outside the change that import changed ones.
func (fe frontend) BrokenUses(req *lang.Request, changes []lang.APIChange) ([]lang.BrokenUse, error) {
	if err := fe.prepare(req); err != nil {
		return nil, err
	}
	return api.New(fe.loaderFor(req)).BrokenUses(req.Context, req.Changes, changes)
}

func (frontend) Name() string   { return "go" }
func (frontend) Naming() string { return "go" }

// Match handles every file whose name ends in ".go".
func (frontend) Match(path string) bool { return strings.HasSuffix(path, ".go") }

// Parse parses src as the Go file at path. Syntax errors go to File.SyntaxErrors with
// whatever go/parser recovered; the error result is always nil, and Parse never panics.
func (frontend) Parse(path string, src []byte) (*lang.File, error) {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.AllErrors)
	lf := &lang.File{Path: path, Language: "go", Lines: splitLines(src), Test: strings.HasSuffix(path, "_test.go")}
	lf.SyntaxErrors = syntaxErrors(err)
	if af == nil {
		return lf, nil
	}
	tf := fset.File(af.Pos())
	if tf == nil {
		return lf, nil
	}
	x := &extractor{
		tf:   tf,
		file: af,
		test: strings.HasSuffix(path, "_test.go"),
		lf:   lf,
	}
	x.run(src)
	return lf, nil
}

// syntaxErrors turns a go/parser error into positioned syntax errors.
func syntaxErrors(err error) []lang.SyntaxError {
	if err == nil {
		return nil
	}
	list, ok := err.(scanner.ErrorList)
	if !ok {
		return []lang.SyntaxError{{Pos: lang.Pos{Line: 1, Column: 1}, Message: err.Error()}}
	}
	out := make([]lang.SyntaxError, 0, len(list))
	for _, e := range list {
		p := lang.Pos{Line: max(e.Pos.Line, 1), Column: max(e.Pos.Column, 1)}
		out = append(out, lang.SyntaxError{Pos: p, Message: e.Msg})
	}
	return out
}

// splitLines splits src into lines without terminators ("\n" or "\r\n"); a final
// newline does not start another line.
func splitLines(src []byte) []string {
	if len(src) == 0 {
		return nil
	}
	s := string(src)
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// extractor walks one parsed file.
type extractor struct {
	tf   *token.File
	file *ast.File
	test bool
	lf   *lang.File
	// testingNames are the local names of the "testing" imports.
	testingNames map[string]bool
	// codeLines marks the lines that hold a non-comment token.
	codeLines []bool
}

func (x *extractor) pos(p token.Pos) lang.Pos {
	if !p.IsValid() || int(p) < x.tf.Base() || int(p) > x.tf.Base()+x.tf.Size() {
		return lang.Pos{Line: 1, Column: 1}
	}
	ps := x.tf.PositionFor(p, false) // //line directives do not move findings
	return lang.Pos{Line: ps.Line, Column: ps.Column}
}

func (x *extractor) span(from, to token.Pos) lang.Span {
	end := to
	if end > from {
		end-- // End() is one past the last character
	}
	return lang.Span{Start: x.pos(from), End: x.pos(end)}
}

func (x *extractor) run(src []byte) {
	af := x.file
	if af.Name != nil {
		x.lf.Package = af.Name.Name
		x.ident(af.Name, lang.IdentPackage)
	}
	for _, imp := range af.Imports {
		if imp.Path == nil {
			continue
		}
		if p, err := strconv.Unquote(imp.Path.Value); err == nil && p == "testing" {
			name := "testing"
			if imp.Name != nil {
				name = imp.Name.Name
			}
			if x.testingNames == nil {
				x.testingNames = map[string]bool{}
			}
			x.testingNames[name] = true
		}
	}
	for _, cg := range af.Comments {
		for _, c := range cg.List {
			x.lf.Comments = append(x.lf.Comments, lang.Comment{
				Text:    c.Text,
				Pos:     x.pos(c.Pos()),
				EndLine: x.pos(c.End() - 1).Line,
			})
		}
	}
	x.codeLines = codeLines(x.tf, src)
	for _, d := range af.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			x.funcDecl(d)
		case *ast.GenDecl:
			x.genDecl(d)
		}
	}
	x.skips(src)
	x.idents()
	sort.SliceStable(x.lf.Idents, func(i, j int) bool {
		a, b := x.lf.Idents[i].Pos, x.lf.Idents[j].Pos
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
}

func (x *extractor) funcDecl(fn *ast.FuncDecl) {
	if fn.Name == nil || fn.Type == nil {
		return
	}
	d := lang.Decl{
		Name:       fn.Name.Name,
		Kind:       lang.Func,
		Exported:   ast.IsExported(fn.Name.Name),
		Documented: fn.Doc != nil,
		Span:       x.span(fn.Pos(), fn.End()),
		NamePos:    x.pos(fn.Name.Pos()),
	}
	sig := funcSignature(fn.Type)
	if recv := receiver(fn); recv != nil {
		tname := recvTypeName(recv.Type)
		d.Name = tname + "." + fn.Name.Name
		d.Kind = lang.Method
		d.Exported = d.Exported && ast.IsExported(tname)
		sig = "(" + exprString(recv.Type) + ") " + sig
	} else {
		d.Test = x.isTest(fn)
	}
	d.Signature = sig
	if fn.Body != nil {
		d.Metrics = x.metrics(fn)
	}
	x.lf.Decls = append(x.lf.Decls, d)
}

// receiver returns the receiver field of a method, nil for a function.
func receiver(fn *ast.FuncDecl) *ast.Field {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return nil
	}
	return fn.Recv.List[0]
}

// recvTypeName is the type name of a receiver type expression: T for T, *T, T[P], (*T).
func recvTypeName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return "?"
		}
	}
}

// isTest reports whether fn, a function without receiver, is a test, fuzz, benchmark or
// example function of a _test.go file, with the signature `go test` accepts.
func (x *extractor) isTest(fn *ast.FuncDecl) bool {
	if !x.test || fn.Type.TypeParams != nil && len(fn.Type.TypeParams.List) > 0 {
		return false
	}
	if fn.Type.Results != nil && len(fn.Type.Results.List) > 0 {
		return false
	}
	name := fn.Name.Name
	params := fn.Type.Params
	switch {
	case hasTestPrefix(name, "Example"):
		return params == nil || len(params.List) == 0
	case hasTestPrefix(name, "Test"):
		return name != "TestMain" && x.oneTestingParam(params, "T")
	case hasTestPrefix(name, "Fuzz"):
		return x.oneTestingParam(params, "F")
	case hasTestPrefix(name, "Benchmark"):
		return x.oneTestingParam(params, "B")
	}
	return false
}

// hasTestPrefix is `go test`'s rule: name is prefix, or prefix followed by a rune that
// is not lower case.
func hasTestPrefix(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

// oneTestingParam reports whether params is exactly one parameter of type *testing.<typ>.
func (x *extractor) oneTestingParam(params *ast.FieldList, typ string) bool {
	if params == nil || len(params.List) != 1 || len(params.List[0].Names) > 1 {
		return false
	}
	star, ok := params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	if id, ok := star.X.(*ast.Ident); ok { // import . "testing"
		return x.testingNames["."] && id.Name == typ
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != typ {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && x.testingNames[id.Name]
}

func (x *extractor) genDecl(gd *ast.GenDecl) {
	grouped := gd.Lparen.IsValid()
	for _, spec := range gd.Specs {
		start := spec.Pos()
		if !grouped {
			start = gd.Pos()
		}
		switch s := spec.(type) {
		case *ast.TypeSpec:
			x.typeSpec(gd, s, start)
		case *ast.ValueSpec:
			x.valueSpec(gd, s, start)
		}
	}
}

// typeSpec records a type declaration and, for an exported struct, its fields.
func (x *extractor) typeSpec(gd *ast.GenDecl, s *ast.TypeSpec, start token.Pos) {
	if s.Name == nil {
		return
	}
	d := lang.Decl{
		Name:       s.Name.Name,
		Kind:       lang.Type,
		Exported:   ast.IsExported(s.Name.Name),
		Documented: s.Doc != nil || gd.Doc != nil,
		Span:       x.span(start, s.End()),
		NamePos:    x.pos(s.Name.Pos()),
		Signature:  typeSignature(s),
	}
	x.lf.Decls = append(x.lf.Decls, d)
	if st, ok := s.Type.(*ast.StructType); ok && d.Exported {
		x.fields(s.Name.Name, st)
	}
}

// valueSpec records the names of a var or const spec. A package-level variable whose
// value holds function literals gets their metrics, under the variable's name.
func (x *extractor) valueSpec(gd *ast.GenDecl, s *ast.ValueSpec, start token.Pos) {
	kind := lang.Var
	if gd.Tok == token.CONST {
		kind = lang.Const
	}
	sig := ""
	if s.Type != nil {
		sig = exprString(s.Type)
	}
	paired := len(s.Values) == len(s.Names)
	for i, n := range s.Names {
		if n == nil || n.Name == "_" {
			continue
		}
		d := lang.Decl{
			Name:       n.Name,
			Kind:       kind,
			Exported:   ast.IsExported(n.Name),
			Documented: s.Doc != nil || gd.Doc != nil,
			Span:       x.span(start, s.End()),
			NamePos:    x.pos(n.Pos()),
			Signature:  sig,
		}
		switch {
		case !paired:
		case kind == lang.Const: // a constant's value is part of its API; a variable's is not
			d.Signature = strings.TrimSpace(sig + " = " + exprString(s.Values[i]))
		default:
			d.Metrics = x.litMetrics(s.Values[i])
		}
		x.lf.Decls = append(x.lf.Decls, d)
	}
}

// fields lists the fields of the struct type named tname, an exported type.
func (x *extractor) fields(tname string, st *ast.StructType) {
	if st.Fields == nil {
		return
	}
	for _, f := range st.Fields.List {
		sig := exprString(f.Type)
		names := f.Names
		if len(names) == 0 { // embedded: named by its type
			if n := embeddedName(f.Type); n != nil {
				names = []*ast.Ident{n}
			}
		}
		for _, n := range names {
			if n.Name == "_" {
				continue
			}
			x.lf.Decls = append(x.lf.Decls, lang.Decl{
				Name:       tname + "." + n.Name,
				Kind:       lang.Field,
				Exported:   ast.IsExported(n.Name),
				Documented: f.Doc != nil || f.Comment != nil,
				Span:       x.span(f.Pos(), f.End()),
				NamePos:    x.pos(n.Pos()),
				Signature:  sig,
			})
		}
	}
}

// embeddedName is the identifier naming an embedded field: T, *T, pkg.T, T[P].
func embeddedName(e ast.Expr) *ast.Ident {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.SelectorExpr:
			return t.Sel
		case *ast.Ident:
			return t
		default:
			return nil
		}
	}
}

// codeLines marks, by 1-based line, the lines of src holding a token that is not a
// comment; a multi-line string literal marks every line it spans.
func codeLines(tf *token.File, src []byte) []bool {
	lines := make([]bool, tf.LineCount()+2)
	var s scanner.Scanner
	// A private file keeps the scanner's line table away from the parser's.
	f := token.NewFileSet().AddFile("", -1, len(src))
	s.Init(f, src, func(token.Position, string) {}, 0)
	for {
		p, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // inserted automatically, not in the source
		}
		first := f.Line(p)
		last := first
		if tok == token.STRING && len(lit) > 0 && lit[0] == '`' {
			last = first + bytes.Count([]byte(lit), []byte("\n"))
		}
		for l := first; l <= last && l < len(lines); l++ {
			lines[l] = true
		}
	}
	return lines
}

// skips records every call of a method named Skip, Skipf or SkipNow in a test file (on
// a *testing.T, a *testing.B or anything wrapping them).
func (x *extractor) skips(src []byte) {
	if !x.test {
		return
	}
	ast.Inspect(x.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel == nil || (sel.Sel.Name != "Skip" && sel.Sel.Name != "Skipf" && sel.Sel.Name != "SkipNow") {
			return true
		}
		start, end := x.tf.Offset(sel.Pos()), x.tf.Offset(call.End())
		text := string(src[start:end])
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			text = text[:i]
		}
		x.lf.Skips = append(x.lf.Skips, lang.Skip{Pos: x.pos(sel.Pos()), Text: text})
		return true
	})
}
