package resolve

import (
	"bytes"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/agentverify/agentverify/change"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
)

// A diff whose changed files differ from their base only inside the bodies of
// functions that write out their return type cannot change what any other file sees
// of them: a function's type is its signature, and the declarations the compiler would
// emit for the module are the same. Then only the changed files' own diagnostics can
// differ from the base's, and they depend only on what the files import (followed by
// the compiler) and on the project's global declarations. So the compiler runs over
// those alone (the narrowed check) rather than over the whole project, and reports the
// changed files' errors only: every other file's are the base's, which the base view
// would have settled away. A diff that changes what its modules export narrows too, to
// the changed files and the unchanged ones the change reaches (exportnarrow.go,
// importers.go), whose errors count as well. Anything else (a file created, deleted or
// renamed, a re-export or a global declaration changed, JavaScript, whose types come
// from its bodies, an import the scan cannot follow) checks the whole project, callers
// included.

// narrowing decides, for a typed project group in diff mode, whether its check can
// narrow, and sets its roots (the project's files that declare globals) and, for a
// change of exports, the unchanged files it reaches (importers.go).
func (j *job) narrowing(g *group, content map[string][]byte) {
	if j.r.WholeProject || j.req.Changes.NoBase || g.config == nil || g.plain || g.dependent || len(g.refs) > 0 || len(g.weak) > 0 {
		return
	}
	body := true
	for _, t := range g.targets {
		body = body && bodyOnly(t.f, content[t.f.Path])
	}
	if !body {
		j.exportNarrowing(g, content)
		return
	}
	roots, ok := globalRoots(j.headFS(), g)
	if !ok {
		return
	}
	g.narrow, g.roots = true, roots
}

// bodyOnly reports whether head (the content the compiler checks for f) differs from
// f's base only inside bodies of functions with a written return type.
func bodyOnly(f *change.File, head []byte) bool {
	if f.Op != change.Modify || f.Base == nil || head == nil || syntax.IsJS(f.Path) || syntax.IsDeclaration(f.Path) {
		return false
	}
	b, okb := outline(f.Path, f.Base)
	h, okh := outline(f.Path, head)
	return okb && okh && b == h
}

// functionKinds are the tree-sitter kinds of functions with a body.
var functionKinds = map[string]bool{"function_declaration": true, "generator_function_declaration": true,
	"function_expression": true, "function": true, "generator_function": true, "arrow_function": true, "method_definition": true}

// outline is src with the body of every function that writes out its return type
// replaced by {}: what the module's importers can see of it. ok is false when the
// file does not parse cleanly.
func outline(p string, src []byte) (string, bool) {
	t, err := syntax.Parse(syntax.DialectOf(p), src)
	if err != nil || len(t.Errors) > 0 {
		return "", false
	}
	return string(src[:t.Root.Start]) + outlineOf(src, t.Root) + string(src[t.Root.End:]), true
}

// globalRoots lists the files of g's project that may declare something visible
// beyond their own module: scripts (no top-level import or export), and modules with
// `declare global`, `declare module` or a reference directive. ok is false when the
// project cannot be listed.
func globalRoots(fsys fs.FS, g *group) (roots []string, ok bool) {
	c := g.config
	js := c.Options.AllowJs != nil && *c.Options.AllowJs
	err := fs.WalkDir(fsys, c.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != c.Dir && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return fs.SkipDir
			}
			return nil
		}
		if !source(p, js) || !c.Includes(p) {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if global(data) {
			roots = append(roots, p)
		}
		return nil
	})
	return roots, err == nil
}

// source reports whether the compiler takes p for a source of the project.
func source(p string, js bool) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".ts", ".tsx", ".mts", ".cts":
		return true
	case ".js", ".jsx", ".mjs", ".cjs":
		return js
	}
	return false
}

var (
	// moduleLine is a line that makes a file a module: an import or export statement.
	moduleLine = regexp.MustCompile(`(?m)^[ \t]*(export\b|import[ \t]*[\w{*"'])`)
	// globalDecl declares beyond the module (a UMD global included), or brings in what
	// does.
	globalDecl = regexp.MustCompile(`declare\s+(global|module)\b|export\s+as\s+namespace\b|///\s*<reference`)
)

// global reports whether a source may declare globals; it errs on the side of yes.
func global(data []byte) bool {
	if !moduleLine.Match(data) {
		return true
	}
	// What globalDecl finds holds one of these words; most modules hold none.
	return (bytes.Contains(data, []byte("declare")) || bytes.Contains(data, []byte("namespace")) || bytes.Contains(data, []byte("reference"))) &&
		globalDecl.Match(data)
}

// unresolvedCodes are the compiler's errors for a module or a global name that is not
// found: "Cannot find module", "Cannot find name" and its variants that suggest a type
// package.
var unresolvedCodes = map[int]bool{2307: true, 2792: true, 2304: true, 2580: true, 2581: true, 2582: true,
	2583: true, 2584: true, 2591: true, 2592: true, 2593: true}

// resolutionKept reports whether the change leaves every unchanged file's module
// resolution and global names as the base has them: it only modifies, in place,
// TypeScript and JavaScript sources none of which declared globals at the base (a file
// created, deleted or renamed, a package.json or a tsconfig.json can move both). Then
// an unchanged file's "cannot find module" or "cannot find name" is the base's too, and
// the base view need not run to say so.
func (j *job) resolutionKept() bool {
	if j.r.WholeProject || j.req.Changes.NoBase {
		return false
	}
	for _, f := range j.req.Changes.Files {
		if f.Op != change.Modify || f.Base == nil || !source(f.Path, true) || global(f.Base) {
			return false
		}
	}
	return true
}
