// Package lang is the contract between dimensions and language frontends. A frontend turns
// one file into what the language-agnostic dimensions need: declarations with spans and
// metrics, declared identifiers, comments and syntax errors. Adding a language means adding
// a frontend; no dimension changes.
package lang

import "github.com/agentverify/agentverify/change"

// Frontend parses the files of one language.
type Frontend interface {
	// Name is the language's name, e.g. "go".
	Name() string
	// Match reports whether the frontend handles the file at path.
	Match(path string) bool
	// Parse parses src. Syntax errors are returned in File.SyntaxErrors with whatever
	// could be recovered; the error result is for failures that are not about the source.
	Parse(path string, src []byte) (*File, error)
	// Naming is the identifier convention of the language ("go", "lisp-case", ...), used
	// by style when the policy says "detect".
	Naming() string
}

// Pos is a 1-based line and column (column in bytes, as go/token counts).
type Pos struct {
	Line   int
	Column int
}

// Span is a source range, End inclusive of its line.
type Span struct {
	Start Pos
	End   Pos
}

// DeclKind classifies a declaration.
type DeclKind string

// Declaration kinds.
const (
	Func   DeclKind = "func"
	Method DeclKind = "method"
	Type   DeclKind = "type"
	Var    DeclKind = "var"
	Const  DeclKind = "const"
	Field  DeclKind = "field"
)

// Decl is one declaration of a file.
type Decl struct {
	// Name is the declared name; methods are qualified by receiver type: "T.Name".
	Name     string
	Kind     DeclKind
	Exported bool
	// Documented is set when the declaration (or its group) has a doc comment.
	Documented bool
	// Test is set for test, fuzz, benchmark and example functions in test files.
	Test    bool
	Span    Span
	NamePos Pos
	// Signature is a normalised textual signature for comparisons across versions.
	Signature string
	// Metrics is set for functions and methods that have a body.
	Metrics *Metrics
}

// Metrics are the complexity numbers of one function (function literals count toward
// their enclosing function).
type Metrics struct {
	Lines      int // body lines: non-blank, non-comment, between the braces (P16)
	Nesting    int // deepest control-structure nesting (P17)
	Cyclomatic int // gocyclo's number (P18)
	Cognitive  int // gocognit's number
}

// IdentKind classifies a declared identifier for naming checks.
type IdentKind string

// Identifier kinds.
const (
	IdentFunc    IdentKind = "func"
	IdentMethod  IdentKind = "method"
	IdentType    IdentKind = "type"
	IdentVar     IdentKind = "var"
	IdentConst   IdentKind = "const"
	IdentField   IdentKind = "field"
	IdentParam   IdentKind = "param"
	IdentPackage IdentKind = "package"
	IdentLabel   IdentKind = "label"
)

// Ident is an identifier the file declares.
type Ident struct {
	Name string
	Kind IdentKind
	Pos  Pos
}

// Comment is one comment; Text includes the comment markers ("// ...").
type Comment struct {
	Text string
	Pos  Pos
	// EndLine is the last line of the comment.
	EndLine int
}

// SyntaxError is a parse error at a position.
type SyntaxError struct {
	Pos     Pos
	Message string
}

// Skip is one place where code skips a test; Text is the skipping code as written.
type Skip struct {
	Pos  Pos
	Text string
}

// File is what a frontend extracts from one file.
type File struct {
	Path         string
	Language     string
	Package      string
	Decls        []Decl
	Idents       []Ident
	Comments     []Comment
	SyntaxErrors []SyntaxError
	// Skips are the places where the file's code skips a test (Go's t.Skip, pytest's
	// skip marks, FiveAM's skip): the semantics dimension reports the ones a change adds.
	Skips []Skip
	// Lines holds the file's lines without terminators, for line-based checks.
	Lines []string
	// Test is set for a file that holds tests or test fixtures (Go's _test.go, Python's
	// test_*.py, *_test.py and conftest.py): no API, and no doc comments required.
	Test bool
	// DocTerm is what the language calls a doc comment, for messages ("docstring");
	// empty means "doc comment".
	DocTerm string
	// Syntax is the frontend's own syntax tree of the file, kept for its resolver, which
	// would otherwise parse the file again; nil when the frontend keeps none.
	Syntax any
}

// Registry is an ordered set of frontends; the first that matches a path wins.
type Registry []Frontend

// For returns the frontend for path, or nil when the language is unknown (such files get
// scope checks only).
func (r Registry) For(path string) Frontend {
	for _, f := range r {
		if f.Match(path) {
			return f
		}
	}
	return nil
}

// Place is a position in a file of one side of a change; File is repository-relative.
type Place struct {
	File string
	Pos  Pos
}

