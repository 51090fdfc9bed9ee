package resolve

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentverify/agentverify/crash"
	"github.com/agentverify/agentverify/lang"
	"github.com/agentverify/agentverify/lang/golang/load"
	"github.com/agentverify/agentverify/lang/golang/vet"
	"github.com/agentverify/agentverify/lazyregexp"
)

// converter turns the errors of a load into findings.
type converter struct {
	pass  *lang.Request
	res   *load.Result
	unit  *unit
	roots []string // the repository root, and its real path when it differs
	seen  map[string]bool
	out   []lang.Problem
	// importAt marks positions ("file:line:col") of imports reported by an import rule, so
	// the type checker's "could not import" at the same place is not reported twice.
	importAt map[string]bool
	// syntaxSeen marks the positions ("file:line:col") whose first syntax error is
	// reported.
	syntaxSeen map[string]bool
	// broken marks the files with syntax errors: a type error without a position in their
	// package is an echo of a syntax error (go/types positions every error it finds in a
	// well-formed tree).
	broken map[string]bool
	// last is the index in out of the finding of the last type error, or -1 when that
	// error was not reported; go/types' continuation lines ("\tother declaration of x")
	// fold into it.
	last int
	// only, when set, keeps the findings in these files (a check under another build
	// configuration, for the files the host build excludes); note is added to their
	// messages.
	only map[string]bool
	note string
	// release, when set, is the older release (go1.N) the packages were built as: their
	// files use no API newer than it, whatever the go line (toonew.go).
	release int
	// port is set for a check under another GOOS or GOARCH than the host's.
	port bool
	// hostRead holds, for a check under another configuration, the (absolute) directories
	// whose packages the host check loaded: its go vet read the text of all their files,
	// those the host build leaves out too (vet.go, textAnalyzers).
	hostRead map[string]bool
	// mod is the checked module's go.mod, read on first use (modRead).
	mod     *modInfo
	modRead bool
	// modPkgs lists the packages of the module and its direct requirements, on first use.
	modPkgs []string
	// setup is set when an import could not be verified here (a module missing from the
	// module cache or the vendor directory): the verification fails with it, exit 2.
	setup error
	// facts carries go vet's facts between the packages of the load (vet.go); tooNewAt
	// marks the positions ("file:line:col") tooNew reported, which stdversion repeats.
	facts    *vet.Facts
	tooNewAt map[string]bool
	// notes caches the deprecation notes of the files declaring what the code uses, by
	// file and line (deprecated.go).
	notes map[string]map[int]string
	// err is the first error of an analysis (a vet analyzer that failed): the load's
	// findings are then not complete, and the check fails.
	err error
}

func newConverter(p *lang.Request, res *load.Result, u *unit) *converter {
	roots := []string{p.Changes.Root}
	if real, err := filepath.EvalSymlinks(p.Changes.Root); err == nil && real != p.Changes.Root {
		roots = append(roots, real)
	}
	return &converter{pass: p, res: res, unit: u, roots: roots, seen: map[string]bool{}, importAt: map[string]bool{}, syntaxSeen: map[string]bool{}, broken: map[string]bool{}, last: -1,
		facts: vet.NewFacts(), tooNewAt: map[string]bool{}, notes: map[string]map[int]string{}}
}

