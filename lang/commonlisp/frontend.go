package commonlisp

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/commonlisp/index"
	"github.com/agentverify/agentverify/lang/commonlisp/lambdalist"
	"github.com/agentverify/agentverify/lang/commonlisp/reader"
	"github.com/agentverify/agentverify/lang/commonlisp/resolve"
)

// Frontend is the Common Lisp frontend of the lang contract: it reads a file with the
// reader (positions kept, #+/#- evaluated against SBCL's features), indexes its defining
// forms and turns them into the declarations, identifiers, metrics, comments and syntax
// errors the language-agnostic dimensions (style, complexity) and the syntax check use.
type Frontend struct {
	// Features are the #+/#- features; nil means reader.DefaultFeatures().
	Features []string
	// Deps, when set, keeps the dependencies read from the ASDF source registry across
	// verifications (a long-lived process); nil means one loader per verification.
	Deps *resolve.Deps
}

// Resolve checks the changed Lisp files against the project's world (lang.Resolver; see
// the resolve package).
func (fe *Frontend) Resolve(req *lang.Request) ([]lang.Problem, error) {
	return resolve.Resolver{Features: fe.Features, Deps: fe.Deps}.Resolve(req)
}

// New returns the Common Lisp frontend with SBCL-on-x86-64-Linux features.
func New() *Frontend { return &Frontend{} }

// Name is "commonlisp".
func (*Frontend) Name() string { return "commonlisp" }

// Match handles .lisp, .lsp, .cl and .asd files.
func (*Frontend) Match(path string) bool {
	for _, ext := range []string{".lisp", ".lsp", ".cl", ".asd"} {
		if strings.HasSuffix(strings.ToLower(path), ext) {
			return true
		}
	}
	return false
}

// Naming is lisp-case.
func (*Frontend) Naming() string { return "lisp-case" }

// Parse reads src. Every syntax error the reader recovers from is a lang.SyntaxError;
// the forms after an error are still indexed.
func (fe *Frontend) Parse(path string, src []byte) (*lang.File, error) {
	rf := reader.Read(src, reader.Options{Features: fe.Features})
	ix := index.Build(rf)
	f := &lang.File{Path: path, Language: "commonlisp", Package: ix.PackageAt(0), Lines: splitLines(src), DocTerm: "docstring"}
	for _, e := range rf.Errors {
		f.SyntaxErrors = append(f.SyntaxErrors, lang.SyntaxError{Pos: pos(e.Pos), Message: e.Msg})
	}
	for _, c := range rf.Comments {
		f.Comments = append(f.Comments, lang.Comment{Text: c.Text, Pos: pos(c.Span.Start), EndLine: c.Span.End.Line})
	}
	exported := exports(ix)
	for _, d := range ix.Definitions {
		if d.TopLevel {
			f.Decls = append(f.Decls, declOf(d, src, rf, exported))
		}
	}
	f.Idents = fileIdents(ix, src)
	addTests(f, rf, src)
	return f, nil
}

// fileIdents returns the names a file's definitions and local functions declare.
func fileIdents(ix *index.File, src []byte) []lang.Ident {
	var out []lang.Ident
	for _, d := range ix.Definitions {
		out = append(out, identsOf(d, src)...)
	}
	for _, s := range ix.Scopes {
		for _, d := range s.Functions {
			out = append(out, identsOf(d, src)...)
		}
	}
	return out
}

// Conventions are lisp-case, snake_case and camelCase, in which Lisp is written
// (lang.NamingDetector).
func (*Frontend) Conventions() []string { return []string{"lisp-case", "snake_case", "camelCase"} }

// ProjectIdents returns the identifiers declared by the Lisp files of the repository that
// the change does not touch, or in check mode by all of them (lang.NamingDetector).
func (fe *Frontend) ProjectIdents(req *lang.Request) ([]lang.Ident, error) {
	p, err := fe.projectFor(req, change.Head)
	if err != nil {
		return nil, err
	}
	var kept, all []lang.Ident
	for _, path := range p.paths() {
		pf := p.files[path]
		ids := fileIdents(pf.ix, pf.src)
		all = append(all, ids...)
		if req.Changes.File(path) == nil {
			kept = append(kept, ids...)
		}
	}
	if req.Changes.NoBase {
		return all, nil // check mode: the files as they are are the project
	}
	return kept, nil
}

// exports returns the package-qualified names ("PKG:NAME") the file's own packages
// export. Packages defined in other files are not seen here: a definition is exported
// when its package, defined in the same file, lists it.
func exports(ix *index.File) map[string]bool {
	out := map[string]bool{}
	for _, p := range ix.Packages {
		for _, s := range p.Export {
			out[p.Name+":"+s.Name] = true
			for _, n := range p.Nicknames {
				out[n+":"+s.Name] = true
			}
		}
	}
	for _, e := range ix.Exports {
		for _, s := range e.Symbols {
			out[e.Package+":"+s.Name] = true // a top-level (export …) in the same file
		}
	}
	return out
}

