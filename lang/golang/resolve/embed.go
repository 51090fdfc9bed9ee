package resolve

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"golang.org/x/mod/module"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
)

// BuildError is the kind of what the go command or the compiler rejects though go/types
// accepts it: //go:embed patterns and directives, //go:build lines, import cycles, two
// package names in a directory.
const BuildError lang.Kind = "build-error"

// embeds checks the //go:embed directives of pkg as the go command (its patterns against
// the head tree) and the compiler (the variables they apply to) do. go list checks the
// patterns too, but not on every path here (the warm path runs no go list): this check
// gives the same message at the same place, so the two make one finding.
func (c *converter) embeds(pkg *load.Package) {
	for _, f := range pkg.Syntax {
		name := c.res.Fset.Position(f.Package).Filename
		file := c.rel(name)
		if file == "" || !hasEmbed(f) {
			continue
		}
		vars := embedTargets(f)
		for _, cg := range f.Comments {
			for _, cm := range cg.List {
				if text, ok := embedDirective(cm.Text); ok {
					c.embed(pkg, f, file, cm, text, vars[cm])
				}
			}
		}
	}
}

// hasEmbed reports whether a comment of f is a //go:embed directive.
func hasEmbed(f *ast.File) bool {
	for _, cg := range f.Comments {
		for _, cm := range cg.List {
			if _, ok := embedDirective(cm.Text); ok {
				return true
			}
		}
	}
	return false
}

// embedDirective returns the arguments of a //go:embed comment.
func embedDirective(text string) (string, bool) {
	rest, ok := strings.CutPrefix(text, "//go:embed")
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", false
	}
	return rest, true
}

// embedTarget is what a //go:embed directive applies to: the var spec of the next
// declaration, as the compiler decides; misplaced when the next declaration is no var.
type embedTarget struct {
	spec      *ast.ValueSpec
	inFunc    bool
	misplaced bool
	unknown   bool // a parenthesised var block follows: not judged
}

// embedTargets maps the directives of f to what they apply to.
func embedTargets(f *ast.File) map[*ast.Comment]embedTarget {
	out := map[*ast.Comment]embedTarget{}
	for _, cg := range f.Comments {
		for _, cm := range cg.List {
			if _, ok := embedDirective(cm.Text); ok {
				out[cm] = targetOf(f, cm.Pos())
			}
		}
	}
	return out
}

// targetOf returns what a directive at pos applies to.
func targetOf(f *ast.File, pos token.Pos) embedTarget {
	for _, d := range f.Decls {
		if d.End() < pos {
			continue
		}
		if d.Pos() < pos { // the directive is inside d
			return insideDecl(d, pos)
		}
		gd, ok := d.(*ast.GenDecl)
		switch {
		case !ok || gd.Tok != token.VAR:
			return embedTarget{misplaced: true}
		case gd.Lparen.IsValid():
			return embedTarget{unknown: true}
		}
		return embedTarget{spec: gd.Specs[0].(*ast.ValueSpec)}
	}
	return embedTarget{misplaced: true}
}

// insideDecl returns what a directive inside declaration d applies to: the next spec
// of a var block, or a var inside a function.
func insideDecl(d ast.Decl, pos token.Pos) embedTarget {
	switch d := d.(type) {
	case *ast.GenDecl:
		for _, s := range d.Specs {
			if s.Pos() > pos {
				if vs, ok := s.(*ast.ValueSpec); ok && d.Tok == token.VAR {
					return embedTarget{spec: vs}
				}
				break
			}
		}
		return embedTarget{misplaced: true}
	case *ast.FuncDecl:
		var next ast.Stmt // the first statement after the directive
		ast.Inspect(d, func(n ast.Node) bool {
			if st, ok := n.(ast.Stmt); ok && st.Pos() > pos && (next == nil || st.Pos() < next.Pos()) {
				next = st
			}
			return true
		})
		if ds, ok := next.(*ast.DeclStmt); ok {
			if gd, ok := ds.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				return embedTarget{inFunc: true}
			}
		}
	}
	return embedTarget{misplaced: true}
}