// rel returns the repository-relative path of an absolute file name, or "" when the file
// is outside the repository (the Go build cache, the module cache).
func (c *converter) rel(abs string) string {
	for _, r := range c.roots {
		if rel, err := filepath.Rel(r, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return ""
}

func (c *converter) add(f lang.Problem) {
	if f.Kind == BuildError && f.Suggestion == "" {
		f.Suggestion = buildAdvice(f.Message)
	}
	k := fmt.Sprintf("%s:%d:%d:%s:%s", f.Location.File, f.Location.Line, f.Location.Column, f.Kind, f.Message)
	c.last = -1
	if c.only != nil && !c.only[f.Location.File] {
		return
	}
	if c.note != "" {
		f.Message += " (" + c.note + ")"
	}
	if !c.seen[k] {
		c.seen[k] = true
		c.last = len(c.out)
		c.out = append(c.out, f)
	}
}

// fold appends a continuation of the previous type error ("\tother declaration of x"),
// with its position, to that error's finding.
func (c *converter) fold(e load.Error) {
	if c.last < 0 {
		return
	}
	f := &c.out[c.last]
	where := ""
	if file := c.rel(e.Pos.Filename); file != "" {
		where = fmt.Sprintf(" at %s:%d:%d", file, e.Pos.Line, e.Pos.Column)
	}
	f.Message += fmt.Sprintf(" (%s%s)", strings.TrimSpace(e.Msg), where)
}

// findings converts the errors of every package of the load. The error is c.setup.
func (c *converter) findings() ([]lang.Problem, error) {
	for _, pkg := range c.res.Packages {
		c.imports(pkg)
	}
	// A package whose test variant is here too has its uses judged there (the same
	// files, the same types); its own type errors are its own.
	shadowed := testShadowed(c.res.Packages)
	// The analyzers run beside the passes below (both only read the packages); their
	// diagnostics are converted after them, which decide what vet repeats (tooNewAt).
	order := dependencyOrder(c.res.Packages)
	diags := make([][]vet.Diagnostic, len(order))
	var vetErr error
	var g crash.Group
	g.Go(func() {
		for i, pkg := range order {
			if shadowed[pkg] && !importedWithin(pkg, c.res.Packages) {
				continue
			}
			if diags[i], vetErr = c.vetDiagnostics(pkg, shadowed[pkg]); vetErr != nil {
				return
			}
		}
	})
	for _, pkg := range c.res.Packages {
		for _, e := range pkg.Errors {
			c.loadError(pkg, e)
		}
		c.blankName(pkg)
		c.embeds(pkg)
		c.buildLines(pkg)
		if !shadowed[pkg] {
			c.tooNew(pkg)
			c.deprecated(pkg)
		}
	}
	if err := g.Wait(); err != nil {
		panic(err) // an analyzer's panic: the engine reports where it happened
	}
	for i, pkg := range order {
		c.addVet(pkg, diags[i])
	}
	return c.out, cmp.Or(c.setup, vetErr)
}

// pkg converts the errors of one package, for a load that streams its packages: its
// imports first, as findings does for all of them, so that a type error at an import
// reported already is not reported twice.
func (c *converter) pkg(pkg *load.Package) {
	c.imports(pkg)
	for _, e := range pkg.Errors {
		c.loadError(pkg, e)
	}
	c.blankName(pkg)
	c.tooNew(pkg)
	c.embeds(pkg)
	c.buildLines(pkg)
	c.deprecated(pkg)
	c.vet(pkg, false)
}

// imports reports the import specs that resolve to no package.
func (c *converter) imports(pkg *load.Package) {
	for i, f := range pkg.Syntax {
		file := c.rel(pkg.Files[i])
		if file == "" {
			continue
		}
		for _, spec := range f.Imports {
			ipath, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				continue
			}
			im := pkg.Imports[ipath]
			if im == nil || len(im.Errors) == 0 {
				continue
			}
			pos := c.res.Fset.Position(spec.Path.Pos())
			c.importAt[posKey(pos)] = true
			rule, msg, sugg, young := c.classifyImport(ipath, im.Errors[0].Msg)
			loc := lang.Location{File: file, Line: pos.Line, Column: pos.Column, EndLine: pos.Line, EndColumn: pos.Column + len(spec.Path.Value)}
			if rule != "" {
				c.add(lang.Problem{Suggestion: sugg, Kind: rule, Location: loc, Message: msg, Symbol: ipath})
			}
			if young != nil {
				young.Location, young.Introduced = loc, false
				c.add(*young)
			}
		}
	}
}

func posKey(p token.Position) string { return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column) }

// loadError reports one list, parse or type error.
func (c *converter) loadError(pkg *load.Package, e load.Error) {
	if e.Kind == load.TypeError && strings.HasPrefix(e.Msg, "\t") {
		c.fold(e)
		return
	}
	c.last = -1
	file := c.rel(e.Pos.Filename)
	if e.Pos.Filename == "" || file == "" {
		if !(e.Kind == load.TypeError && !e.Pos.IsValid() && c.hasBroken(pkg)) {
			c.packageError(pkg, e)
		}
		return
	}
	loc := lang.Location{File: file, Line: max(e.Pos.Line, 1), Column: e.Pos.Column}
	switch e.Kind {
	case load.ParseError:
		c.syntaxError(file, loc, e)
	case load.ListError:
		if c.packageBuildError(pkg, e) {
			return
		}
		kind := lang.TypeError
		if isBuildListError(e.Msg) {
			kind = BuildError
		}
		c.add(lang.Problem{Kind: kind, Location: loc, Message: oneLine(sanitize(c.relMsg(e.Msg))), Symbol: file})
	default:
		c.typeError(pkg, file, loc, e)
	}
}

