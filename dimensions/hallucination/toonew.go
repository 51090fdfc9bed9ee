package hallucination

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/analysis/passes/stdversion"

	"github.com/agentverify/agentverify/check"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// tooNew runs x/tools' stdversion analyzer on pkg: it knows, from the standard library's
// API manifest, the release that introduced each symbol, and reports uses newer than the
// go directive of the module (or of the file's //go:build line).
func (c *converter) tooNew(pkg *load.Package) {
	if pkg.Types == nil || pkg.Info == nil || len(pkg.Syntax) == 0 || pkg.Info.FileVersions == nil {
		return
	}
	pass := &analysis.Pass{
		Fset:       c.res.Fset,
		Files:      pkg.Syntax,
		Pkg:        pkg.Types,
		TypesInfo:  pkg.Info,
		TypesSizes: pkg.TypesSizes,
		ResultOf:   map[*analysis.Analyzer]any{},
		Report: func(d analysis.Diagnostic) {
			pos := c.res.Fset.Position(d.Pos)
			file := c.rel(pos.Filename)
			if file == "" {
				return
			}
			loc := check.Location{File: file, Line: pos.Line, Column: pos.Column}
			if d.End.IsValid() {
				end := c.res.Fset.Position(d.End)
				loc.EndLine, loc.EndColumn = end.Line, end.Column
			}
			sym := ""
			if id := identAt(pkg, d.Pos); id != nil {
				sym = id.Name
			}
			c.add(check.Finding{Rule: RuleAPITooNew, Location: loc, Message: d.Message, Symbol: sym})
		},
	}
	pass.Analyzer = inspect.Analyzer
	insp, err := inspect.Analyzer.Run(pass)
	if err != nil {
		return
	}
	pass.Analyzer = stdversion.Analyzer
	pass.ResultOf[inspect.Analyzer] = insp
	_, _ = stdversion.Analyzer.Run(pass)
}

func identAt(pkg *load.Package, pos token.Pos) *ast.Ident {
	for id := range pkg.Info.Uses {
		if id.Pos() == pos {
			return id
		}
	}
	return nil
}
