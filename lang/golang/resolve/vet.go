package resolve

import (
	"fmt"
	"go/ast"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lang/golang/vet"
)

// VetKind is the kind of problem go vet's analyzer name reports: "vet-printf". Every
// analyzer of vet.Suite has one, but stdversion, whose findings are api-too-new.
func VetKind(analyzer string) lang.Kind { return lang.Kind("vet-" + analyzer) }

// unsafeFixes names the analyzers whose one suggested fix is not applied by --fix:
// deleting unreachable code may leave a variable or an import unused, which does not
// compile.
var unsafeFixes = map[string]bool{"unreachable": true}

// vet runs go vet's analyzers over pkg (design.md §5) and reports their diagnostics in
// the repository's files; for a package given only for its facts, it runs the analyzers
// that learn facts and reports nothing. A package with type errors gets the analyzers
// that declare they run despite errors, as with go/analysis/checker and gopls (one
// broken file does not hide the rest of the package's findings), but structtag when one
// of its types is an invalid recursive type: structtag then recurses without end
// (go/types' test data), which no recover can catch.
func (c *converter) vet(pkg *load.Package, factsOnly bool) {
	if c.err != nil {
		return
	}
	diags, err := c.vetDiagnostics(pkg, factsOnly)
	if err != nil {
		c.err = err
		return
	}
	c.addVet(pkg, diags)
}

// vetDiagnostics runs the analyzers over pkg and returns their diagnostics. It reads
// the converter's configuration and facts, never its findings, so it may run beside the
// converter's other passes over the same packages.
func (c *converter) vetDiagnostics(pkg *load.Package, factsOnly bool) ([]vet.Diagnostic, error) {
	ill := illTyped(pkg)
	if pkg.Types == nil || pkg.Info == nil || ill && factsOnly || !c.inRepo(pkg) {
		return nil, nil
	}
	suite := c.vetSuite(pkg, ill, factsOnly)
	vp := c.vetPackage(pkg)
	vp.IllTyped = ill
	diags, err := vet.Run(vp, suite, c.facts)
	if factsOnly {
		return nil, err // its facts are all it is run for
	}
	return diags, err
}

// addVet reports the diagnostics of pkg's analyzers.
func (c *converter) addVet(pkg *load.Package, diags []vet.Diagnostic) {
	for _, d := range diags {
		if p, ok := c.vetProblem(pkg, d); ok {
			c.add(p)
		}
	}
}

// vetSuite returns the analyzers to run on pkg: for facts only, the ones that make facts;
// else go vet's, less those that would judge another port by the host's rules, those that
// would judge again the text the host check judged, and structtag on an invalid recursive
// type (it would not end).
func (c *converter) vetSuite(pkg *load.Package, ill, factsOnly bool) []*analysis.Analyzer {
	if factsOnly {
		return vet.FactSuite
	}
	suite := vet.Suite
	if c.port {
		suite = without(suite, hostAnalyzers)
	}
	if len(pkg.Files) > 0 && c.hostRead[filepath.Dir(pkg.Files[0])] {
		suite = without(suite, textAnalyzers)
	}
	if ill && recursiveType(pkg) {
		suite = without(suite, map[string]bool{"structtag": true})
	}
	return suite
}

// hostAnalyzers read the host's GOOS and GOARCH (go/build.Default), not the checked
// configuration's: under another port they would judge its assembly by the host's rules.
var hostAnalyzers = map[string]bool{"framepointer": true}

// textAnalyzers judge the text of every file of a package's directory, the files its
// build leaves out too (buildtag): a check under another configuration leaves them out in
// the directories the host check read (converter.hostRead), so that each file is judged
// once.
var textAnalyzers = map[string]bool{"buildtag": true}

// without returns suite without the analyzers named in names.
func without(suite []*analysis.Analyzer, names map[string]bool) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, a := range suite {
		if !names[a.Name] {
			out = append(out, a)
		}
	}
	return out
}

// inRepo reports whether a file of pkg is in the repository: a file of it, or the file a
// cgo-generated file of the build cache stands for (its //line directives say which).
func (c *converter) inRepo(pkg *load.Package) bool {
	for _, f := range pkg.Syntax {
		if c.rel(c.res.Fset.Position(f.Package).Filename) != "" {
			return true
		}
	}
	return false
}

// vetPackage gives the analyzers pkg, its files read as the head of the change has them.
func (c *converter) vetPackage(pkg *load.Package) *vet.Package {
	var mod *analysis.Module
	if c.res.Module.Path != "" {
		mod = &analysis.Module{Path: c.res.Module.Path, GoVersion: c.res.Module.GoVersion, Main: true}
	}
	return &vet.Package{
		Fset: c.res.Fset, Files: pkg.Syntax, OtherFiles: pkg.OtherFiles, IgnoredFiles: pkg.IgnoredFiles,
		Types: pkg.Types, Info: pkg.Info, Sizes: pkg.TypesSizes, Module: mod,
		ReadFile: c.readHead,
	}
}