// blankName reports a package named _, which go/types accepts when go/packages gives it
// the name (go vet and the compiler reject it).
func (c *converter) blankName(pkg *load.Package) {
	for i, f := range pkg.Syntax {
		file := c.rel(pkg.Files[i])
		if f.Name == nil || f.Name.Name != "_" || file == "" {
			continue
		}
		pos := c.res.Fset.Position(f.Name.Pos())
		c.add(lang.Problem{Kind: lang.TypeError, Location: lang.Location{File: file, Line: pos.Line, Column: pos.Column},
			Message: "invalid package name _", Symbol: file})
	}
}

// hasBroken reports whether a file of pkg has syntax errors.
func (c *converter) hasBroken(pkg *load.Package) bool {
	for _, f := range pkg.Files {
		if c.broken[c.rel(f)] {
			return true
		}
	}
	return false
}

// packageError reports a problem without a position in the repository (conflicting
// package names, an import cycle) on the first changed file of the package's directory.
func (c *converter) packageError(pkg *load.Package, e load.Error) {
	if c.packageBuildError(pkg, e) {
		return
	}
	file := c.fallbackFile(pkg)
	if file == "" {
		return
	}
	c.add(lang.Problem{Kind: lang.TypeError, Location: lang.Location{File: file, Line: 1},
		Message: c.relMsg(e.Msg), Symbol: pkg.PkgPath, Introduced: true})
}

// relMsg makes a go list message one line, without go get advice, with the paths inside
// the repository relative to its root: the same change gives the same message in every
// clone, and a model reads the path it edits.
func (c *converter) relMsg(msg string) string {
	for _, r := range c.roots {
		re := regexp.MustCompile(regexp.QuoteMeta(r) + `(` + regexp.QuoteMeta(string(filepath.Separator)) + `|\b)`)
		msg = re.ReplaceAllStringFunc(msg, func(m string) string {
			if len(m) > len(r) {
				return ""
			}
			return "."
		})
	}
	return oneLine(sanitize(msg))
}

// syntaxError reports every error the parser recovers from, one per position: with
// AllErrors the rest of a position's errors are echoes of its first.
func (c *converter) syntaxError(file string, loc lang.Location, e load.Error) {
	at := fmt.Sprintf("%s:%d:%d", file, loc.Line, loc.Column)
	if c.syntaxSeen[at] {
		return
	}
	c.syntaxSeen[at], c.broken[file] = true, true
	c.add(lang.Problem{Kind: lang.SyntaxErrorKind, Location: loc, Message: oneLine(e.Msg), Symbol: file})
}

// typeError classifies and reports a type error, unless its file has syntax errors or an
// import rule already reported it.
func (c *converter) typeError(pkg *load.Package, file string, loc lang.Location, e load.Error) {
	if strings.HasPrefix(e.Msg, "could not import ") && c.importAt[posKey(e.Pos)] {
		return
	}
	if reExpectedPackage.MatchString(e.Msg) && foundPackages(pkg) {
		return // go list's "found packages" says it, with both files
	}
	f := c.classifyTypeError(pkg, e)
	f.Location = loc
	if w := spanWidth(f); w > 0 {
		f.Location.EndLine, f.Location.EndColumn = loc.Line, loc.Column+w
	}
	if f.Fix != nil && f.Fix.Edits[0].Range.File == "" {
		f.Fix.Edits[0].Range = f.Location // a rename of the name the finding points at
	}
	c.explainIgnored(&f, file)
	c.add(f)
}

// spanWidth returns the width of the name a finding points at, when its rule names one:
// the selected name, or for a missing import the package qualifier.
func spanWidth(f lang.Problem) int {
	switch f.Kind {
	case lang.UnknownSymbol, lang.UnknownMember, lang.Undefined:
		return len(f.Symbol[strings.LastIndexByte(f.Symbol, '.')+1:])
	case MissingImport:
		return len(firstElem(strings.ReplaceAll(f.Symbol, ".", "/")))
	}
	return 0
}