// embed checks one directive.
func (c *converter) embed(pkg *load.Package, f *ast.File, file string, cm *ast.Comment, args string, target embedTarget) {
	at := func(offset int, msg string) {
		pos := c.res.Fset.Position(cm.Pos() + token.Pos(offset))
		c.add(lang.Problem{Kind: BuildError, Location: lang.Location{File: file, Line: pos.Line, Column: pos.Column}, Message: msg, Symbol: file})
	}
	patterns, err := embedPatterns(args)
	start := len("//go:embed")
	switch {
	case err != nil:
		at(0, err.Error())
		return
	case len(patterns) == 0:
		at(0, "usage: //go:embed pattern...")
		return
	case !importsEmbed(f):
		at(2, `go:embed requires import "embed" (or import _ "embed", if package is not used)`)
		return
	}
	if msg := targetError(pkg, target); msg != "" {
		at(2, msg) // the compiler's position: the directive's name
	}
	files := 0
	for _, p := range patterns {
		n, msg := c.embedPattern(path.Dir(file), p.text)
		files += n
		if msg != "" {
			at(start+p.offset, msg)
		}
	}
	if files > 1 && target.spec != nil {
		if t := embedVarType(pkg, target.spec); t != nil && !isEmbedFS(t) {
			at(2, fmt.Sprintf("invalid go:embed: multiple files for type %s", types.TypeString(t, nil)))
		}
	}
}

// targetError says what the compiler rejects about the variable a directive applies to.
func targetError(pkg *load.Package, t embedTarget) string {
	switch {
	case t.misplaced:
		return "misplaced go:embed directive"
	case t.inFunc:
		return "go:embed cannot apply to var inside func"
	case t.spec == nil:
		return ""
	case len(t.spec.Names) > 1:
		return "go:embed cannot apply to multiple vars"
	case len(t.spec.Values) > 0:
		return "go:embed cannot apply to var with initializer"
	case t.spec.Type == nil:
		return "go:embed cannot apply to var without type"
	}
	if typ := embedVarType(pkg, t.spec); typ != nil && !isEmbedFS(typ) && !isStringOrBytes(typ) {
		return fmt.Sprintf("go:embed cannot apply to var of type %s", types.TypeString(typ, func(p *types.Package) string { return p.Name() }))
	}
	return ""
}

func embedVarType(pkg *load.Package, spec *ast.ValueSpec) types.Type {
	if pkg.Info == nil || len(spec.Names) == 0 {
		return nil
	}
	if obj := pkg.Info.Defs[spec.Names[0]]; obj != nil {
		return obj.Type()
	}
	return nil
}

func isEmbedFS(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "embed" && n.Obj().Name() == "FS"
}

func isStringOrBytes(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.String
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

func importsEmbed(f *ast.File) bool {
	for _, im := range f.Imports {
		if im.Path.Value == `"embed"` {
			return true
		}
	}
	return false
}

// embedArg is one pattern of a directive and its byte offset after "//go:embed".
type embedArg struct {
	text   string
	offset int
}

// embedPatterns splits a directive's arguments as the compiler does: space-separated,
// Go string syntax allowed ("a b.txt", `c`).
func embedPatterns(args string) ([]embedArg, error) {
	var out []embedArg
	for i := 0; i < len(args); {
		if args[i] == ' ' || args[i] == '\t' {
			i++
			continue
		}
		start := i
		var text string
		switch args[i] {
		case '"', '`':
			end := closingQuote(args, i)
			if end < 0 {
				return nil, fmt.Errorf("invalid quoted string in //go:embed: %s", args[i:])
			}
			q, err := strconv.Unquote(args[i : end+1])
			if err != nil {
				return nil, fmt.Errorf("invalid quoted string in //go:embed: %s", args[i:end+1])
			}
			text, i = q, end+1
		default:
			end := strings.IndexAny(args[i:], " \t")
			if end < 0 {
				end = len(args) - i
			}
			text, i = args[i:i+end], i+end
		}
		out = append(out, embedArg{text: text, offset: start})
	}
	return out, nil
}

// closingQuote returns the index of the quote closing the string that starts at i, or -1.
func closingQuote(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch {
		case s[j] == s[i]:
			return j
		case s[j] == '\\' && s[i] == '"':
			j++
		}
	}
	return -1
}

