package golang

import (
	"go/ast"
	"go/token"

	"github.com/agentverify/agentverify/lang"
)

// idents collects every identifier the file declares (the package name was added
// already). A name redeclared by := is listed once, where it was first declared.
//
//agentverify:ignore complexity/cyclomatic one case per kind of declaring node; splitting would scatter the table
func (x *extractor) idents() {
	ast.Inspect(x.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			kind := lang.IdentFunc
			if n.Recv != nil {
				kind = lang.IdentMethod
				x.fieldNames(n.Recv, lang.IdentParam)
			}
			x.ident(n.Name, kind)
		case *ast.FuncType:
			x.fieldNames(n.TypeParams, lang.IdentType)
			x.fieldNames(n.Params, lang.IdentParam)
			x.fieldNames(n.Results, lang.IdentParam)
		case *ast.GenDecl:
			x.genDeclIdents(n)
		case *ast.StructType:
			x.fieldNames(n.Fields, lang.IdentField)
		case *ast.InterfaceType:
			x.fieldNames(n.Methods, lang.IdentMethod)
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				break
			}
			for _, e := range n.Lhs {
				if id, ok := e.(*ast.Ident); ok && (id.Obj == nil || id.Obj.Decl == n) {
					x.ident(id, lang.IdentVar)
				}
			}
		case *ast.RangeStmt:
			if n.Tok != token.DEFINE {
				break
			}
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					x.ident(id, lang.IdentVar)
				}
			}
		case *ast.LabeledStmt:
			x.ident(n.Label, lang.IdentLabel)
		}
		return true
	})
}

func (x *extractor) genDeclIdents(gd *ast.GenDecl) {
	for _, spec := range gd.Specs {
		switch s := spec.(type) {
		case *ast.TypeSpec:
			x.ident(s.Name, lang.IdentType)
			x.fieldNames(s.TypeParams, lang.IdentType)
		case *ast.ValueSpec:
			kind := lang.IdentVar
			if gd.Tok == token.CONST {
				kind = lang.IdentConst
			}
			for _, n := range s.Names {
				x.ident(n, kind)
			}
		}
	}
}

func (x *extractor) fieldNames(fl *ast.FieldList, kind lang.IdentKind) {
	if fl == nil {
		return
	}
	for _, f := range fl.List {
		for _, n := range f.Names {
			x.ident(n, kind)
		}
	}
}

func (x *extractor) ident(id *ast.Ident, kind lang.IdentKind) {
	if id == nil || id.Name == "_" || id.Name == "" || !id.Pos().IsValid() {
		return
	}
	x.lf.Idents = append(x.lf.Idents, lang.Ident{Name: id.Name, Kind: kind, Pos: x.pos(id.Pos())})
}
