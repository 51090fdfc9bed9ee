package typescript

import (
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// Conventions are "typescript" (camelCase values, PascalCase types and components) and
// snake_case, in which some JavaScript and TypeScript projects write their functions and
// variables (lang.NamingDetector: under the policy's "detect", the one most of the
// project's own names follow).
func (*Frontend) Conventions() []string { return []string{"typescript", "snake_case"} }

// namingSample and namingBytes bound what ProjectIdents reads: the convention is a
// majority, which a sample spread over the project settles as well as all of it, and a
// large project is not parsed whole on every diff (zod's 400 files cost a second).
const (
	namingSample = 100
	namingBytes  = 128 << 10
)

// ProjectIdents returns the identifiers declared by the repository's TypeScript and
// JavaScript sources that the change does not touch (in check mode, all of them), from
// at most namingSample files taken evenly over their sorted paths. Dependencies
// (node_modules), hidden directories, declaration files and minified bundles are not the
// project's style (lang.NamingDetector). Files over a quarter of namingBytes are skipped,
// and reading stops at namingBytes.
func (fe *Frontend) ProjectIdents(req *lang.Request) ([]lang.Ident, error) {
	fsys := req.Changes.HeadFS
	if fsys == nil {
		return nil, nil
	}
	var paths []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // an unreadable directory tells nothing about the style
		case d.IsDir():
			return skipDir(p, d.Name())
		case fe.ownSource(p) && (req.Changes.NoBase || req.Changes.File(p) == nil):
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []lang.Ident
	read := 0
	for _, p := range sample(paths, namingSample) {
		src, err := fs.ReadFile(fsys, p)
		if err != nil || len(src) > namingBytes/4 {
			continue // a large file is mostly one author's, or generated
		}
		if read += len(src); read > namingBytes {
			break
		}
		out = append(out, identsOf(p, src)...)
	}
	return out, nil
}

// identsOf returns the identifiers src declares, as Parse's File.Idents has them,
// without the rest of Parse's work.
func identsOf(p string, src []byte) []lang.Ident {
	tree, err := syntax.Parse(syntax.DialectOf(p), src)
	if err != nil {
		return nil
	}
	lf := &lang.File{Path: p, Language: "typescript"}
	newExtractor(tree, lf).idents()
	return lf.Idents
}

// skipDir skips dependencies and hidden directories in ProjectIdents' walk.
func skipDir(p, name string) error {
	if p != "." && (name == "node_modules" || strings.HasPrefix(name, ".")) {
		return fs.SkipDir
	}
	return nil
}

// ownSource reports whether p is a source of the project's own style: not a declaration
// file or a minified bundle.
func (fe *Frontend) ownSource(p string) bool {
	return fe.Match(p) && !syntax.IsDeclaration(p) && !strings.Contains(path.Base(p), ".min.")
}

// sample returns at most n of paths (sorted), evenly spread over them.
func sample(paths []string, n int) []string {
	slices.Sort(paths)
	if len(paths) <= n {
		return paths
	}
	out := make([]string, n)
	for i := range n {
		out[i] = paths[i*len(paths)/n]
	}
	return out
}
