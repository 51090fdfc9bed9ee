package resolve

import (
	"fmt"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lazyregexp"
)

var (
	reImportCycle   = lazyregexp.New(`^import cycle not allowed.*import stack: \[(.*)\]`)
	reFoundPackages = lazyregexp.New(`^found packages (\S+) \((\S+)\) and (\S+) \((\S+)\) in (.+)$`)
	reBuildLine     = lazyregexp.New(`^(\S+\.go): (parsing //go:build line: .*|multiple //go:build comments)$`)
	reEmbedPattern  = lazyregexp.New(`^pattern .*: (no matching files found|invalid pattern syntax|cannot embed .*)$`)
)

// packageBuildError reports a go list error about pkg as a whole at the place in a file
// that causes it, and reports whether it did: an import cycle at the import that closes
// it, two package names at the package clause of the second file, a malformed //go:build
// line at that line.
func (c *converter) packageBuildError(pkg *load.Package, e load.Error) bool {
	msg := oneLine(e.Msg)
	if m := reImportCycle.FindStringSubmatch(msg); m != nil {
		return c.importCycle(pkg, strings.Fields(m[1]))
	}
	if m := reFoundPackages.FindStringSubmatch(msg); m != nil {
		dir := m[5]
		rel := c.rel(dir)
		if rel == "" {
			return false
		}
		file := path.Join(rel, m[4])
		msg := fmt.Sprintf("found packages %s (%s) and %s (%s) in %s", m[1], m[2], m[3], m[4], rel)
		line, col := c.packageClause(filepath.Join(dir, m[4]))
		c.add(lang.Problem{Kind: BuildError, Location: lang.Location{File: file, Line: line, Column: col}, Message: msg, Symbol: rel})
		return true
	}
	if m := reBuildLine.FindStringSubmatch(msg); m != nil {
		abs := m[1]
		switch {
		case filepath.IsAbs(abs):
		case filepath.Base(e.Pos.Filename) == abs:
			abs = e.Pos.Filename
		default:
			abs = filepath.Join(c.pkgDir(pkg), abs)
		}
		file := c.rel(abs)
		if file == "" {
			return false
		}
		src, _ := c.readHead(abs)
		line := badBuildLine(src, strings.HasPrefix(m[2], "multiple"))
		c.add(lang.Problem{Kind: BuildError, Location: lang.Location{File: file, Line: line, Column: 1}, Message: m[2], Symbol: file})
		return true
	}
	return false
}

// pkgDir returns the absolute directory of pkg: that of its files, or for a package
// left without files, the one its path names in the module.
func (c *converter) pkgDir(pkg *load.Package) string {
	if len(pkg.Files) > 0 {
		return filepath.Dir(pkg.Files[0])
	}
	mod := c.res.Module
	rel, ok := strings.CutPrefix(pkg.PkgPath, mod.Path)
	if mod.Path == "" || !ok || rel != "" && rel[0] != '/' {
		return mod.Dir
	}
	return filepath.Join(mod.Dir, filepath.FromSlash(rel))
}

// badBuildLine returns the line of the header's second //go:build comment (second), or
// of the first that does not parse, or 1.
func badBuildLine(src []byte, second bool) int {
	seen := 0
	for i, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			break
		}
		if !constraint.IsGoBuild(line) {
			continue
		}
		seen++
		if _, err := constraint.Parse(line); second && seen == 2 || !second && err != nil {
			return i + 1
		}
	}
	return 1
}

// importCycle reports a cycle of the import stack at pkg's import of the next package,
// and marks that import so that the type checker's "could not import" is not reported
// again.
func (c *converter) importCycle(pkg *load.Package, stack []string) bool {
	for i := 0; i+1 < len(stack); i++ {
		if stack[i] != pkg.PkgPath {
			continue
		}
		for j, f := range pkg.Syntax {
			file := c.rel(pkg.Files[j])
			for _, spec := range f.Imports {
				if p, _ := strconv.Unquote(spec.Path.Value); p != stack[i+1] || file == "" {
					continue
				}
				pos := c.res.Fset.Position(spec.Path.Pos())
				c.importAt[posKey(pos)] = true
				c.add(lang.Problem{Kind: BuildError,
					Location: lang.Location{File: file, Line: pos.Line, Column: pos.Column, EndLine: pos.Line, EndColumn: pos.Column + len(spec.Path.Value)},
					Message:  "import cycle not allowed: " + strings.Join(stack[i:], " imports "),
					Symbol:   pkg.PkgPath})
				return true
			}
		}
	}
	return false
}