// APIChange is one incompatible change to the public API of a package between the base
// and the head of a change, as a frontend's API comparison finds it. Compatible changes
// (additions) are not APIChanges.
type APIChange struct {
	// Package is the package's import path (at the base); Dir its repository-relative
	// directory.
	Package, Dir string
	// Subject is what changed, in the comparison's own notation ("T", "(*T).M", "S.F",
	// "I.M, method set of *S"); empty for the package as a whole. Detail says what
	// happened: "removed", "changed from int to string", "value changed from 1 to 2".
	Subject, Detail string
	// Name is the identifier that callers write to use what changed ("M" for (*T).M), or
	// the package's import path when the package itself changed; used to tell the errors
	// a change causes in its callers from errors it does not.
	Name string
	// Qualified is the subject as the language writes it with its package
	// ("alexandria:rotate"), for messages; empty means Package.Subject.
	Qualified string
	// Removed is set when the subject (or the package) is gone.
	Removed bool
	// Internal is set when only the project itself can use the package (Go's internal/
	// directories): its changes count only when the policy says include_internal.
	Internal bool
	// RenamedTo names a new declaration of the same kind and type, when the removal looks
	// like a rename.
	RenamedTo string
	// Head is where the change shows at the head: the declaration as it is now; for a
	// removal the package clause of the file it was in (or of another file of the
	// package), for a removed package the deleted file at line 1.
	Head Place
	// Base is where the subject was declared at the base; File is empty when unknown.
	Base Place
}

// BrokenUse is an error in code the change did not touch, caused by an APIChange: a
// caller that no longer compiles.
type BrokenUse struct {
	// Package is the import path of the broken caller's package, Dir its directory.
	Package, Dir string
	At           Place
	// Message is the compiler's error, on one line.
	Message string
	// Change is the change that broke it.
	Change APIChange
}

// APIComparer is the part of a frontend that compares the public API of the packages a
// change touches (the semantics dimension runs the comparer of every frontend that has
// one).
type APIComparer interface {
	// CompareAPI reports the incompatible changes the change makes to the API of the
	// packages it touches. Packages that are no API (a Go main package) are left out.
	CompareAPI(req *Request) ([]APIChange, error)
	// BrokenUses reports every error that changes cause in the packages of the
	// repository outside the change that use the changed packages.
	BrokenUses(req *Request, changes []APIChange) ([]BrokenUse, error)
}

// ConfigGuard is implemented by a frontend whose checker reads a configuration from the
// repository (tsconfig.json): a change that edits it could check its own code less. The
// frontend checks under the trusted side's configuration anyway; ConfigWeakenings
// reports what the change's configuration files loosen (problems of kind
// GateConfigChanged, one per file, at line 1), which the scope dimension reports as
// scope/gate-config-changed unless the base policy allows changes to the gate's
// configuration. Nothing in check mode (req.Changes.NoBase): the tree is its own trusted
// side.
type ConfigGuard interface {
	ConfigWeakenings(req *Request) ([]Problem, error)
}

// Linker is implemented by a frontend whose files do not tell everything about their own
// declarations: a Common Lisp definition is exported by the :export of a defpackage that
// is usually in another file. Link returns lf completed from the rest of the project at
// the head of req's change (Decl.Exported); lf itself, shared by every dimension, is not
// modified. A dimension that reads Decl.Exported links the file first.
type Linker interface {
	Link(req *Request, lf *File) (*File, error)
}

// NamingDetector is implemented by a frontend whose language has no single naming
// convention (Common Lisp is written in lisp-case, snake_case or camelCase). When the
// policy's naming is "detect", style checks the language's files against the convention
// most of the project's identifiers follow, instead of the frontend's Naming.
type NamingDetector interface {
	// Conventions lists the conventions to choose from; the first (the frontend's
	// Naming) wins ties and is used when no identifier tells them apart.
	Conventions() []string
	// ProjectIdents returns the identifiers declared by the language's files of the
	// repository that the change does not touch (the same on both sides of it; a change
	// does not set the style it is checked against), or in check mode (no base) by all
	// of them.
	ProjectIdents(req *Request) ([]Ident, error)
}

// DocAdvisor is implemented by a frontend whose documentation is not a comment above the
// declaration (a Common Lisp docstring): DocAdvice tells how to document d, for style's
// missing-doc suggestion.
type DocAdvisor interface {
	DocAdvice(d Decl) string
}

// TestReach is implemented by a frontend whose test command runs only the tests of one
// project root (Go: `go test ./...` runs the module of the nearest go.mod and skips a
// nested one). StillRuns reports whether the tests of a file that changes moves from
// from (its base path) to to (its head path) are run as they were: a move out of that
// reach, such as into a new nested module, removes them. Without the trees (nil FS) it
// reports true.
type TestReach interface {
	StillRuns(changes *change.Set, from, to string) bool
}