// illTyped reports whether pkg has errors that may leave its type information
// incomplete: a syntax error, or a type error that is not soft (an unused variable or
// import is). A list error (an embed pattern, a build constraint) leaves the types whole.
func illTyped(pkg *load.Package) bool {
	for _, e := range pkg.Errors {
		if e.Kind == load.ParseError || e.Kind == load.TypeError && !e.Soft {
			return true
		}
	}
	return false
}

// recursiveType reports whether go/types found an invalid recursive type in pkg.
func recursiveType(pkg *load.Package) bool {
	for _, e := range pkg.Errors {
		if e.Kind == load.TypeError && strings.HasPrefix(e.Msg, "invalid recursive type") {
			return true
		}
	}
	return false
}

// readHead reads a file as the head of the change has it: a repository file from the
// head tree, anything else (the build cache's cgo output) from the disk.
func (c *converter) readHead(name string) ([]byte, error) {
	rel := c.rel(name)
	head := c.pass.Changes.HeadFS
	if rel == "" || head == nil {
		return os.ReadFile(name)
	}
	return fs.ReadFile(head, rel)
}

// vetProblem turns a diagnostic into a problem, or reports false when it is not in a
// repository file or repeats what another rule reported.
func (c *converter) vetProblem(pkg *load.Package, d vet.Diagnostic) (lang.Problem, bool) {
	fset := c.res.Fset
	pos := fset.Position(d.Pos)
	file := c.rel(pos.Filename)
	if file == "" || pos.Line == 0 {
		return lang.Problem{}, false
	}
	p := lang.Problem{
		Kind:     VetKind(d.Analyzer.Name),
		Location: lang.Location{File: file, Line: pos.Line, Column: pos.Column},
		Message:  d.Message,
		Symbol:   d.Analyzer.Name + ":" + enclosing(pkg, fset, d.Pos),
	}
	if end := fset.Position(d.End); d.End.IsValid() && end.Filename == pos.Filename && end.Line == pos.Line && end.Column > pos.Column {
		p.Location.EndLine, p.Location.EndColumn = end.Line, end.Column
	}
	for _, r := range d.Related {
		if rp := fset.Position(r.Pos); c.rel(rp.Filename) != "" {
			p.Related = append(p.Related, lang.Related{Location: lang.Location{File: c.rel(rp.Filename), Line: rp.Line, Column: rp.Column}, Message: r.Message})
		}
	}
	if d.Analyzer.Name == "stdversion" {
		// The same finding as tooNew's, which dates symbols stdversion does not (modules
		// before go 1.21): one report per use.
		p.Kind = lang.APITooNew
		p.Symbol = stdversionSymbol(d.Message)
		if c.tooNewAt[posKey(pos)] {
			return lang.Problem{}, false
		}
		p.Suggestion = tooNewAdvice(d.Message)
	}
	if len(d.SuggestedFixes) == 1 {
		p.Suggestion = joinAdvice(p.Suggestion, fixAdvice(d.SuggestedFixes[0].Message))
		if !unsafeFixes[d.Analyzer.Name] {
			p.Fix = c.vetFix(d.SuggestedFixes[0])
		}
	}
	p.Suggestion = joinAdvice(p.Suggestion, vetAdvice(d.Analyzer.Name, d.Message))
	return p, true
}

// vetFix converts a suggested fix whose edits all fall in repository files.
func (c *converter) vetFix(sf analysis.SuggestedFix) *lang.Fix {
	fix := &lang.Fix{Description: sf.Message}
	for _, e := range sf.TextEdits {
		start, end := c.res.Fset.Position(e.Pos), c.res.Fset.Position(e.End)
		if !e.End.IsValid() {
			end = start
		}
		file := c.rel(start.Filename)
		if file == "" || end.Filename != start.Filename {
			return nil
		}
		fix.Edits = append(fix.Edits, lang.Edit{
			Range:   lang.Location{File: file, Line: start.Line, Column: start.Column, EndLine: end.Line, EndColumn: end.Column},
			NewText: string(e.NewText),
		})
	}
	if len(fix.Edits) == 0 {
		return nil
	}
	return fix
}

// enclosing names the top-level declaration around pos ("Run", "Server.Close", "var
// x"), so that the finding's fingerprint survives line shifts.
func enclosing(pkg *load.Package, fset *token.FileSet, pos token.Pos) string {
	for _, f := range pkg.Syntax {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if pos >= d.Pos() && pos <= d.End() {
				return declName(d, pos)
			}
		}
		return filepath.Base(fset.Position(f.FileStart).Filename)
	}
	return ""
}