// packageClause returns the position of the package name of a file of the head tree.
func (c *converter) packageClause(abs string) (line, col int) {
	src, err := c.readHead(abs)
	if err != nil {
		return 1, 0
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, abs, src, parser.PackageClauseOnly)
	if err != nil || f.Name == nil {
		return 1, 0
	}
	p := fset.Position(f.Name.Pos())
	return p.Line, p.Column
}

// buildLines reports the //go:build lines of pkg's files that do not parse, and files
// with more than one, as go/build does: go list reports them too, but not on every path
// here (the warm path runs no go list), with the same message at the same place.
func (c *converter) buildLines(pkg *load.Package) {
	for _, f := range pkg.Syntax {
		file := c.rel(c.res.Fset.Position(f.Package).Filename)
		if file == "" {
			continue
		}
		seen := 0
		for _, cg := range f.Comments {
			if cg.Pos() > f.Package {
				break
			}
			for _, cm := range cg.List {
				if !constraint.IsGoBuild(cm.Text) {
					continue
				}
				pos := c.res.Fset.Position(cm.Pos())
				loc := lang.Location{File: file, Line: pos.Line, Column: pos.Column}
				if seen++; seen == 2 {
					c.add(lang.Problem{Kind: BuildError, Location: loc, Message: "multiple //go:build comments", Symbol: file})
				}
				if _, err := constraint.Parse(cm.Text); err != nil {
					c.add(lang.Problem{Kind: BuildError, Location: loc, Message: "parsing //go:build line: " + err.Error(), Symbol: file})
				}
			}
		}
	}
}

// foundPackages reports whether go list found two package names in pkg's directory:
// go/types' "package x; expected package y" then repeats it.
func foundPackages(pkg *load.Package) bool {
	for _, e := range pkg.Errors {
		if e.Kind == load.ListError && reFoundPackages.MatchString(oneLine(e.Msg)) {
			return true
		}
	}
	return false
}

// buildAdvices say what to do about the go command's and the compiler's rejections.
var buildAdvices = []struct{ contains, advice string }{
	{"no matching files found", "add the file the pattern names, or correct the pattern: it is relative to the package's directory"},
	{"contains no embeddable files", "add files to the directory (names starting with . or _ count only with the all: prefix)"},
	{"invalid pattern syntax", "write the pattern as a slash-separated path relative to the package's directory, without . or .. elements"},
	{"in different module", "embed only files of the package's own module"},
	{`requires import "embed"`, `import "embed" (or import _ "embed") in the file`},
	{"go:embed cannot apply to var of type", "embed into a string, a []byte or an embed.FS"},
	{"multiple files for type", "embed several files into an embed.FS, or name one file"},
	{"go:embed cannot apply", "put the directive right above a package-level var declaration with a type and no value"},
	{"misplaced go:embed directive", "put the directive right above the var declaration it fills"},
	{"import cycle not allowed", "break the cycle: move what both packages need into a third package, or invert one dependency"},
	{"found packages", "use one package name for every non-test file of the directory"},
	{"//go:build", "write one //go:build line with a complete boolean expression of build tags"},
}

// buildAdvice returns the advice for a build error, or "".
func buildAdvice(msg string) string {
	for _, a := range buildAdvices {
		if strings.Contains(msg, a.contains) {
			return a.advice
		}
	}
	return ""
}

// isBuildListError reports a go list error with a position that is the go command's
// verdict rather than the type checker's: an embed pattern.
func isBuildListError(msg string) bool {
	return reEmbedPattern.MatchString(msg)
}
