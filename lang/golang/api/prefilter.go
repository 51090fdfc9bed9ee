package api

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path"
	"strings"

	"github.com/agentverify/agentverify/change"
)

// sameDecls reports whether the change leaves every declaration of the package in dir
// as it was, function bodies aside: the package's API is then the same on both sides
// (its other files are unchanged, and both sides import the same dependencies), so it
// need not be type-checked. Most changes only edit function bodies.
func sameDecls(set *change.Set, dir string) bool {
	for _, f := range set.Files {
		if !apiFile(f.Path, dir) && !apiFile(f.OldPath, dir) {
			continue
		}
		if f.Op != change.Modify || f.Binary || f.Symlink || f.TooLarge {
			return false
		}
		b, bok := declText(f.Path, f.Base)
		h, hok := declText(f.Path, f.Head)
		if !bok || !hok || b != h {
			return false
		}
	}
	return true
}

// apiFile reports whether p is a non-test Go file of dir.
func apiFile(p, dir string) bool {
	return p != "" && path.Dir(p) == dir && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go")
}

// declText prints the file with its function bodies removed, comments dropped and the
// layout normalised; a file excluded from the build prints as nothing. ok is false when
// the file does not parse.
func declText(name string, src []byte) (text string, ok bool) {
	if !buildMatch(name, src) {
		return "", true
	}
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		return "", false
	}
	for _, d := range f.Decls {
		if fd, isFunc := d.(*ast.FuncDecl); isFunc {
			fd.Body = nil
		}
	}
	var b bytes.Buffer
	// An empty file set: positions mean nothing to it, so only the syntax is printed.
	if err := printer.Fprint(&b, token.NewFileSet(), f); err != nil {
		return "", false
	}
	return b.String(), true
}