// declName names a top-level declaration, or the spec of it around pos.
func declName(d ast.Decl, pos token.Pos) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) == 1 {
			return recvName(d.Recv.List[0].Type) + "." + d.Name.Name
		}
		return d.Name.Name
	case *ast.GenDecl:
		for _, s := range d.Specs {
			if pos >= s.Pos() && pos <= s.End() {
				return specName(s)
			}
		}
	}
	return ""
}

func recvName(t ast.Expr) string {
	switch t := t.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}

func specName(s ast.Spec) string {
	switch s := s.(type) {
	case *ast.TypeSpec:
		return "type " + s.Name.Name
	case *ast.ValueSpec:
		if len(s.Names) > 0 {
			return "var " + s.Names[0].Name
		}
	case *ast.ImportSpec:
		return "import"
	}
	return ""
}

// stdversionSymbol returns "pkg.Name" of stdversion's "pkg.Name requires go1.N or later
// (…)".
func stdversionSymbol(msg string) string {
	sym, _, _ := strings.Cut(msg, " requires ")
	return sym
}

// tooNewAdvice gives stdversion's finding tooNew's advice.
func tooNewAdvice(msg string) string {
	var want, have string
	if _, rest, ok := strings.Cut(msg, " requires go"); ok {
		want, _, _ = strings.Cut(rest, " ")
	}
	if _, rest, ok := strings.Cut(msg, " is go"); ok {
		have = strings.TrimSuffix(rest, ")")
	}
	if want == "" || have == "" {
		return ""
	}
	return fmt.Sprintf("use an API of go%s or earlier, or raise the go directive to %s in a reviewed change", have, want)
}

// fixAdvice turns a suggested fix's title ("Replace fmt.Sprintf with net.JoinHostPort")
// into advice.
func fixAdvice(msg string) string {
	if msg == "" {
		return ""
	}
	return strings.ToLower(msg[:1]) + msg[1:]
}

func joinAdvice(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "" || strings.Contains(a, b):
		return a
	}
	return a + "; " + b
}

// dependencyOrder returns pkgs with every package after the packages of the list it
// imports, so that facts flow from a package to its importers: variants of one package
// (a package, its test variant, its external tests) after the plain packages they may
// import; otherwise the order of pkgs.
func dependencyOrder(pkgs []*load.Package) []*load.Package {
	out := make([]*load.Package, 0, len(pkgs))
	state := map[*load.Package]int{} // 1 visiting, 2 done
	var visit func(p *load.Package)
	visit = func(p *load.Package) {
		if state[p] != 0 {
			return // done, or an import cycle (an error of its own)
		}
		state[p] = 1
		if p.Types != nil {
			for _, ip := range p.Types.Imports() {
				for _, q := range pkgs {
					if q != p && q.PkgPath == ip.Path() && variantRank(q) <= variantRank(p) {
						visit(q)
					}
				}
			}
		}
		state[p] = 2
		out = append(out, p)
	}
	for _, p := range pkgs {
		visit(p)
	}
	return out
}

// variantRank orders the variants of a package: the package, its in-package test
// variant, its external test package.
func variantRank(p *load.Package) int {
	switch {
	case !strings.Contains(p.ID, " ["):
		return 0
	case strings.HasSuffix(p.Name, "_test"):
		return 2
	}
	return 1
}

// testShadowed returns the packages of pkgs whose in-package test variant is in pkgs
// too, with every file of the package: as go vet does, the analyzers report on the test
// variant only (a superset of the package's files, checked with the same types), so the
// package's own files are not analysed twice. An ill-typed variant shadows nothing: most
// analyzers skip it, and a test file's error must not hide the package's findings.
func testShadowed(pkgs []*load.Package) map[*load.Package]bool {
	out := map[*load.Package]bool{}
	for _, p := range pkgs {
		if variantRank(p) != 0 {
			continue
		}
		for _, q := range pkgs {
			if q.PkgPath == p.PkgPath && variantRank(q) == 1 && subset(p.Files, q.Files) && !illTyped(q) {
				out[p] = true
				break
			}
		}
	}
	return out
}

// importedWithin reports whether another package of pkgs imports p: a shadowed package
// still gives its importers its facts (printf wrappers, functions that never return).
func importedWithin(p *load.Package, pkgs []*load.Package) bool {
	for _, q := range pkgs {
		if q.PkgPath == p.PkgPath || q.Types == nil {
			continue
		}
		for _, ip := range q.Types.Imports() {
			if ip.Path() == p.PkgPath {
				return true
			}
		}
	}
	return false
}

// subset reports whether every element of a is in b.
func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