// embedPattern matches pattern against the head tree in the package directory dir as
// the go command does, and returns the number of files it embeds, or the go command's
// message when it rejects it.
func (c *converter) embedPattern(dir, pattern string) (int, string) {
	head := c.pass.Changes.HeadFS
	if head == nil {
		return 0, ""
	}
	glob, all := strings.CutPrefix(pattern, "all:")
	fail := func(msg string) (int, string) { return 0, "pattern " + pattern + ": " + msg }
	if _, err := path.Match(glob, ""); err != nil || glob == "." || !fs.ValidPath(glob) {
		return fail("invalid pattern syntax")
	}
	matches, err := fs.Glob(head, path.Join(globQuote(dir), glob))
	if err != nil {
		return fail("invalid pattern syntax")
	}
	files := 0
	for _, m := range matches {
		rel := strings.TrimPrefix(m, dir+"/")
		if dir == "." {
			rel = m
		}
		n, msg := embedMatch(head, dir, m, rel, all)
		if msg != "" {
			return fail(msg)
		}
		files += n
	}
	if len(matches) == 0 {
		return fail("no matching files found")
	}
	return files, ""
}

// embedMatch checks one match of a pattern and counts the files it embeds.
func embedMatch(head fs.FS, dir, match, rel string, all bool) (int, string) {
	info, err := fs.Stat(head, match)
	if err != nil {
		return 0, ""
	}
	what := "file"
	if info.IsDir() {
		what = "directory"
	}
	if msg := embedPath(head, dir, match, info.IsDir()); msg != "" {
		return 0, fmt.Sprintf("cannot embed %s %s: %s", what, rel, msg)
	}
	switch {
	case info.Mode().IsRegular():
		return 1, ""
	case !info.IsDir():
		return 0, "cannot embed irregular file " + rel
	}
	if n := embeddable(head, match, all); n > 0 {
		return n, ""
	}
	return 0, fmt.Sprintf("cannot embed directory %s: contains no embeddable files", rel)
}

// embedPath says why the go command refuses to embed match, a path under the package
// directory dir: a directory on the way (or match itself, a directory) starts another
// module, or has a name no module holds.
func embedPath(head fs.FS, dir, match string, isDir bool) string {
	for d := match; d != dir && d != "." && d != "/"; d = path.Dir(d) {
		if d != match || isDir {
			if _, err := fs.Stat(head, path.Join(d, "go.mod")); err == nil {
				return "in different module"
			}
		}
		if elem := path.Base(d); badEmbedName(elem) {
			if d == match {
				return "invalid name " + elem
			}
			return "in invalid directory " + elem
		}
	}
	return ""
}

// embeddable counts the files a directory pattern embeds: regular files, not in
// another module, their names not starting with . or _ unless all.
func embeddable(head fs.FS, root string, all bool) int {
	n := 0
	_ = fs.WalkDir(head, root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case p != root && skippedEmbed(d.Name(), all):
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		case d.IsDir():
			if _, err := fs.Stat(head, path.Join(p, "go.mod")); err == nil && p != root {
				return fs.SkipDir
			}
		case d.Type().IsRegular():
			n++
		}
		return nil
	})
	return n
}

// skippedEmbed reports whether a directory walk of an embed pattern skips a name.
func skippedEmbed(name string, all bool) bool {
	return badEmbedName(name) || (name[0] == '.' || name[0] == '_') && !all
}

// badEmbedName reports a name that no module holds, which the go command does not embed.
func badEmbedName(name string) bool {
	if module.CheckFilePath(name) != nil {
		return true
	}
	switch name {
	case "", ".bzr", ".hg", ".git", ".svn":
		return true
	}
	return false
}

// globQuote escapes the glob metacharacters of a directory name.
func globQuote(dir string) string {
	var b strings.Builder
	for _, r := range dir {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
