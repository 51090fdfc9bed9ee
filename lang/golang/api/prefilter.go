package api

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"io/fs"
	"path"
	"strings"

	"github.com/agentverify/agentverify/change"
)

// sameDecls reports whether the change leaves every declaration of the package in dir
// as it was, function bodies aside, except for declarations it adds (see added): the
// package's API is then the same on both sides but for added names, a compatible change
// (its other files are unchanged, and both sides import the same dependencies), so it
// need not be type-checked. Most changes only edit function bodies, or add a function.
func sameDecls(set *change.Set, dir string) bool {
	for _, f := range set.Files {
		if (apiFile(f.Path, dir) || apiFile(f.OldPath, dir)) && !sameFileDecls(set.HeadFS, dir, f) {
			return false
		}
	}
	return true
}

// sameFileDecls reports whether f, a file of the package in dir, declares at the head
// what it declared at the base, function bodies and added helpers aside.
func sameFileDecls(head fs.FS, dir string, f *change.File) bool {
	if f.Op != change.Modify || f.Binary || f.Symlink || f.TooLarge {
		return false
	}
	b, bok := parseDecls(f.Path, f.Base)
	h, hok := parseDecls(f.Path, f.Head)
	if !bok || !hok {
		return false
	}
	names := added(b, h, f.Base)
	bt, bok := declText(b)
	ht, hok := declText(h)
	return bok && hok && bt == ht && !mentionedElsewhere(head, dir, f.Path, names)
}

// apiFile reports whether p is a non-test Go file of dir.
func apiFile(p, dir string) bool {
	return p != "" && path.Dir(p) == dir && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go")
}

// parseDecls parses a Go file without comments and with its function bodies removed, and
// drops its functions named init or _ (no receiver): nothing can refer to them, so they
// are not part of any API. f is nil for a file excluded from the build; ok is false when
// the file does not parse.
func parseDecls(name string, src []byte) (f *ast.File, ok bool) {
	if !buildMatch(name, src) {
		return nil, true
	}
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	decls := f.Decls[:0]
	for _, d := range f.Decls {
		if fd, isFunc := d.(*ast.FuncDecl); isFunc {
			fd.Body = nil
			if fd.Recv == nil && (fd.Name.Name == "init" || fd.Name.Name == "_") {
				continue
			}
		}
		decls = append(decls, d)
	}
	f.Decls = decls
	return f, true
}

// added removes from head the declarations the change adds that cannot change the
// meaning of anything that was there, and returns the names they declare: whole
// declarations of functions with no receiver (a method changes a method set), of
// variables, constants and types, each name not predeclared (a package-level len or int
// would change what every file means by it) and never mentioned by the base file, not
// even in a comment (so it declares nothing by that name and no import or reference
// there meets it); and the methods of the types so added. Nothing that existed can refer
// to a name that did not exist without a type error, which the hallucination dimension
// reports; a new package-level name is a compatible change, which apidiff never reports
// (a dependent that dot-imports the package and declares the same name is no more caught
// when the package is compared). A file excluded from the build on either side gives
// nothing: its text is compared as a whole.
func added(base, head *ast.File, baseSrc []byte) []string {
	if base == nil || head == nil {
		return nil
	}
	a := &additions{baseSrc: baseSrc, seen: map[string]bool{}, types: map[string]bool{}}
	var rest []ast.Decl
	for _, d := range head.Decls {
		if !a.take(d) {
			rest = append(rest, d)
		}
	}
	head.Decls = rest[:0]
	for _, d := range rest {
		if fd, isFunc := d.(*ast.FuncDecl); !isFunc || fd.Recv == nil || !a.types[recvType(fd)] {
			head.Decls = append(head.Decls, d)
		}
	}
	return a.names
}

// additions collects the declarations a file adds.
type additions struct {
	baseSrc []byte
	names   []string        // declared, "_" aside
	seen    map[string]bool // names declared so far
	types   map[string]bool // the types declared
}

// take reports whether d is an addition (see added), and records its names.
func (a *additions) take(d ast.Decl) bool {
	names, isType := declNames(d)
	if len(names) == 0 {
		return false
	}
	for _, n := range names {
		if n != "_" && (a.seen[n] || types.Universe.Lookup(n) != nil || mentions(a.baseSrc, n)) {
			return false
		}
	}
	for _, n := range names {
		if n != "_" {
			a.seen[n], a.types[n] = true, isType
			a.names = append(a.names, n)
		}
	}
	return true
}

// declNames returns the names a package-level function with no receiver, or a
// declaration of variables, constants or types, declares; none for anything else (an
// import, a method).
func declNames(d ast.Decl) (names []string, isType bool) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			return []string{d.Name.Name}, false
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			}
		}
		return names, d.Tok == token.TYPE
	}
	return nil, false
}

// recvType returns the name of the type of a method's receiver ("T" of (t *T[E])), as
// Go's syntax allows it to be written: parenthesised, behind a star, with type parameters.
func recvType(fd *ast.FuncDecl) string {
	if len(fd.Recv.List) == 0 {
		return ""
	}
	t := ast.Unparen(fd.Recv.List[0].Type)
	if star, ok := t.(*ast.StarExpr); ok {
		t = ast.Unparen(star.X)
	}
	switch generic := t.(type) {
	case *ast.IndexExpr:
		t = generic.X
	case *ast.IndexListExpr:
		t = generic.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// mentionedElsewhere reports whether a non-test Go file of dir at the head other than
// file mentions one of names as a word (a declaration, a reference, a comment: any
// mention is enough to compare the package in full), whatever its build constraints; an
// unreadable directory or file counts as a mention.
func mentionedElsewhere(head fs.FS, dir, file string, names []string) bool {
	if len(names) == 0 {
		return false
	}
	ents, err := fs.ReadDir(head, dir)
	if err != nil {
		return true
	}
	for _, e := range ents {
		p := path.Join(dir, e.Name())
		if e.IsDir() || p == file || !apiFile(p, dir) {
			continue
		}
		src, err := fs.ReadFile(head, p)
		if err != nil {
			return true
		}
		for _, n := range names {
			if mentions(src, n) {
				return true
			}
		}
	}
	return false
}

// mentions reports whether name occurs in src as a whole word: not inside a longer
// identifier (bytes of letters, digits, '_' or of a multi-byte character around it).
func mentions(src []byte, name string) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(name))
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		if (start == 0 || !isIdentByte(src[start-1])) && (end == len(src) || !isIdentByte(src[end])) {
			return true
		}
		i = start + 1
	}
}

// isIdentByte reports whether c may be part of a Go identifier: an ASCII letter, digit or
// '_', or any byte of a multi-byte UTF-8 character (which may be a letter).
func isIdentByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// declText prints a file parsed by parseDecls with the layout normalised; a file
// excluded from the build prints as nothing. ok is false when it cannot be printed.
func declText(f *ast.File) (text string, ok bool) {
	if f == nil {
		return "", true
	}
	var b bytes.Buffer
	// An empty file set: positions mean nothing to it, so only the syntax is printed.
	if err := printer.Fprint(&b, token.NewFileSet(), f); err != nil {
		return "", false
	}
	return b.String(), true
}
