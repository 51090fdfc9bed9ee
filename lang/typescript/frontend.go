package typescript

import (
	"fmt"
	"path"
	"strings"

	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/typescript/api"
	"github.com/agentverify/agentverify/lang/typescript/resolve"
	"github.com/agentverify/agentverify/lang/typescript/syntax"
	"github.com/agentverify/agentverify/lang/typescript/tsc"
)

// Frontend is the TypeScript and JavaScript frontend of the lang contract.
type Frontend struct {
	// servers, when set, keeps TypeScript 7 language servers running between
	// verifications (NewWarm); nil runs the compiler in batch mode.
	servers *tsc.Servers
}

// New returns the TypeScript frontend; each verification runs the compiler in batch.
func New() *Frontend { return &Frontend{} }

// NewWarm returns the TypeScript frontend for a long-lived process: edits of a working
// tree are checked by the language servers s keeps running.
func NewWarm(s *tsc.Servers) *Frontend { return &Frontend{servers: s} }

// CompareAPI reports the incompatible changes to the exports of the change's modules
// (lang.APIComparer; see the api package).
func (fe *Frontend) CompareAPI(req *lang.Request) ([]lang.APIChange, error) {
	return api.Compare(req, fe.Match)
}

// BrokenUses returns nothing: a caller a change breaks in an unchanged file is an error
// of the compiler, which the resolver reports at the caller (it checks the whole
// project in diff mode).
func (fe *Frontend) BrokenUses(*lang.Request, []lang.APIChange) ([]lang.BrokenUse, error) {
	return nil, nil
}

// Resolve checks what the change's TypeScript and JavaScript files refer to
// (lang.Resolver; see the resolve package).
func (fe *Frontend) Resolve(req *lang.Request) ([]lang.Problem, error) {
	return resolve.Resolver{Match: fe.Match, Servers: fe.servers}.Resolve(req)
}

// ConfigWeakenings reports what the change's tsconfig.json files loosen against the
// base's (lang.ConfigGuard; the resolver checks with the base's options anyway).
func (fe *Frontend) ConfigWeakenings(req *lang.Request) ([]lang.Problem, error) {
	return resolve.Weakenings(req), nil
}

// Name is "typescript".
func (*Frontend) Name() string { return "typescript" }

// Match handles .ts .tsx .mts .cts .js .jsx .mjs .cjs (declaration files included).
func (*Frontend) Match(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	for _, e := range syntax.Extensions {
		if ext == e {
			return true
		}
	}
	return false
}

// Naming is "typescript": camelCase values and functions, PascalCase types and
// components, UPPER_CASE constants allowed.
func (*Frontend) Naming() string { return "typescript" }

// Parse parses src as the file at p. Syntax errors go to File.SyntaxErrors, all of them,
// with whatever tree-sitter recovered around them.
func (fe *Frontend) Parse(p string, src []byte) (*lang.File, error) {
	tree, err := syntax.Parse(syntax.DialectOf(p), src)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", p, err)
	}
	lf := &lang.File{Path: p, Language: "typescript", Package: strings.TrimSuffix(p, path.Ext(p)), Lines: lang.SplitLines(src),
		Test: isTestFile(p), DocTerm: "JSDoc comment", Syntax: tree}
	for _, e := range tree.Errors {
		lf.SyntaxErrors = append(lf.SyntaxErrors, lang.SyntaxError{Pos: e.Pos, Message: e.Message})
	}
	x := newExtractor(tree, lf)
	x.comments()
	x.topLevel(tree.Root, "", true)
	x.markExported()
	x.functions()
	x.idents()
	x.tests()
	return lf, nil
}