func (c *converter) fallbackFile(pkg *load.Package) string {
	for _, f := range c.unit.goFiles {
		for _, pf := range pkg.Files {
			if c.rel(pf) == f.Path {
				return f.Path
			}
		}
	}
	if len(c.unit.goFiles) > 0 {
		return c.unit.goFiles[0].Path
	}
	return ""
}

var (
	reUndefinedQualified = lazyregexp.New(`^undefined: ([\pL_][\pL\pN_]*)\.([\pL_][\pL\pN_]*)`)
	reUndefined          = lazyregexp.New(`^undefined: ([\pL_][\pL\pN_]*)$`)
	reMissingMember      = lazyregexp.New(`^(.+)\.([\pL_][\pL\pN_]*) undefined \((.*)\)$`)
	reWrongSignature     = lazyregexp.New(`^(not enough arguments in call|too many arguments in call|not enough return values|too many return values|cannot use .* as .* value in (argument|return statement)|assignment mismatch: |.* \(no value\) used as value|cannot use .*\.\.\. in call to non-variadic|cannot use generic function .* without instantiation|not enough type arguments|too many type arguments|got \d+ type arguments?|.* is not a generic)`)
	reExpectedPackage    = lazyregexp.New(`^package \S+; expected package \S+$`)
	reTooNew             = lazyregexp.New(`requires go1\.\d+(\.\d+)? or later|requires go\d|\(-lang was set to go`)
)

// classifyTypeError maps a go/types error message to a rule, message and suggestion. The
// messages are go/types' stable wording (go/types exposes no error code); each pattern
// has a test.
func (c *converter) classifyTypeError(pkg *load.Package, e load.Error) lang.Problem {
	msg := e.Msg
	if m := reUndefinedQualified.FindStringSubmatch(msg); m != nil {
		return c.unknownSymbol(pkg, e, m[1], m[2])
	}
	if m := reUndefined.FindStringSubmatch(msg); m != nil {
		if f, ok := c.missingImport(pkg, e, m[1]); ok {
			return f
		}
		return c.undefined(pkg, e, m[1])
	}
	if m := reMissingMember.FindStringSubmatch(msg); m != nil {
		return c.unknownMember(pkg, e, m[1], m[2], m[3])
	}
	f := lang.Problem{Kind: lang.TypeError, Message: firstLine(msg), Symbol: firstLine(msg)}
	switch {
	case reTooNew.MatchString(msg):
		f.Kind = lang.APITooNew
	case reWrongSignature.MatchString(msg):
		f.Kind = lang.WrongSignature
		f.Message = oneLine(msg)
		f.Suggestion, f.Fix = c.siblingHint(pkg, e.Pos)
	}
	return f
}

// firstLine keeps go/types' headline; for calls the have/want lines follow and are
// kept by oneLine where they help.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// findSelector returns the selector expression whose Sel starts at pos, and the file.
func findSelector(pkg *load.Package, fset *token.FileSet, pos token.Position) (*ast.SelectorExpr, *ast.File) {
	var found *ast.SelectorExpr
	var file *ast.File
	for i, f := range pkg.Syntax {
		if pkg.Files[i] != pos.Filename && fset.Position(f.FileStart).Filename != pos.Filename {
			continue
		}
		file = f
		ast.Inspect(f, func(n ast.Node) bool {
			if found != nil {
				return false
			}
			if se, ok := n.(*ast.SelectorExpr); ok {
				if p := fset.Position(se.Sel.Pos()); p.Line == pos.Line && p.Column == pos.Column {
					found = se
					return false
				}
			}
			return true
		})
	}
	return found, file
}

// findIdent returns the identifier at pos and its file.
func findIdent(pkg *load.Package, fset *token.FileSet, pos token.Position) (*ast.Ident, *ast.File) {
	for i, f := range pkg.Syntax {
		if pkg.Files[i] != pos.Filename && fset.Position(f.FileStart).Filename != pos.Filename {
			continue
		}
		var found *ast.Ident
		ast.Inspect(f, func(n ast.Node) bool {
			if found != nil {
				return false
			}
			if id, ok := n.(*ast.Ident); ok {
				if p := fset.Position(id.Pos()); p.Line == pos.Line && p.Column == pos.Column {
					found = id
				}
			}
			return true
		})
		return found, f
	}
	return nil, nil
}
