package golang

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"strings"
)

// exprString prints e on one line: go/printer's output with each line trimmed and its
// whitespace runs collapsed, lines joined by "; " except after "{" and before "}".
func exprString(e ast.Expr) string {
	if e == nil {
		return ""
	}
	defer hideFieldComments(e)()
	var buf bytes.Buffer
	// An empty file set: positions mean nothing to it, so the printer does not try to
	// keep the source's line breaks.
	if err := printer.Fprint(&buf, token.NewFileSet(), e); err != nil {
		return ""
	}
	var out strings.Builder
	prev := ""
	for _, line := range strings.Split(stripComments(buf.String()), "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if prev != "" && !strings.HasSuffix(prev, "{") && !strings.HasPrefix(line, "}") {
			out.WriteString("; ")
		}
		out.WriteString(line)
		prev = line
	}
	return out.String()
}

// hideFieldComments detaches the doc and line comments of the fields under e and returns
// the function that puts them back. go/printer places those comments by their positions,
// which mean nothing to an empty file set: it would print one inside a later field's type
// ("Rules [\n// doc\n]T"), and every change to a struct with documented fields would
// look like a new definition.
func hideFieldComments(e ast.Node) (restore func()) {
	type saved struct {
		f            *ast.Field
		doc, comment *ast.CommentGroup
	}
	var hidden []saved
	ast.Inspect(e, func(n ast.Node) bool {
		if f, ok := n.(*ast.Field); ok && (f.Doc != nil || f.Comment != nil) {
			hidden = append(hidden, saved{f, f.Doc, f.Comment})
			f.Doc, f.Comment = nil, nil
		}
		return true
	})
	return func() {
		for _, h := range hidden {
			h.f.Doc, h.f.Comment = h.doc, h.comment
		}
	}
}

// funcSignature prints ft with parameter and result names dropped.
func funcSignature(ft *ast.FuncType) string {
	return exprString(&ast.FuncType{
		TypeParams: ft.TypeParams,
		Params:     unnamed(ft.Params),
		Results:    unnamed(ft.Results),
	})
}

// unnamed returns fl with one nameless field per name, so "a, b int" becomes "int, int".
func unnamed(fl *ast.FieldList) *ast.FieldList {
	if fl == nil {
		return nil
	}
	out := &ast.FieldList{}
	for _, f := range fl.List {
		for range max(1, len(f.Names)) {
			out.List = append(out.List, &ast.Field{Type: f.Type})
		}
	}
	return out
}

// typeSignature prints a type declaration's type parameters, alias marker and type.
func typeSignature(s *ast.TypeSpec) string {
	var b strings.Builder
	if s.TypeParams != nil && len(s.TypeParams.List) > 0 {
		b.WriteString("[")
		for i, f := range s.TypeParams.List {
			if i > 0 {
				b.WriteString(", ")
			}
			for j, n := range f.Names {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(n.Name)
			}
			b.WriteString(" " + exprString(f.Type))
		}
		b.WriteString("] ")
	}
	if s.Assign.IsValid() {
		b.WriteString("= ")
	}
	b.WriteString(exprString(s.Type))
	return b.String()
}

// stripComments removes the comments go/printer writes for struct and interface
// fields, leaving string and rune literals (struct tags) alone.
func stripComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' && c != '`' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			b.WriteString(s[i:j])
			i = j - 1
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			i-- // keep the newline
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += 2 + end + 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
