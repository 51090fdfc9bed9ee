package api

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"github.com/agentverify/agentverify/lang"
)

// pair is one package on both sides, sharing a file set.
type pair struct {
	fset       *token.FileSet
	base, head *checked
}

// subject splits apidiff's name for what changed ("T", "(*T).M", "T[P].M", "S.F",
// "io.Reader.Read, method set of *S") into the package-level name it belongs to and the
// member (field or method) name, if any.
func subject(s string) (name, member string) {
	s, extra, _ := strings.Cut(stripTypeArgs(s), ", ")
	if strings.HasPrefix(s, "(") {
		if i := strings.Index(s, ")"); i > 0 {
			name, member = strings.TrimPrefix(s[1:i], "*"), strings.TrimPrefix(s[i+1:], ".")
		}
	} else {
		name, member, _ = strings.Cut(s, ".")
	}
	if owner, ok := strings.CutPrefix(extra, "method set of "); ok {
		// A method promoted from an embedded type, possibly of another package: the
		// method set's owner is the declaration of this package.
		name, member = strings.TrimPrefix(owner, "*"), s[strings.LastIndex(s, ".")+1:]
	}
	return name, member
}

// stripTypeArgs removes bracketed type arguments: "(*G[T]).M" → "(*G).M".
func stripTypeArgs(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lookup finds name (and its member) in pkg; nil when it is not there or is declared in
// another package (a promoted member: its position is in another file set).
func lookup(pkg *types.Package, name, member string) types.Object {
	if pkg == nil {
		return nil
	}
	obj := pkg.Scope().Lookup(name)
	if obj == nil || member == "" {
		return obj
	}
	if _, ok := obj.(*types.TypeName); !ok {
		return nil
	}
	m, _, _ := types.LookupFieldOrMethod(obj.Type(), true, pkg, member)
	if m == nil || m.Pkg() != pkg {
		return nil
	}
	return m
}

// findMember returns the first field or method named member of a type of pkg, in the
// order of the package's names, or nil.
func findMember(pkg *types.Package, member string) types.Object {
	for _, n := range pkg.Scope().Names() {
		if obj := lookup(pkg, n, member); obj != nil {
			return obj
		}
	}
	return nil
}

// place fills the head and base places of a change to the subject s, and the name
// callers use.
func (p *pair) place(c *lang.APIChange, s string) {
	name, member := subject(s)
	c.Name = name
	if member != "" {
		c.Name = member
	}
	bobj := lookup(p.base.pkg, name, member)
	if bobj == nil && member != "" {
		bobj = lookup(p.base.pkg, name, "")
	}
	if bobj != nil {
		c.Base = p.at(bobj.Pos())
	}
	hobj := lookup(p.head.pkg, name, member)
	if hobj == nil && member != "" && !c.Removed {
		// The member's type was renamed (an unexported type, matched by structure):
		// the member as some type of the package has it now.
		hobj = findMember(p.head.pkg, member)
	}
	if hobj == nil && member != "" {
		hobj = lookup(p.head.pkg, name, "") // a removed member: at its type
	}
	if hobj != nil {
		c.Head = p.at(hobj.Pos())
		return
	}
	c.Head = p.packageClause(c.Base.File)
}

func (p *pair) at(pos token.Pos) lang.Place {
	at := p.fset.Position(pos)
	return lang.Place{File: at.Filename, Pos: lang.Pos{Line: at.Line, Column: at.Column}}
}

// packageClause is the package clause of the head file named file, or of the first head
// file of the package when that file is gone.
func (p *pair) packageClause(file string) lang.Place {
	var clause *ast.File
	for _, f := range p.head.files {
		if clause == nil || p.fset.File(f.Pos()).Name() == file {
			clause = f
		}
	}
	if clause == nil {
		return lang.Place{File: file, Pos: lang.Pos{Line: 1, Column: 1}}
	}
	return p.at(clause.Package)
}

// renamedTo returns a head declaration the base lacks, of the same kind and type as the
// removed base object name: the likely new name.
func (p *pair) renamedTo(name string) string {
	old := p.base.pkg.Scope().Lookup(name)
	if old == nil {
		return ""
	}
	oldType := types.TypeString(old.Type(), types.RelativeTo(p.base.pkg))
	for _, n := range p.head.pkg.Scope().Names() {
		obj := p.head.pkg.Scope().Lookup(n)
		if !obj.Exported() || p.base.pkg.Scope().Lookup(n) != nil || reflect.TypeOf(obj) != reflect.TypeOf(old) {
			continue
		}
		if types.TypeString(obj.Type(), types.RelativeTo(p.head.pkg)) == oldType {
			return n
		}
	}
	return ""
}
