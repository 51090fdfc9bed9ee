package extract

import (
	"path"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/python/syntax"
)

// File extracts what the dimensions need from the Python file at p, whose source src
// parses to root: its declarations with their metrics, identifiers, comments, syntax
// errors, code lines and skipped tests.
func File(p string, src []byte, root *syntax.Node) *lang.File {
	lf := &lang.File{Path: p, Language: "python", Package: moduleName(p), Lines: lang.SplitLines(src),
		Test: syntax.RoleOf(p) != syntax.Source, DocTerm: "docstring"}
	x := newExtractor(p, src, lf)
	x.scan(root)
	x.module(root)
	x.idents(root)
	x.skips(root)
	return lf
}

// moduleName is the last component of the file's dotted module name: the file name
// without its extension, or the directory's name for a package's __init__.py.
func moduleName(p string) string {
	base := path.Base(p)
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".pyi"), ".py")
	if base == "__init__" {
		if dir := path.Base(path.Dir(p)); dir != "." && dir != "/" {
			return dir
		}
	}
	return base
}