// declOf turns a top-level definition into a declaration; callable ones get metrics.
func declOf(d index.Definition, src []byte, rf *reader.File, exported map[string]bool) lang.Decl {
	name, _ := writtenName(d, src)
	decl := lang.Decl{
		Name:       name,
		Kind:       declKind(d.Kind),
		Exported:   exported[d.Package+":"+d.Name],
		Documented: d.Documented || derived(d),
		NamePos:    pos(d.NameSpan.Start),
	}
	if d.Form != nil {
		decl.Span = lang.Span{Start: pos(d.Form.Span.Start), End: pos(d.Form.Span.End)}
	}
	if d.Lambda != nil {
		decl.Signature = d.Lambda.String()
	}
	if d.Kind.Callable() && d.Form != nil && d.Form.Kind == reader.List {
		decl.Metrics = metrics(d.Form, rf, src)
	}
	return decl
}

// derived reports whether a form defines d as a by-product ("defstruct :constructor",
// "defclass :accessor", "setf symbol-function"): it has no docstring of its own to give,
// and is documented, if at all, where its defining form is.
func derived(d index.Definition) bool { return strings.Contains(d.Via, " ") }

// DocAdvice says where a Lisp definition's docstring goes (lang.DocAdvisor).
func (*Frontend) DocAdvice(d lang.Decl) string {
	switch d.Kind {
	case lang.Var, lang.Const:
		return fmt.Sprintf("add a docstring after the value, (defvar %s value \"…\"), that says what it is for", d.Name)
	case lang.Type:
		return fmt.Sprintf("document %s: a docstring after its name and options (defstruct), or a (:documentation \"…\") option (defclass, define-condition)", d.Name)
	}
	return fmt.Sprintf("add a docstring after the lambda list of %s that says what it is for (a ; comment is not documentation in Lisp)", d.Name)
}

func declKind(k index.Kind) lang.DeclKind {
	switch k {
	case index.Method:
		return lang.Method
	case index.Structure, index.Class, index.Condition, index.Type:
		return lang.Type
	case index.Variable, index.SymbolMacro:
		return lang.Var
	case index.Constant:
		return lang.Const
	}
	return lang.Func
}

// identsOf returns the names a definition declares, as written: the defined name and the
// variables of its lambda list.
func identsOf(d index.Definition, src []byte) []lang.Ident {
	kind := lang.IdentFunc
	switch declKind(d.Kind) {
	case lang.Type:
		kind = lang.IdentType
	case lang.Var:
		kind = lang.IdentVar
	case lang.Const:
		kind = lang.IdentConst
	}
	name, asWritten := writtenName(d, src)
	if !asWritten {
		return nil // derived (a defstruct's accessors): its parts are named where written
	}
	out := []lang.Ident{{Name: name, Kind: kind, Pos: pos(d.NameSpan.Start)}}
	if d.Lambda == nil {
		return out
	}
	for _, ps := range [][]lambdalist.Param{d.Lambda.Required, d.Lambda.Optional, d.Lambda.Key} {
		for _, p := range ps {
			if sym := paramSymbol(p); sym != nil {
				out = append(out, lang.Ident{Name: text(src, sym.Span), Kind: lang.IdentParam, Pos: pos(sym.Span.Start)})
			}
		}
	}
	return out
}

// paramSymbol returns the variable symbol of a parameter as written: the parameter itself,
// or the first element of (var default) and ((:key var) default).
func paramSymbol(p lambdalist.Param) *reader.Form {
	f := p.Form
	for f != nil && f.Kind == reader.List && len(f.Items) > 0 {
		f = f.Items[0]
		if f.Kind == reader.List && len(f.Items) == 2 {
			f = f.Items[1] // ((:keyword var) default)
		}
	}
	if f == nil || f.Kind != reader.Symbol || p.Name == "" {
		return nil
	}
	return f
}

// writtenName returns the defined name as the source writes it, and whether it is written
// there: names a form derives (make-square from (defstruct square)) are given in lower
// case.
func writtenName(d index.Definition, src []byte) (string, bool) {
	w := text(src, d.NameSpan)
	if i := strings.LastIndexByte(w, ':'); i >= 0 {
		w = w[i+1:]
	}
	if strings.EqualFold(strings.Trim(w, "|"), d.Name) {
		return w, true
	}
	return strings.ToLower(d.Name), false
}

func text(src []byte, s reader.Span) string {
	if s.Start.Offset < 0 || s.End.Offset > len(src) || s.Start.Offset >= s.End.Offset {
		return ""
	}
	return string(src[s.Start.Offset:s.End.Offset])
}

func pos(p reader.Pos) lang.Pos { return lang.Pos{Line: p.Line, Column: p.Column} }

func splitLines(src []byte) []string {
	lines := strings.Split(string(bytes.TrimSuffix(src, []byte("\n"))), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// WithFeatures returns langs with its Common Lisp frontend reading #+/#- against
// features (the policy's languages.common_lisp.features); nil leaves langs as they are.
// langs itself is not modified.
func WithFeatures(langs lang.Registry, features []string) lang.Registry {
	if features == nil {
		return langs
	}
	out := slices.Clone(langs)
	for i, fe := range out {
		if lf, ok := fe.(*Frontend); ok {
			c := *lf
			c.Features = features
			out[i] = &c
		}
	}
	return out
}
